#!/usr/bin/env node
// The `whet` command line. This is the only module that exits the process: everything else throws one
// of the error classes in errors.ts or returns a result, and runCli maps those to exit codes (DESIGN.md:
// 0 ok, 1 a gate or threshold failed, 2 bad usage or input, 3 engine or infrastructure error).
import { redactText } from './core/redact.js';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Help } from 'commander';
import type { CliDeps, SetCode } from './commands/deps.js';
import { WhetError, isNoSpace } from './core/errors.js';
import { METHOD_GUIDE, VERSION } from './core/package-info.js';
import { COMMAND_TABLE, commandName } from './commands/help-table.js';
import { enableCompileCache } from './core/compile-cache.js';

export type { CliDeps } from './commands/deps.js';

type Registrar = (program: Command, deps: CliDeps, setCode: SetCode) => void;
type Family = () => Promise<Registrar[]>;

// Each command family is imported only when its command runs; top-level help and --version come from a
// static table (commands/help-table.ts): a user typing `whet status` does not pay for the engines
// or the loop's stages, and `whet --help` pays for none of them.
const evaluate: Family = async () => [(await import('./commands/evaluate.js')).registerEvaluateCommand, (await import('./commands/merge.js')).registerMergeCommand];
const loop: Family = async () => [(await import('./commands/loop.js')).registerLoopCommands];
const inspect: Family = async () => [(await import('./commands/inspect.js')).registerInspectCommands];
const promote: Family = async () => [(await import('./commands/promote.js')).registerPromoteCommands];
const intents: Family = async () => [(await import('./commands/intents.js')).registerIntentsCommand];
const nightly: Family = async () => [(await import('./commands/nightly.js')).registerNightlyCommands];
const calibrate: Family = async () => [(await import('./commands/calibrate.js')).registerCalibrateCommand];
const lint: Family = async () => [(await import('./commands/lint.js')).registerLintCommand];
const doctor: Family = async () => [(await import('./commands/doctor.js')).registerDoctorCommand];
const init: Family = async () => [(await import('./commands/init.js')).registerInitCommand];
const report: Family = async () => [(await import('./commands/report.js')).registerReportCommand];
const schemas: Family = async () => [(await import('./commands/schemas.js')).registerSchemasCommand];
const plan: Family = async () => [(await import('./commands/plan.js')).registerPlanCommand];
const schedule: Family = async () => [(await import('./commands/schedule.js')).registerScheduleCommand];
const importers: Family = async () => [(await import('./commands/import.js')).registerImportCommand];
const stage: Family = async () => [(await import('./commands/stage.js')).registerStageCommands];
const view: Family = async () => [(await import('./commands/view.js')).registerViewCommand];
const verify: Family = async () => [(await import('./commands/verify.js')).registerVerifyCommand];
export const FAMILIES: Record<string, Family> = {
  evaluate,
  merge: evaluate,
  plan,
  run: loop,
  resume: loop,
  generate: loop,
  discriminate: loop,
  gate: loop,
  learn: loop,
  status: inspect,
  show: inspect,
  diff: inspect,
  verify,
  rollback: promote,
  review: promote,
  intents,
  baseline: nightly,
  nightly,
  prune: nightly,
  calibrate,
  lint,
  doctor,
  init,
  report,
  schemas,
  schedule,
  import: importers,
  stage,
  view,
};

/** Builds the commander program for one call (only the families it needs are imported). */
export type ProgramBuilder = (argv: string[], deps: CliDeps, setCode: SetCode) => Promise<Command>;

/** A commander program named `name` with whetstone's version, output and error conventions. */
export function baseProgram(name: string, deps: CliDeps): Command {
  return new Command(name)
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr })
    .showHelpAfterError('(run with --help for usage)');
}

