// The runner: drives a loop run stage by stage, deciding each next stage from the artifacts only
// (next-step.ts), holding the state lock for the whole run, recording every stage in events.jsonl, and
// stopping cleanly at a task boundary on Ctrl-C (the evaluate stage finishes the attempts in flight).
// Resuming is the same call: whatever was finished is read back, never redone.
import { run as discriminate } from '../../stages/discriminate/index.js';
import { evaluateLoopBaseline, evaluateLoopCandidate } from '../../stages/evaluate/loop.js';
import { run as gate } from '../../stages/gate/index.js';
import { run as generate } from '../../stages/generate/index.js';
import { run as learn } from '../../stages/learn/index.js';
import type { LoopContext, StageOutcome } from '../loop/context.js';
import { openRun, type LoopEnv } from '../loop/open.js';
import { appendEvent } from '../state/events.js';
import { acquireStateLock } from '../state/lock.js';
import { writeRunManifest } from '../state/runs.js';
import { iterations, nextStep, type Step } from './next-step.js';
import { supersedeFrom } from './supersede.js';
import { thresholdsDiff, thresholdsHash, type Thresholds } from '../config/thresholds.js';
import { UsageError } from '../errors.js';
import { Budget } from '../evaluation/budget.js';

export interface LoopResult {
  status: 'done' | 'aborted' | 'review' | 'interrupted' | 'budget_exhausted' | 'stepped';
  reason: string;
  outcomes: { step: Step; iteration: number; outcome: StageOutcome }[];
}

export async function runStep(ctx: LoopContext, step: Step, candidate?: string): Promise<StageOutcome | 'interrupted'> {
  switch (step) {
    case 'baseline':
      return evaluateLoopBaseline(ctx);
    case 'generate':
      return generate(ctx);
    case 'discriminate':
      return discriminate(ctx);
    case 'evaluate':
      return evaluateLoopCandidate(ctx, candidate!);
    case 'gate':
      return gate(ctx);
    case 'learn':
      return learn(ctx);
  }
}

/**
 * Runs `runId` until it ends (or, with `only`, runs that one stage of the current iteration). `from`
 * first moves the current iteration's artifacts from that stage on to superseded/.
 */
export async function driveRun(e: LoopEnv, o: { stateDir: string; runId: string; from?: Step; only?: Step; lockHeld?: boolean }): Promise<LoopResult> {
  const lock = o.lockHeld ? undefined : await acquireStateLock(o.stateDir, `whet ${o.only ?? 'run'} (${o.runId})`);
  const outcomes: LoopResult['outcomes'] = [];
  try {
    let ctx = await openRun(e, { stateDir: o.stateDir, runId: o.runId });
    const limits = ctx.config.budgets;
    if (!Budget.unlimited(limits)) ctx = { ...ctx, budget: Budget.forRun(limits, ctx.runDir, () => e.now().getTime(), e.log) };
    const redo = o.from ?? o.only;
    refuseChangedThresholds(ctx, redo ?? (() => {
      const n = nextStep(ctx.runDir);
      return n.kind === 'step' ? n.step : 'gate';
    })());
    if (redo) {
      // Redo within the newest iteration that exists (a finished iteration's next step is the next one).
      const its = iterations(ctx.runDir);
      const it = its[its.length - 1] ?? 1;
      const moved = supersedeFrom({ stateDir: o.stateDir, runId: o.runId, runDir: ctx.runDir, iteration: it, from: redo, now: e.now(), only: o.only !== undefined });
      if (moved.length) e.log(`moved ${moved.join(', ')} of iteration ${it} to superseded/`);
      appendEvent(ctx.runDir, { event: 'redo', from: redo, iteration: it, superseded: moved }, e.now());
    }
    await writeRunManifest(ctx.runDir, { ...ctx.manifest, status: 'running', updated_at: e.now().toISOString() });
    for (;;) {
      const next = nextStep(ctx.runDir);
      if (next.kind === 'end') {
        const status = next.status === 'done' ? 'completed' : next.status === 'aborted' ? 'failed' : 'running';
        await writeRunManifest(ctx.runDir, { ...ctx.manifest, status, updated_at: e.now().toISOString() });
        appendEvent(ctx.runDir, { event: 'run_ended', status: next.status, reason: next.reason }, e.now());
        return { status: next.status, reason: next.reason, outcomes };
      }
      if (o.only && next.step !== o.only) {
        return { status: 'stepped', reason: `${o.only} is not what runs next (next: ${next.step}, iteration ${next.iteration})`, outcomes };
      }
      if (e.signal?.aborted) return interrupted(ctx, e, outcomes);
      if (next.iteration !== ctx.manifest.iteration) {
        const manifest = { ...ctx.manifest, iteration: next.iteration, updated_at: e.now().toISOString() };
        await writeRunManifest(ctx.runDir, manifest);
        ctx = { ...ctx, manifest };
      }
      refuseChangedThresholds(ctx, next.step);
      const stageCtx = { ...ctx, iteration: next.iteration };
      const started = performance.now();
      appendEvent(ctx.runDir, { event: 'stage_started', stage: next.step, iteration: next.iteration }, e.now());
      let outcome: StageOutcome | 'interrupted';
      try {
        outcome = await runStep(stageCtx, next.step, next.kind === 'step' ? next.candidate : undefined);
      } catch (err) {
        appendEvent(ctx.runDir, { event: 'stage_failed', stage: next.step, iteration: next.iteration, error: (err as Error).message }, e.now());
        throw err;
      }
      if (outcome === 'interrupted') return interrupted(ctx, e, outcomes, stageCtx.budget?.exhausted);
      appendEvent(ctx.runDir, { event: 'stage_finished', stage: next.step, iteration: next.iteration, verdict: outcome.verdict, ms: Math.round(performance.now() - started) }, e.now());
      e.log(`[iter ${next.iteration}] ${outcome.summary}`);
      outcomes.push({ step: next.step, iteration: next.iteration, outcome });
      if (o.only) return { status: 'stepped', reason: outcome.summary, outcomes };
    }
  } finally {
    await lock?.release();
  }
}

async function interrupted(ctx: LoopContext, e: LoopEnv, outcomes: LoopResult['outcomes'], budget?: string): Promise<LoopResult> {
  const status = budget ? 'budget_exhausted' : 'interrupted';
  await writeRunManifest(ctx.runDir, { ...ctx.manifest, status, updated_at: e.now().toISOString() });
  appendEvent(ctx.runDir, { event: status, ...(budget ? { reason: budget } : {}) }, e.now());
  const reason = budget ? `budget exhausted (${budget}); raise it in pipeline.yaml, then: whet resume ${ctx.runId}` : `interrupted; continue with: whet resume ${ctx.runId}`;
  return { status, reason, outcomes };
}

/**
 * Thresholds were registered when the run started. The gate records its own refusal (with the
 * difference) in gate.json; any other stage refuses here, before anything is written or moved.
 */
function refuseChangedThresholds(ctx: LoopContext, step: Step): void {
  if (step === 'gate' || ctx.manifest.thresholds_sha256 === thresholdsHash(ctx.config.thresholds)) return;
  const diff = thresholdsDiff(ctx.manifest.thresholds as unknown as Thresholds, ctx.config.thresholds);
  throw new UsageError(`run ${ctx.runId} refuses to continue: its thresholds changed since it started (${diff.join('; ')}); restore them, or start a new run to use new thresholds`);
}
