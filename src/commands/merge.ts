// `whet merge DIR…`: shard directories (or .tar.gz archives of them) into the one artifact an unsharded
// `whet evaluate` would have written, with its exit code; `--partial` combines some shards into one.
import { Option, type Command } from 'commander';
import { intArg, type CliDeps, type SetCode } from '../program/deps.js';

interface MergeFlags {
  partial?: boolean;
  stateRoot?: string;
  taskSuite?: string;
  skillPath?: string;
  input?: string;
  passK?: number;
  mock?: boolean;
  config?: string;
  output?: string;
  baselineCacheDir?: string;
  json?: boolean;
}

export function registerMergeCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('merge')
    .description('merge the shards of an evaluation (whet evaluate --shard i/n) into the artifact an unsharded run writes')
    .argument('<dirs...>', 'shard state directories, run directories, or .tar.gz archives of them')
    .option('--partial', 'combine some of the shards into one shard directory (no verdict), to merge later')
    .option('--state-root <dir>', 'where the merged run is written (default: state_dir from pipeline.yaml, else ./state)')
    .option('--task-suite <file>', 'the suite, when not where the shards were given it')
    .option('--skill-path <dir>', 'standalone: the skill, when not where the shards were given it')
    .option('--input <ranking.json>', 'pipeline mode: the ranking, when not where the shards were given it')
    .option('--pass-k <n>', 'as the shards were run (default: what they recorded)', intArg('--pass-k'))
    .option('--mock', 'as the shards were run (default: what they recorded)')
    .option('--baseline-cache-dir <dir>', 'where the merged baseline is cached (default: <state>/cache/baselines)')
    .option('--output <file>', 'also write the evaluation artifact here')
    .option('-c, --config <file>', 'pipeline config (default: what the shards recorded, else ./pipeline.yaml)')
    .addOption(new Option('--json', 'print the artifact as JSON instead of the summary'))
    .action(async (dirs: string[], opts: MergeFlags) => {
      const { runMerge } = await import('../measure/merge.js');
      const stage = await import('../../stages/evaluate/index.js');
      const { json, partial } = opts;
      const results = await runMerge(
        {
          cwd: deps.cwd,
          env: deps.env,
          now: deps.now,
          log: (line) => deps.stderr(`${line}\n`),
          signal: deps.signal,
          source: { taskSuite: opts.taskSuite, stateRoot: opts.stateRoot, config: opts.config, mock: opts.mock },
          settings: { passK: opts.passK, baselineCacheDir: opts.baselineCacheDir, output: opts.output },
        },
        { dirs, partial, skillPath: opts.skillPath, input: opts.input, verify: (await import('../inspect/refuse-damaged.js')).refuseDamagedShards },
      );
      const texts: string[] = [];
      const artifacts: unknown[] = [];
      let code = 0;
      for (const r of results) {
        if (r.partial) {
          texts.push(`combined shards ${r.covers.join(', ')} of ${r.total} (${r.tasks} tasks) into ${r.manifestPath}; merge it with the others to get a verdict`);
          continue;
        }
        texts.push(stage.summarize(r));
        artifacts.push(r.artifact);
        // Several targets (baseline/nightly shards): the worst verdict's code, as `whet baseline` exits 1 unless all pass.
        code = Math.max(code, stage.exitCodeOf(r));
      }
      if (json && artifacts.length) deps.stdout(`${JSON.stringify(artifacts.length === 1 ? artifacts[0] : artifacts, null, 2)}\n`);
      else deps.stdout(`${texts.join('\n\n')}\n`);
      setCode(code);
    });
}