async function program(argv: string[], deps: CliDeps, setCode: SetCode): Promise<Command> {
  const cmd = baseProgram('whet', deps)
    .description('Measure whether a change to an AI agent’s instructions helps, and keep only what the numbers support.')
    .addHelpText('after', `\nThe method behind the numbers (suites on a grid, splits, judge calibration, the paired test): ${METHOD_GUIDE}`);
  const first = argv.find((a) => !a.startsWith('-'));
  // `whet help <command>` is that command's help: its family, like `whet <command> --help`.
  const named = first === 'help' ? argv[argv.indexOf('help') + 1] : first;
  const family = named ? FAMILIES[named] : undefined;
  if (family) for (const register of await family()) register(cmd, deps, setCode);
  else {
    // Top-level help, --version and a mistyped command: the static table stands in for every family.
    const terms = new Map(COMMAND_TABLE.map((c) => [commandName(c.term), c.term]));
    for (const c of COMMAND_TABLE) cmd.command(commandName(c.term)).description(c.description);
    const plain = new Help();
    cmd.configureHelp({ subcommandTerm: (c) => terms.get(c.name()) ?? plain.subcommandTerm(c) });
  }
  return cmd;
}

/** Runs the CLI without exiting; returns the exit code. */
export async function runCli(argv: string[], raw: CliDeps, build: ProgramBuilder = program): Promise<number> {
  // Everything printed passes the one redaction (src/core/redact.ts): a key in a base_url or an argv value that
  // reached a message (a config error quoting it, an engine error naming the URL) is not shown.
  const deps: CliDeps = { ...raw, stdout: (s) => raw.stdout(redactText(s)), stderr: (s) => raw.stderr(redactText(s)) };
  let code = 0;
  try {
    await (await build(argv, deps, (c) => (code = c))).parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof WhetError) {
      deps.stderr(`whet: ${err.message}\n`);
      return err.exitCode;
    }
    // A write that bypassed src/core/atomic.ts (a folder made, a file moved) on a full disk is still a full
    // disk, not a bug: said plainly, without a stack trace.
    if (isNoSpace(err)) {
      deps.stderr(`whet: no space left on device at ${err.path ?? 'the state directory'}; free some space, then run the command again\n`);
      return 3;
    }
    deps.stderr(`whet: internal error: ${(err as Error).stack ?? String(err)}\n`);
    return 3;
  }
}

/** The process around a program: signals, exit code, drained stdout. `whet` and every stage program use it. */
export async function main(argv: string[], build: ProgramBuilder = program): Promise<never> {
  // Before the command's code is imported, so that Node 22+ can keep it compiled (core/compile-cache.ts).
  enableCompileCache();
  const ac = new AbortController();
  let interrupts = 0;
  let terminated = false;
  process.on('SIGINT', () => {
    // First Ctrl-C: stop at the next task boundary and write what is done. Second: leave now.
    if (++interrupts > 1) process.exit(130);
    process.stderr.write('whet: stopping after the tasks in flight (Ctrl-C again to quit now)\n');
    ac.abort();
  });
  // SIGTERM (timeout(1), systemd, CI cancellation, kill) is the first Ctrl-C: the abort reaches every
  // engine call, whose agent process trees are killed, and the run is recorded as interrupted. Without
  // a handler Node would die at once and leave the agents (and their children) running. 143 = 128 + 15,
  // what a shell reports for a process ended by SIGTERM.
  process.on('SIGTERM', () => {
    if (terminated || ++interrupts > 1) process.exit(143);
    terminated = true;
    process.stderr.write('whet: terminated; stopping the tasks in flight\n');
    ac.abort();
  });
  // A reader that went away (`whet report | head`, a closed pager): what is still to be printed has nowhere
  // to go, which is no failure of the command. It finishes — its state and artifacts are on disk either
  // way — and exits with its own code; without this the write's EPIPE was an unhandled crash (exit 1).
  let stdoutGone = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    stdoutGone = true;
    if (err.code !== 'EPIPE') process.stderr.write(`whet: stdout: ${err.message}; the rest of the output is dropped\n`);
  });
  const deps: CliDeps = {
    cwd: process.cwd(),
    env: process.env,
    now: () => new Date(),
    stdout: (s) => {
      if (!stdoutGone) process.stdout.write(s);
    },
    stderr: (s) => process.stderr.write(s),
    signal: ac.signal,
    tty: process.stderr.isTTY === true,
  };
  const runCode = await runCli(argv, deps, build);
  // Let stdout drain before exiting (a pipe may still hold the summary).
  await new Promise<void>((r) => {
    if (stdoutGone || process.stdout.writableLength === 0) return r();
    process.stdout.once('drain', () => r());
    process.stdout.once('error', () => r());
  });
  process.exit(terminated ? 143 : runCode);
}

const invokedDirectly = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
})();
if (invokedDirectly) await main(process.argv.slice(2));
