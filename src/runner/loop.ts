// The runner: drives a loop run stage by stage, deciding each next stage from the artifacts only
// (next-step.ts), holding the state lock for the whole run, recording every stage in events.jsonl, and
// stopping cleanly at a task boundary on Ctrl-C (the evaluate stage finishes the attempts in flight).
// Resuming is the same call: whatever was finished is read back, never redone.
import type { LoopContext, StageEntry, StageOutcome } from '../loop/context.js';
import { openRun, type LoopEnv } from '../loop/open.js';
import { appendEvent } from '../state/events.js';
import { acquireStateLock } from '../state/lock.js';
import { writeRunManifest } from '../state/runs.js';
import { readLenient } from '../state/read-lenient.js';
import { keepReserve, releaseReserve } from '../state/space-reserve.js';
import { stateLayout } from '../state/layout.js';
import { InternalError, NoSpaceError, StateError, isNoSpace } from '../core/errors.js';
import { nextStep, type Step } from '../loop/next-step.js';
import { planCall, statusAfter } from './preflight.js';
import { quarantine, supersedeFrom } from './supersede.js';
import { ExternalStageRefusal, externalStageFor, markStep, runExternalStage, undoRefusedStep } from './external-stage.js';
import { Budget } from '../evaluation/budget.js';
import { watchRateLimits } from '../evaluation/rate-limit-watch.js';
import { rateLimitStopReason } from '../engines/subscription-limit.js';

export interface LoopResult {
  status: 'done' | 'aborted' | 'review' | 'interrupted' | 'budget_exhausted' | 'rate_limited' | 'stopped_early' | 'stepped';
  reason: string;
  outcomes: { step: Step; iteration: number; outcome: StageOutcome }[];
}

/** The stages a drive can run, by step: the whole loop (registry.ts), or one stage program's own. */
export type Stages = Partial<Record<Step, StageEntry>>;

export async function runStep(stages: Stages, ctx: LoopContext, step: Step, candidate?: string): Promise<StageOutcome | 'interrupted'> {
  // pipeline.yaml `stages.<name>.command`: the user's program in place of the built-in stage.
  const external = externalStageFor(ctx, step);
  if (external) return runExternalStage(ctx, external, candidate);
  const entry = stages[step];
  if (!entry) throw new InternalError(`no stage registered for step ${step}`);
  return entry(ctx, candidate);
}

export interface DriveOptions {
  stateDir: string;
  runId: string;
  from?: Step;
  only?: Step;
  lockHeld?: boolean;
  evalThreshold?: number;
}

/**
 * Runs `runId` until it ends (or, with `only`, runs that one stage of the newest iteration). `from`
 * first moves the newest iteration's artifacts from that stage on to superseded/. Every refusal comes
 * before anything is moved or written (preflight.ts).
 */
