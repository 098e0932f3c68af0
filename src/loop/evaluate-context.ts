// The evaluation service as a loop stage sees it: a loop run's context handed to the measurement code as
// it is (lock held by the runner, the run's budget shared, the suite and engines the run opened once, the
// state directory and the suite it registered). Used by the evaluate stage and the discriminate stage's
// minibatch alike.
import type { EvaluateContext, MeasureSettings, MeasureSource } from '../measure/setup.js';
import type { LoopContext } from './context.js';

export function evaluateContext(ctx: LoopContext, settings?: MeasureSettings): EvaluateContext {
  return {
    cwd: ctx.cwd,
    env: ctx.env,
    now: ctx.now,
    log: ctx.log,
    signal: ctx.signal,
    lockHeld: true,
    budget: ctx.budget,
    opened: ctx.opened,
    ...(ctx.progressOut ? { progressOut: ctx.progressOut } : {}),
    source: runSource(ctx),
    ...(settings ? { settings } : {}),
  };
}

/** What every evaluation of this run opens: its registered suite, state, engine choice and frozen splits. */
export function runSource(ctx: Pick<LoopContext, 'manifest' | 'stateDir'>): MeasureSource {
  return { taskSuite: ctx.manifest.suite.path, stateRoot: ctx.stateDir, mock: ctx.manifest.mock, config: ctx.manifest.config.path ?? undefined, splits: ctx.manifest.settings?.splits };
}
