// Every reason a runner call refuses is checked here, before the runner moves or writes anything: a
// refusal after superseding would leave a run half-redone and marked running (the auditor's case: the
// learner's artifact moved away, then a refusal, then `status: running` on a finished run).
import { currentSettings, settingsDiff } from '../config/registered.js';
import { thresholdsDiff, thresholdsHash, type Thresholds } from '../config/thresholds.js';
import { UsageError } from '../core/errors.js';
import type { LoopContext } from '../loop/context.js';
import { iterations, nextStep, type Next, type Step } from '../loop/next-step.js';
import { refuseStaleRedoInputs } from './redo-inputs.js';
import { refuseEditedGateInputs } from '../loop/integrity.js';
import { refuseRedoAfterPromotion, stepAfterSuperseding, wouldSupersede } from './supersede.js';

export type Plan =
  | { kind: 'redo'; step: Step; iteration: number }
  | { kind: 'continue'; next: ReturnType<typeof nextStep> };

/**
 * What the call will do, or a UsageError saying why it will not. A redo (`--from`, a single-stage
 * command) always works on the newest iteration: an older one's later artifacts are followed by whole
 * iterations that were decided from them.
 */
export function planCall(ctx: LoopContext, redo: Step | undefined): Plan {
  if (!redo) {
    const next = nextStep(ctx.runDir);
    // A finished run that is only looked at runs no stage, so nothing needs to match.
    if (next.kind === 'step') refuseChangedRegistrations(ctx);
    if (next.kind === 'step' && next.step === 'gate') refuseEditedGateInputs(ctx.runDir, next.iteration);
    return { kind: 'continue', next };
  }
  const its = iterations(ctx.runDir);
  const iteration = its[its.length - 1] ?? 1;
  const would = stepAfterSuperseding(ctx.runDir, iteration, redo);
  if (would !== redo) {
    const leads = would ? `its artifacts before ${redo} lead to ${would}` : `its artifacts before ${redo} end the iteration`;
    throw new UsageError(`run ${ctx.runId}: iteration ${iteration} never reached ${redo} and cannot redo it (${leads}); nothing was moved. Continue it with: whet resume ${ctx.runId}`);
  }
  refuseChangedRegistrations(ctx);
  refuseRedoAfterPromotion({ stateDir: ctx.stateDir, runId: ctx.runId, runDir: ctx.runDir, iteration, from: redo });
  // An edited evaluation (or earlier gate) is refused before the gate's old decision is moved away.
  if (redo === 'gate') refuseEditedGateInputs(ctx.runDir, iteration);
  // With nothing to move, the stage runs and records its own refusal (a gate's `refused` decision).
  if (wouldSupersede(ctx.runDir, iteration, redo)) refuseStaleRedoInputs(ctx, iteration, redo);
  return { kind: 'redo', step: redo, iteration };
}

/**
 * Thresholds and the other decision settings were registered when the run started. Every stage refuses
 * when pipeline.yaml (or the suite's splits) now says something else — the gate included, so a redone
 * gate never supersedes a real decision only to record a refusal.
 */
export function refuseChangedRegistrations(ctx: LoopContext): void {
  const m = ctx.manifest;
  const lines: string[] = [];
  const kinds: string[] = [];
  if (m.thresholds_sha256 !== thresholdsHash(ctx.config.thresholds)) {
    lines.push(...thresholdsDiff(m.thresholds as unknown as Thresholds, ctx.config.thresholds));
    kinds.push('thresholds');
  }
  // Runs started before these were registered have nothing to compare with.
  if (m.settings) {
    const from = ctx.flags?.evalThreshold === undefined ? {} : { eval_threshold: '--eval-threshold' };
    const diff = settingsDiff(m.settings, currentSettings(ctx.config, m.suite.path), from);
    if (diff.length) {
      lines.push(...diff);
      kinds.push('decision settings');
    }
  }
  if (kinds.length === 0) return;
  throw new UsageError(`run ${ctx.runId} refuses to continue: its ${kinds.join(' and ')} changed since it started (${lines.join('; ')}); restore them, or start a new run to use new values`);
}

/** The run.json status that matches what runs next, for a process that stops here. */
export function statusAfter(next: Next): 'completed' | 'failed' | 'incomplete' {
  if (next.kind === 'step') return 'incomplete';
  return next.status === 'done' ? 'completed' : next.status === 'aborted' ? 'failed' : 'incomplete';
}
