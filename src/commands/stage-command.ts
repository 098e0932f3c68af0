// One loop stage as a command: `whet generate|discriminate|gate|learn` and the stage programs
// (src/stage-programs/<stage>.ts) share it, so a stage run either way takes the same flags, prints the same and
// exits the same. It imports no stage: the caller hands it the stages it may run (src/runner/registry.ts
// for `whet`, only its own for a stage program).
import type { Command } from 'commander';
import { join, relative } from 'node:path';
import { writeFileAtomically } from '../core/atomic.js';
import { UsageError } from '../core/errors.js';
import { runView, formatRun } from '../inspect/run-view.js';
import { outcomeLines } from '../inspect/outcome.js';
import type { LoopEnv } from '../loop/open.js';
import { resolveRun } from '../loop/resolve-run.js';
import { driveRun, type LoopResult, type Stages } from '../runner/loop.js';
import { stateLayout } from '../state/layout.js';
import { numArg, type CliDeps, type SetCode } from '../program/deps.js';
import { stateDirOf } from './state-dir.js';

/** The stages that have a command of their own (evaluate is `whet evaluate`, with its own flags). */
export const STAGE_COMMANDS = ['generate', 'discriminate', 'gate', 'learn'] as const;
export type StageCommand = (typeof STAGE_COMMANDS)[number];

export interface LoopOpts {
  config?: string;
  stateRoot?: string;
  mock?: boolean;
  /** `whet run --apply`: a mock run's keeps edit the skill itself, not a copy. */
  apply?: boolean;
  target?: string;
  run?: string;
  from?: string;
  json?: boolean;
  evalThreshold?: number;
}

export const EVAL_THRESHOLD_HELP = 'candidates scored at or above this are evaluated (default: evaluate.eval_threshold; a category listed in evaluate.eval_thresholds keeps its own); registered by a new run, refused when it differs from what an existing run registered';
export const threshold = (o: LoopOpts) => (o.evalThreshold === undefined ? {} : { evalThreshold: o.evalThreshold });

export function loopEnv(deps: CliDeps): LoopEnv {
  return { cwd: deps.cwd, env: deps.env, now: deps.now, log: (l) => deps.stderr(`${l}\n`), signal: deps.signal, ...(deps.tty ? { progressOut: deps.stderr } : {}) };
}

export function exitCodeOf(r: LoopResult): number {
  if (r.status === 'interrupted') return 130;
  if (r.status === 'aborted' || r.status === 'budget_exhausted' || r.status === 'rate_limited') return 1;
  // The engine or a judge failed alike on every call it was given: an engine error, not a result.
  if (r.status === 'stopped_early') return 3;
  return 0;
}

export async function report(deps: CliDeps, stateDir: string, runId: string, r: LoopResult, json: boolean | undefined, setCode: SetCode, copyOf?: string): Promise<void> {
  const view = runView(stateLayout.runDir(stateDir, runId));
  let reportFile: string | undefined;
  if (r.status !== 'stepped') {
    // The evidence report the method guide asks for, beside the run's artifacts (also: whet report RUN).
    try {
      const { reportOf, renderReport } = await import('./report.js');
      const file = join(stateLayout.runDir(stateDir, runId), 'report.md');
      await writeFileAtomically(file, renderReport(reportOf(stateDir, runId), 'md'));
      reportFile = file;
    } catch (err) {
      deps.stderr(`whet: warning: the evidence report could not be written: ${(err as Error).message}\n`);
    }
  }
  if (json) deps.stdout(`${JSON.stringify({ run_id: runId, status: r.status, reason: r.reason, ...view }, null, 2)}\n`);
  else {
    const where = reportFile ? `evidence report: ${relative(deps.cwd, reportFile)}\n` : '';
    // A whole run ends with what it leaves behind (src/inspect/outcome.ts); one stage says what it did.
    const outcome = r.status === 'stepped' ? '' : `${outcomeLines(view, { stateDir, cwd: deps.cwd, status: r.status, reason: r.reason, ...(copyOf ? { copyOf } : {}) }).join('\n')}\n`;
    deps.stdout(`${formatRun(view)}\n${r.status === 'stepped' ? r.reason : `run ${r.status}: ${r.reason}`}\n${where}${outcome}`);
  }
  setCode(exitCodeOf(r));
}

export const common = (c: Command) =>
  c
    .option('-c, --config <file>', 'pipeline config (default: ./pipeline.yaml)')
    .option('--state-root <dir>', 'state directory (default: state_dir from the config)')
    .option('--json', 'print the run as JSON');

/** `whet <step>`: the stage on a run's current iteration, through the stages it is given. */
export function registerStageCommand(program: Command, step: StageCommand, deps: CliDeps, setCode: SetCode, stages: Stages): void {
  const cmd = common(program.command(step))
    .description(`run the ${step} stage of a run's current iteration on saved state (redoes it if it already ran)`)
    .option('--run <id>', 'run id (default: the newest run)');
  // Of these stages only discriminate reads the threshold.
  if (step === 'discriminate') cmd.option('--eval-threshold <score>', EVAL_THRESHOLD_HELP, numArg('--eval-threshold'));
  cmd.action(async (o: LoopOpts) => {
    const stateDir = await stateDirOf(deps, o);
    const runId = resolveRun(stateDir, o.run);
    await (await import('../inspect/refuse-damaged.js')).refuseDamagedRun(stateDir, runId, `run the ${step} stage of run ${runId}`);
    const r = await driveRun(loopEnv(deps), { stateDir, runId, only: step, ...threshold(o) }, stages);
    if (r.outcomes.length === 0 && r.status === 'stepped') throw new UsageError(r.reason);
    await report(deps, stateDir, runId, r, o.json, setCode);
  });
}
