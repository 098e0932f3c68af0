#!/usr/bin/env node
// The `whet` command line: which command families a call needs, and the top-level help. The program's
// scaffolding (version, output, errors → exit codes) and the process around it (signals, the exit) are
// src/program/, which the stage programs (src/stage-programs/<s>.ts) stand on too; src/program/main.ts is the
// only module that exits the process.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, Help } from 'commander';
import type { CliDeps, SetCode } from './program/deps.js';
import { METHOD_GUIDE } from './core/package-info.js';
import { COMMAND_TABLE, commandName } from './commands/help-table.js';
import { baseProgram, runProgram, type ProgramBuilder } from './program/program.js';
import { main } from './program/main.js';

export type { CliDeps } from './program/deps.js';
export { baseProgram, type ProgramBuilder } from './program/program.js';

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
export async function runCli(argv: string[], deps: CliDeps, build: ProgramBuilder = program): Promise<number> {
  return runProgram(argv, deps, build);
}

const invokedDirectly = (() => {
  try {
    return realpathSync(process.argv[1] ?? '') === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
})();
if (invokedDirectly) await main(process.argv.slice(2), program);
