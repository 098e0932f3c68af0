#!/usr/bin/env node
// The `whet` command line. This is the only module that exits the process: everything else throws one
// of the error classes in errors.ts or returns a result, and runCli maps those to exit codes (DESIGN.md:
// 0 ok, 1 a gate or threshold failed, 2 bad usage or input, 3 engine or infrastructure error).
import { realpathSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import type { CliDeps } from './commands/deps.js';
import { registerEvaluateCommand } from './commands/evaluate.js';
import { registerInspectCommands } from './commands/inspect.js';
import { registerLoopCommands } from './commands/loop.js';
import { registerNightlyCommands } from './commands/nightly.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerInitCommand } from './commands/init.js';
import { registerPromoteCommands } from './commands/promote.js';
import { registerIntentsCommand } from './intents/command.js';
import { registerCalibrateCommand } from './calibrate/command.js';
import { registerLintCommand } from './lint/command.js';
import { WhetError } from './errors.js';

export type { CliDeps } from './commands/deps.js';

function program(deps: CliDeps, setCode: (c: number) => void): Command {
  const cmd = new Command('whet')
    .description('Measure whether a change to an AI agent’s instructions helps, and keep only what the numbers support.')
    .version(process.env.npm_package_version ?? '0.1.0')
    .exitOverride()
    .configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr })
    .showHelpAfterError('(run with --help for usage)');

  registerEvaluateCommand(cmd, deps, setCode);
  registerLoopCommands(cmd, deps, setCode);
  registerInspectCommands(cmd, deps, setCode);
  registerPromoteCommands(cmd, deps, setCode);
  registerIntentsCommand(cmd, deps, setCode);
  registerNightlyCommands(cmd, deps, setCode);
  registerCalibrateCommand(cmd, deps, setCode);
  registerLintCommand(cmd, deps, setCode);
  registerDoctorCommand(cmd, deps, setCode);
  registerInitCommand(cmd, deps, setCode);

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
    tty: process.stderr.isTTY === true,
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