export async function driveRun(e: LoopEnv, o: DriveOptions, stages: Stages): Promise<LoopResult> {
  const lock = o.lockHeld ? undefined : await acquireStateLock(o.stateDir, `whet ${o.only ?? 'run'} (${o.runId})`, { report: e.log });
  const outcomes: LoopResult['outcomes'] = [];
  let unwatch = (): void => undefined;
  try {
    let ctx = await openRun(e, { stateDir: o.stateDir, runId: o.runId, ...(o.evalThreshold === undefined ? {} : { evalThreshold: o.evalThreshold }) });
    const limits = ctx.config.budgets;
    if (!Budget.unlimited(limits)) ctx = { ...ctx, budget: Budget.forRun(limits, ctx.runDir, () => e.now().getTime(), e.log) };
    const plan = planCall(ctx, o.from ?? o.only);
    // Before a run spends anything: what its suite can find on this engine (src/measure/plan-report.ts).
    if (!o.only) e.log(await planLineFor(ctx));
    unwatch = watchRateLimits(ctx.runDir, e.log, e.now);
    if (plan.kind === 'redo') {
      const moved = supersedeFrom({ runDir: ctx.runDir, iteration: plan.iteration, from: plan.step, now: e.now() });
      if (moved.length) e.log(`moved ${moved.join(', ')} of iteration ${plan.iteration} to superseded/`);
      appendEvent(ctx.runDir, { event: 'redo', from: plan.step, iteration: plan.iteration, superseded: moved }, e.now());
    } else if (plan.next.kind === 'step' && plan.next.retry) {
      // A measurement that stopped its calls early (the answer could not change) is measured again now:
      // its results log keeps every attempt judged before the stop; the errored ones run again.
      const moved = quarantine(ctx.runDir, plan.next.iteration, [plan.next.retry.path], e.now());
      e.log(`retrying the ${plan.next.step} of iteration ${plan.next.iteration}, which had stopped early (${plan.next.retry.reason.replace(/; fix the .*$/, '')}); the attempts it judged are kept`);
      appendEvent(ctx.runDir, { event: 'retry_stopped_early', stage: plan.next.step, iteration: plan.next.iteration, superseded: moved }, e.now());
    } else if (plan.next.invalid.length) {
      const moved = quarantine(ctx.runDir, plan.next.iteration, plan.next.invalid.map((i) => i.path), e.now());
      for (const i of plan.next.invalid) e.log(`whet: warning: ${i.error}; moved it to superseded/ and continuing from the newest valid artifact`);
      appendEvent(ctx.runDir, { event: 'invalid_artifacts_superseded', iteration: plan.next.iteration, superseded: moved }, e.now());
    }
    let marked = false;
    try {
      for (;;) {
        const next = nextStep(ctx.runDir);
        if (next.kind === 'end') {
          await writeRunManifest(ctx.runDir, { ...ctx.manifest, status: statusAfter(next), updated_at: e.now().toISOString() });
          appendEvent(ctx.runDir, { event: 'run_ended', status: next.status, reason: next.reason }, e.now());
          return { status: next.status, reason: next.reason, outcomes };
        }
        // The step just run stopped its calls early: the run waits for a fix, and resume retries it.
        if (next.retry) return stoppedEarly(ctx, e, outcomes, next.step, next.iteration, next.retry.reason);
        // preflight.ts made sure the redone stage is what runs next; anything else is a bug, not a redo.
        if (o.only && next.step !== o.only) throw new StateError(`${o.only} is not what runs next (next: ${next.step}, iteration ${next.iteration})`);
        if (e.signal?.aborted) return interrupted(ctx, e, outcomes);
        const mark = markStep(ctx.runDir);
        if (!marked || next.iteration !== ctx.manifest.iteration) {
          const manifest = { ...ctx.manifest, status: 'running' as const, iteration: next.iteration, updated_at: e.now().toISOString() };
          await writeRunManifest(ctx.runDir, manifest);
          ctx = { ...ctx, manifest };
          marked = true;
          keepReserve(ctx.runDir);
        }
        const stageCtx = { ...ctx, iteration: next.iteration };
        const started = performance.now();
        appendEvent(ctx.runDir, { event: 'stage_started', stage: next.step, iteration: next.iteration }, e.now());
        let outcome: StageOutcome | 'interrupted';
        try {
          outcome = await runStep(stages, stageCtx, next.step, next.kind === 'step' ? next.candidate : undefined);
        } catch (err) {
          if (isNoSpace(err)) throw err;
          // A stage program's invalid artifact is bad input: the run is left as it was before the step.
          if (err instanceof ExternalStageRefusal) {
            await undoRefusedStep(ctx.runDir, mark, err, next.step, next.iteration, e.now());
            throw err;
          }
          appendEvent(ctx.runDir, { event: 'stage_failed', stage: next.step, iteration: next.iteration, error: (err as Error).message }, e.now());
          // No process carries the run on: resume picks it up from its artifacts.
          await writeRunManifest(ctx.runDir, { ...ctx.manifest, status: 'incomplete', updated_at: e.now().toISOString() }).catch(() => undefined);
          throw err;
        }
        if (outcome === 'interrupted') return interrupted(ctx, e, outcomes, stageCtx.budget?.exhausted);
        appendEvent(ctx.runDir, { event: 'stage_finished', stage: next.step, iteration: next.iteration, verdict: outcome.verdict, ms: Math.round(performance.now() - started) }, e.now());
        e.log(`[iter ${next.iteration}] ${outcome.summary}`);
        outcomes.push({ step: next.step, iteration: next.iteration, outcome });
        if (o.only) {
          // A stage run on a finished run must leave it finished (or say what is left), never "running".
          await writeRunManifest(ctx.runDir, { ...ctx.manifest, status: statusAfter(nextStep(ctx.runDir)), updated_at: e.now().toISOString() });
          return { status: 'stepped', reason: outcome.summary, outcomes };
        }
      }
    } catch (err) {
      if (isNoSpace(err)) throw await outOfSpace(ctx, e, err);
      throw err;
    }
  } finally {
    unwatch();
    // The reserve is there only while this process runs stages (src/state/space-reserve.ts).
    releaseReserve(stateLayout.runDir(o.stateDir, o.runId));
    await lock?.release();
  }
}

