// The evaluation service as a loop stage sees it: a loop run's context turned into the context the
// measurement code takes (lock held by the runner, the run's budget shared, the suite and engines the run
// opened once). Used by the evaluate stage and the discriminate stage's minibatch alike.
import type { EvaluateContext, EvaluateOptions } from '../measure/setup.js';
import type { LoopContext } from './context.js';

export function evaluateContext(ctx: LoopContext, options: EvaluateOptions): EvaluateContext {
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
    options: { ...runOptions(ctx), ...options },
  };
}

/** The options every evaluation of this run shares: its suite, state, engine choice and frozen splits. */
export function runOptions(ctx: Pick<LoopContext, 'manifest' | 'stateDir'>): EvaluateOptions {
  return { taskSuite: ctx.manifest.suite.path, stateRoot: ctx.stateDir, mock: ctx.manifest.mock, config: ctx.manifest.config.path ?? undefined, splits: ctx.manifest.settings?.splits };
}
