// The improvement loop's commands: `whet run`, `whet resume`, and one stage on saved state
// (`whet generate | discriminate | gate | learn`).
import type { Command } from 'commander';
import { UsageError } from '../core/errors.js';
import { runView, formatRun } from '../inspect/run-view.js';
import { createRun, planRun, resolveRun, type LoopEnv } from '../loop/open.js';
import { driveRun, type LoopResult } from '../runner/loop.js';
import { STEPS, type Step } from '../loop/next-step.js';
import { acquireStateLock } from '../state/lock.js';
import { stateLayout } from '../state/layout.js';
import { writeFileAtomically } from '../core/atomic.js';
import { join, relative } from 'node:path';
import { numArg, type CliDeps, type SetCode } from './deps.js';
import { stateDirOf } from './state-dir.js';

interface LoopOpts {
  config?: string;
  stateRoot?: string;
  mock?: boolean;
  target?: string;
  run?: string;
  from?: string;
  json?: boolean;
  evalThreshold?: number;
}

const EVAL_THRESHOLD_HELP = 'candidates scored at or above this are evaluated (default: evaluate.eval_threshold; a category listed in evaluate.eval_thresholds keeps its own); registered by a new run, refused when it differs from what an existing run registered';
const threshold = (o: LoopOpts) => (o.evalThreshold === undefined ? {} : { evalThreshold: o.evalThreshold });

function loopEnv(deps: CliDeps): LoopEnv {
  return { cwd: deps.cwd, env: deps.env, now: deps.now, log: (l) => deps.stderr(`${l}\n`), signal: deps.signal, ...(deps.tty ? { progressOut: deps.stderr } : {}) };
}


function exitCodeOf(r: LoopResult): number {
  if (r.status === 'interrupted') return 130;
  if (r.status === 'aborted' || r.status === 'budget_exhausted' || r.status === 'rate_limited') return 1;
  return 0;
}

async function report(deps: CliDeps, stateDir: string, runId: string, r: LoopResult, json: boolean | undefined, setCode: SetCode): Promise<void> {
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
    deps.stdout(`${formatRun(view)}\n${r.status === 'stepped' ? r.reason : `run ${r.status}: ${r.reason}`}\n${where}`);
  }
  setCode(exitCodeOf(r));
}

const common = (c: Command) =>
  c
    .option('-c, --config <file>', 'pipeline config (default: ./pipeline.yaml)')
    .option('--state-root <dir>', 'state directory (default: state_dir from the config)')
    .option('--json', 'print the run as JSON');

export function registerLoopCommands(program: Command, deps: CliDeps, setCode: SetCode): void {
  common(program.command('run'))
    .description('the improvement loop: generate → discriminate → evaluate → gate → learn, until a stop rule')
    .option('--mock', 'run on the offline mock engine')
    .option('--target <skill>', 'improve this skill instead of the config’s first target')
    .option('--from <stage>', `redo an existing run from a stage (${STEPS.join(', ')}); needs --run`)
    .option('--run <id>', 'the run to redo (with --from)')
    .option('--eval-threshold <score>', EVAL_THRESHOLD_HELP, numArg('--eval-threshold'))
    .action(async (o: LoopOpts) => {
      const e = loopEnv(deps);
      if (o.from) {
        if (!(STEPS as readonly string[]).includes(o.from)) throw new UsageError(`--from must be one of ${STEPS.join(', ')}`);
        const stateDir = await stateDirOf(deps, o);
        const runId = resolveRun(stateDir, o.run);
        await report(deps, stateDir, runId, await driveRun(e, { stateDir, runId, from: o.from as Step, ...threshold(o) }), o.json, setCode);
        return;
      }
      if (o.run) throw new UsageError('--run names an existing run: use it with --from, or use "whet resume RUN"');
      const plan = await planRun(e, { configPath: o.config, stateRoot: o.stateRoot, mock: o.mock, targetSkill: o.target, ...threshold(o) });
      const lock = await acquireStateLock(plan.stateDir, `whet run (${plan.manifest.run_id})`, { report: e.log });
      try {
        await createRun(plan, deps.now());
        e.log(`run ${plan.manifest.run_id}: improving ${plan.manifest.target.skill_path}${plan.manifest.mock ? ' on the mock engine' : ''}`);
        const r = await driveRun(e, { stateDir: plan.stateDir, runId: plan.manifest.run_id, lockHeld: true });
        await report(deps, plan.stateDir, plan.manifest.run_id, r, o.json, setCode);
      } finally {
        await lock.release();
      }
    });

  common(program.command('resume'))
    .description('continue a run from its last handoff (default: the newest run)')
    .argument('[run]', 'run id')
    .action(async (run: string | undefined, o: LoopOpts) => {
      const stateDir = await stateDirOf(deps, o);
      const runId = resolveRun(stateDir, run);
      await report(deps, stateDir, runId, await driveRun(loopEnv(deps), { stateDir, runId }), o.json, setCode);
    });

  for (const step of ['generate', 'discriminate', 'gate', 'learn'] as const) {
    const cmd = common(program.command(step))
      .description(`run the ${step} stage of a run's current iteration on saved state (redoes it if it already ran)`)
      .option('--run <id>', 'run id (default: the newest run)');
    // Of these stages only discriminate reads the threshold.
    if (step === 'discriminate') cmd.option('--eval-threshold <score>', EVAL_THRESHOLD_HELP, numArg('--eval-threshold'));
    cmd.action(async (o: LoopOpts) => {
      const stateDir = await stateDirOf(deps, o);
      const runId = resolveRun(stateDir, o.run);
      const r = await driveRun(loopEnv(deps), { stateDir, runId, only: step, ...threshold(o) });
      if (r.outcomes.length === 0 && r.status === 'stepped') throw new UsageError(r.reason);
      await report(deps, stateDir, runId, r, o.json, setCode);
    });
  }
}