/**
 * A full disk stops the run as an interruption, not a failure: nothing was left half written (src/core/
 * atomic.ts), so `whet resume` finishes it once there is room. Marking it is best effort — these small
 * writes may find no room either — and the message says what was recorded and what was not (issue 42:
 * "is marked interrupted" was printed over a run.json that still said running).
 */
async function outOfSpace(ctx: LoopContext, e: LoopEnv, err: NodeJS.ErrnoException): Promise<NoSpaceError> {
  const path = err instanceof NoSpaceError ? err.path : (err.path ?? ctx.runDir);
  releaseReserve(ctx.runDir);
  const marked = await writeRunManifest(ctx.runDir, { ...ctx.manifest, status: 'interrupted', updated_at: e.now().toISOString() }).then(
    () => true,
    () => false,
  );
  let logged = true;
  try {
    appendEvent(ctx.runDir, { event: 'interrupted', reason: `no space left on device at ${path}` }, e.now());
  } catch {
    logged = false; // as above: the disk is full
  }
  return new NoSpaceError(path, `${recordedWords(ctx, marked, logged)}; free some space, then continue with: whet resume ${ctx.runId}`);
}

/** What a full disk let the run record of its interruption, in words true to what is on disk. */
function recordedWords(ctx: LoopContext, marked: boolean, logged: boolean): string {
  const event = logged ? 'events.jsonl records the interruption' : 'there was no room to record the interruption in events.jsonl either';
  if (marked) return `run ${ctx.runId} is marked interrupted in run.json${logged ? '' : `, but ${event}`}`;
  const status = readLenient(stateLayout.runManifest(ctx.runDir))?.status;
  const said = typeof status === 'string' ? `run.json still says "${status}"` : 'it has no run.json';
  return `run ${ctx.runId} could not be marked interrupted: there was no room to write run.json, so ${said}; ${event}; every file written is whole`;
}

async function stoppedEarly(ctx: LoopContext, e: LoopEnv, outcomes: LoopResult['outcomes'], step: Step, iteration: number, why: string): Promise<LoopResult> {
  await writeRunManifest(ctx.runDir, { ...ctx.manifest, status: 'incomplete', updated_at: e.now().toISOString() });
  appendEvent(ctx.runDir, { event: 'stopped_early', stage: step, iteration, reason: why }, e.now());
  return { status: 'stopped_early', reason: `${step}: ${why}; whet resume ${ctx.runId} measures it again after the fix`, outcomes };
}

async function interrupted(ctx: LoopContext, e: LoopEnv, outcomes: LoopResult['outcomes'], budget?: string): Promise<LoopResult> {
  // A stage that stopped on a subscription rate limit (src/engines/subscription-limit.ts) says so here.
  const limited = budget || e.signal?.aborted ? undefined : rateLimitStopReason();
  const status = budget ? 'budget_exhausted' : limited ? 'rate_limited' : 'interrupted';
  await writeRunManifest(ctx.runDir, { ...ctx.manifest, status, updated_at: e.now().toISOString() });
  appendEvent(ctx.runDir, { event: status, ...(budget ? { reason: budget } : limited ? { reason: limited } : {}) }, e.now());
  const reason = budget
    ? `budget exhausted (${budget}); raise it in pipeline.yaml, then: whet resume ${ctx.runId}`
    : limited
      ? `${limited}; once it resets, continue with: whet resume ${ctx.runId}`
      : `interrupted; continue with: whet resume ${ctx.runId}`;
  return { status, reason, outcomes };
}

async function planLineFor(ctx: LoopContext): Promise<string> {
  const [{ prepare }, { planLine, planReport }, { evaluateContext }, { readSkill }] = await Promise.all([import('../measure/setup.js'), import('../measure/plan-report.js'), import('../loop/evaluate-context.js'), import('../skill/read.js')]);
  const p = await prepare(evaluateContext(ctx));
  return planLine(planReport(p, readSkill(ctx.manifest.target.skill_dir), ctx.now(), false));
}
