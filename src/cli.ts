#!/usr/bin/env node
// The `whet` command line. This is the only module that exits the process: everything else throws one
// of the error classes in errors.ts or returns a result, and runCli maps those to exit codes (DESIGN.md:
// 0 ok, 1 a gate or threshold failed, 2 bad usage or input, 3 engine or infrastructure error).
import { writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { WhetError } from './errors.js';

export interface CliDeps {
  cwd: string;
  env: NodeJS.ProcessEnv;
  now: () => Date;
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  signal?: AbortSignal;
}

const intArg = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return Number(v);
};
const numArg = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError(`${name} must be a number`);
  return n;
};

function program(deps: CliDeps, setCode: (c: number) => void): Command {
  const cmd = new Command('whet')
    .description('Measure whether a change to an AI agent’s instructions helps, and keep only what the numbers support.')
    .version(process.env.npm_package_version ?? '0.1.0')
    .exitOverride()
    .configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr })
    .showHelpAfterError('(run with --help for usage)');

  cmd
    .command('evaluate')
    .description('evaluate a skill on a task suite: standalone, or a ranked candidate against the baseline')
    .option('--standalone', 'evaluate the current skill (needs --skill-path)')
    .option('--input <ranking.json>', 'pipeline mode: the discriminator’s ranking')
    .option('--candidate-id <id>', 'pipeline mode: the candidate to evaluate')
    .requiredOption('--task-suite <file>', 'the task suite (YAML)')
    .option('--state-root <dir>', 'state directory (default: state_dir from pipeline.yaml, else ./state)')
    .option('--skill-path <dir>', 'standalone mode: the skill folder or its SKILL.md')
    .option('--pass-k <n>', 'attempts per task (pass@k)', intArg('--pass-k'))
    .option('--eval-threshold <score>', 'skip candidates whose discriminator score is below this', numArg('--eval-threshold'))
    .option('--baseline-cache-dir <dir>', 'where baselines are cached (default: <state>/cache/baselines)')
    .option('--cache-ttl <duration>', 'baseline cache lifetime, e.g. "12h", "7d" (default 7d)')
    .option('--force', 'ignore cached baselines (a fresh result is still stored)')
    .option('--mock', 'use the offline mock engine for tasks and judges')
    .option('--output <file>', 'also write the evaluation artifact here')
    .option('--concurrency <n>', 'task attempts run at once', intArg('--concurrency'))
    .option('-c, --config <file>', 'pipeline config (default: ./pipeline.yaml when present)')
    .addOption(new Option('--json', 'print the artifact as JSON instead of the summary'))
    .action(async (opts: Record<string, unknown>) => {
      const stage = await import('../stages/evaluate/index.js');
      const result = await stage.run({
        cwd: deps.cwd,
        env: deps.env,
        now: deps.now,
        log: (line) => deps.stderr(`${line}\n`),
        signal: deps.signal,
        options: opts,
      });
      if (opts.json && !result.interrupted) deps.stdout(`${JSON.stringify(result.artifact, null, 2)}\n`);
      else deps.stdout(`${stage.summarize(result)}\n`);
      setCode(stage.exitCodeOf(result));
    });

  return cmd;
}

/** Runs the CLI without exiting; returns the exit code. */
export async function runCli(argv: string[], deps: CliDeps): Promise<number> {
  let code = 0;
  try {
    await program(deps, (c) => (code = c)).parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof WhetError) {
      deps.stderr(`whet: ${err.message}\n`);
      return err.exitCode;
    }
    deps.stderr(`whet: internal error: ${(err as Error).stack ?? String(err)}\n`);
    return 3;
  }
}

export async function main(argv: string[]): Promise<never> {
  const ac = new AbortController();
  let interrupts = 0;
  process.on('SIGINT', () => {
    // First Ctrl-C: stop at the next task boundary and write what is done. Second: leave now.
    if (++interrupts > 1) process.exit(130);
    process.stderr.write('whet: stopping after the tasks in flight (Ctrl-C again to quit now)\n');
    ac.abort();
  });
  const code = await runCli(argv, {
    cwd: process.cwd(),
    env: process.env,
    now: () => new Date(),
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    signal: ac.signal,
  });
  const statsFile = process.env.WHET_BENCH_STATS;
  if (statsFile) writeFileSync(statsFile, JSON.stringify({ max_rss_kb: process.resourceUsage().maxRSS, uptime_ms: Math.round(process.uptime() * 1000) }));
  // Let stdout drain before exiting (a pipe may still hold the summary).
  await new Promise<void>((r) => (process.stdout.writableLength === 0 ? r() : process.stdout.once('drain', () => r())));
  process.exit(code);
}

const invokedDirectly = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
})();
if (invokedDirectly) await main(process.argv.slice(2));
