// `whet evaluate`: seed 001's flags, plus concurrency, cache control, JSON output and a config file.
import { Option, type Command } from 'commander';
import type { EvaluateContext, MeasureRequest } from '../../stages/evaluate/index.js';
import { intArg, numArg, type CliDeps, type SetCode } from '../program/deps.js';
import { UsageError } from '../core/errors.js';
import { stateDirOf } from './state-dir.js';

/** The flags of `whet evaluate`, as commander hands them over: turned into the typed request below, here only. */
interface EvaluateFlags {
  standalone?: boolean;
  input?: string;
  candidateId?: string;
  taskSuite?: string;
  stateRoot?: string;
  skillPath?: string;
  passK?: number;
  evalThreshold?: number;
  baselineCacheDir?: string;
  cacheTtl?: string;
  force?: boolean;
  mock?: boolean;
  withoutSkill?: boolean;
  output?: string;
  concurrency?: number;
  shard?: string;
  run?: string;
  shardDurations?: string;
  config?: string;
  json?: boolean;
}

/** What the flags ask to measure: the current skill (--standalone) or a ranked candidate; refused when incomplete. */
function requestOf(o: EvaluateFlags): MeasureRequest {
  if (o.standalone) {
    if (!o.skillPath) throw new UsageError('--skill-path is required with --standalone (the skill folder or its SKILL.md)');
    if (o.input || o.candidateId) throw new UsageError('--standalone evaluates the current skill; --input and --candidate-id belong to pipeline mode');
    return { mode: 'standalone', skillPath: o.skillPath, ...(o.withoutSkill ? { withoutSkill: true } : {}) };
  }
  if (!o.input || !o.candidateId) throw new UsageError('pipeline mode needs --input RANKING.json and --candidate-id ID (or use --standalone)');
  if (o.skillPath) throw new UsageError('--skill-path belongs to --standalone; in pipeline mode the target comes from the ranking');
  return { mode: 'pipeline', input: o.input, candidateId: o.candidateId, ...(o.evalThreshold !== undefined ? { evalThreshold: o.evalThreshold } : {}) };
}

export function registerEvaluateCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('evaluate')
    .description('evaluate a skill on a task suite: standalone, or a ranked candidate against the baseline')
    .option('--standalone', 'evaluate the current skill (needs --skill-path)')
    .option('--input <ranking.json>', 'pipeline mode: the discriminator’s ranking')
    .option('--candidate-id <id>', 'pipeline mode: the candidate to evaluate')
    .option('--task-suite <file>', 'the task suite (YAML; required except with --run)')
    .option('--state-root <dir>', 'state directory (default: state_dir from pipeline.yaml, else ./state)')
    .option('--skill-path <dir>', 'standalone mode: the skill folder or its SKILL.md')
    .option('--pass-k <n>', 'attempts per task (pass@k)', intArg('--pass-k'))
    .option('--eval-threshold <score>', 'skip candidates whose discriminator score is below this (default: evaluate.eval_threshold; a category listed in evaluate.eval_thresholds keeps its own)', numArg('--eval-threshold'))
    .option('--baseline-cache-dir <dir>', 'where baselines are cached (default: <state>/cache/baselines)')
    .option('--cache-ttl <duration>', 'baseline cache lifetime, e.g. "12h", "7d" (default 7d)')
    .option('--force', 'ignore cached baselines and suites\' checked copies (fresh ones are still stored)')
    .option('--mock', 'use the offline mock engine for tasks and judges')
    .option('--without-skill', 'standalone: also measure the suite with no skill at all, and the skill\'s own effect against it (paired by task, with its interval)')
    .option('--output <file>', 'also write the evaluation artifact here')
    .option('--concurrency <n>', 'task attempts run at once', intArg('--concurrency'))
    .option('--shard <i/n>', 'run only shard i of n (its share of the tasks) and write a shard manifest; `whet merge` decides')
    .option('--run <id>', 'with --shard: a shard of loop run <id>, whose evaluation was handed to shards (evaluate.shards)')
    .option('--shard-durations <results.jsonl>', 'with --shard: balance shards on the durations an earlier run recorded')
    .option('-c, --config <file>', 'pipeline config (default: ./pipeline.yaml when present)')
    .addOption(new Option('--json', 'print the artifact as JSON instead of the summary'))
    .action(async (opts: EvaluateFlags) => {
      const stage = await import('../../stages/evaluate/index.js');
      const ctx: EvaluateContext = {
        cwd: deps.cwd,
        env: deps.env,
        now: deps.now,
        log: (line: string) => deps.stderr(`${line}\n`),
        signal: deps.signal,
        source: { taskSuite: opts.taskSuite, stateRoot: opts.stateRoot, config: opts.config, mock: opts.mock },
        settings: { passK: opts.passK, concurrency: opts.concurrency, cacheTtl: opts.cacheTtl, baselineCacheDir: opts.baselineCacheDir, force: opts.force, output: opts.output },
        ...(deps.tty ? { progressOut: deps.stderr } : {}),
      };
      if (opts.withoutSkill && (!opts.standalone || opts.shard !== undefined)) throw new UsageError('--without-skill measures the skill against no skill in a standalone evaluation: give --standalone (and no --shard)');
      if (opts.run && opts.shard === undefined) throw new UsageError('--run runs a shard of a loop run: give --shard i/n (whet resume RUN continues the run itself)');
      if (opts.run && (opts.taskSuite || opts.skillPath || opts.input || opts.standalone)) throw new UsageError('--run takes the suite, skill and ranking from the run; drop --task-suite, --skill-path, --input and --standalone');
      if (opts.shard !== undefined) {
        // A shard has no verdict: 0 once its share ran (errors included, the merge counts them), 130 interrupted.
        const { runShard, summarizeShard } = await import('../measure/shard.js');
        let r: Awaited<ReturnType<typeof runShard>>;
        if (opts.run) {
          const { runLoopShard } = await import('../../stages/evaluate/loop-shards.js');
          const stateDir = await stateDirOf(deps, opts);
          await (await import('../inspect/refuse-damaged.js')).refuseDamagedRun(stateDir, opts.run, `measure shard ${opts.shard} of run ${opts.run}`);
          r = await runLoopShard(ctx, { stateDir, runId: opts.run, shard: opts.shard, ...(opts.concurrency ? { concurrency: opts.concurrency } : {}) });
        } else r = await runShard(ctx, { shard: opts.shard, ...(opts.shardDurations ? { durations: opts.shardDurations } : {}), of: requestOf(opts) });
        if (r.interrupted) deps.stdout(`${stage.summarize(r)}\n`);
        else deps.stdout(opts.json ? `${JSON.stringify(r.manifest, null, 2)}\n` : `${summarizeShard(r)}\n`);
        setCode(r.interrupted ? (r.budgetExhausted ? 1 : 130) : 0);
        return;
      }
      const result = await stage.run(ctx, requestOf(opts));
      if (opts.json && !result.interrupted) deps.stdout(`${JSON.stringify(result.artifact, null, 2)}\n`);
      else deps.stdout(`${stage.summarize(result)}\n`);
      setCode(stage.exitCodeOf(result));
    });
}
