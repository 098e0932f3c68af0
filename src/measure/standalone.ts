// Standalone mode: evaluate the current skill on its suite (seed 001's --standalone). The run resumes an
// unfinished run of exactly the same content, else starts a new one; a fresh cached result of the same
// content makes no engine calls at all.
import { copyFileAtomically } from '../core/atomic.js';
import { resolve } from 'node:path';
import { planLine, planReport } from './plan-report.js';
import { appendEvent } from '../state/events.js';
import { stateLayout } from '../state/layout.js';
import { acquireStateLock } from '../state/lock.js';
import { findResumableRun, newRunId, readRunManifest, writeRunManifest, type RunManifest } from '../state/runs.js';
import { RECORDS, writeRecordedArtifact } from '../state/recorded.js';
import { readSkill } from '../skill/read.js';
import { measuredSkillId, triggerTaskCount } from '../config/trigger-engine.js';
import { NO_SKILL_VARIANT } from '../config/skill-creator-dirs.js';
import { skillEffectOf } from './skill-effect.js';
import { UsageError } from '../core/errors.js';
import { measure, standaloneFromMeasured } from './measure.js';
import { standaloneEvaluation } from '../artifacts/evaluation.js';
import { evaluationManifest } from './run-manifest.js';
import { watchRateLimits } from '../evaluation/rate-limit-watch.js';
import { runTotals, totalsOf } from '../evaluation/run-usage.js';
import { budgetFor, evaluationKey, prepare, type EvaluateContext, type Prepared, type StageResult, type StandaloneRequest } from './setup.js';
import type { TaskTally } from '../evaluation/aggregate.js';
import type { VariantOutcome } from '../evaluation/run-variant.js';

/**
 * Internal (`whet nightly` on a noisy engine): more attempts after the first measurement, inside the run
 * and its lock. `round(n)` measures one more attempt of every task as the variant `baseline.round-n`
 * (its own results file and cache entry, like the evaluate stage's rounds); an interrupted outcome
 * returned stops the run as an interrupted first measurement would.
 */
export type AfterFirst = (a: { prepared: Prepared; tallies: readonly TaskTally[]; round: (n: number) => Promise<VariantOutcome> }) => Promise<VariantOutcome | undefined>;

export async function runStandalone(ctx: EvaluateContext, req: StandaloneRequest, after?: AfterFirst): Promise<StageResult> {
  const o = { ...ctx.settings, ...req };
  if (o.withoutSkill && after) throw new UsageError('--without-skill is a standalone evaluation of its own; a nightly measures the skill alone');
  const p = await prepare(ctx);
  if (o.withoutSkill && triggerTaskCount(p.suite.tasks) > 0) throw new UsageError('--without-skill: a trigger suite asks whether the agent invokes the skill, which a run with no skill cannot answer; nothing was run');
  const skill = readSkill(resolve(ctx.cwd, o.skillPath));
  const key = evaluationKey(p, skill);
  // Before it spends anything: a direct call, and each target of a nightly (which holds the lock for all).
  if (!ctx.lockHeld || o.fresh) ctx.log(planLine(planReport(p, skill, ctx.now(), false)));

  const lock = ctx.lockHeld ? { release: async () => undefined } : await acquireStateLock(p.stateDir, 'whet evaluate --standalone', { report: ctx.log });
  try {
    const now = ctx.now();
    // A nightly resumes nothing: last night's unfinished run would lend it last night's answers.
    const resumed = o.fresh ? undefined : findResumableRun(p.stateDir, key);
    const runId = resumed ?? newRunId(p.stateDir, `standalone-${measuredSkillId(p.suite, skill.name)}`, now);
    const runDir = stateLayout.runDir(p.stateDir, runId);
    const previous = resumed ? readRunManifest(runDir) : undefined;
    const manifest: RunManifest = { ...evaluationManifest('standalone', runId, p, skill, previous?.created_at, now), evaluation_key: key };
    await writeRunManifest(runDir, manifest);
    appendEvent(runDir, { event: resumed ? 'resumed' : 'started', stage: 'evaluate', mode: 'standalone', ...(resumed ? {} : RECORDS) }, now);
    if (resumed) ctx.log(`resuming run ${runId}`);

    const budget = budgetFor(ctx, p, runDir);
    const unwatch = watchRateLimits(runDir, ctx.log, ctx.now);
    let m: Awaited<ReturnType<typeof measure>>;
    let none: Awaited<ReturnType<typeof measure>> | undefined;
    let stopped: VariantOutcome | undefined;
    try {
      // With --without-skill both sides are measured in this run, never the skill's from the cache: the pair
      // is measured together, and its export holds both configurations' answers (with_skill and without_skill).
      m = await measure(p, ctx, { skill, variant: 'baseline', dir: runDir, cacheable: !o.withoutSkill, budget });
      stopped = m.outcome.interrupted ? m.outcome : undefined;
      if (!stopped && o.withoutSkill) {
        none = await measure(p, ctx, { skill, variant: NO_SKILL_VARIANT, dir: runDir, cacheable: false, budget, noSkill: true });
        stopped = none.outcome.interrupted ? none.outcome : undefined;
      }
      if (!stopped && after) {
        // One attempt per task per round, whatever a task's own pass_k.
        const roundP: Prepared = { ...p, suite: { ...p.suite, tasks: p.suite.tasks.map((t) => ({ ...t, passK: 1 })) }, passK: 1 };
        const round = async (n: number) => (await measure(roundP, ctx, { skill, variant: `baseline.round-${n}`, dir: runDir, cacheable: true, budget, round: n })).outcome;
        stopped = await after({ prepared: p, tallies: m.outcome.tallies, round });
      }
    } finally {
      unwatch();
    }
    if (stopped) {
      const exhausted = stopped.budgetExhausted;
      const limited = exhausted ? undefined : stopped.rateLimited;
      const status = exhausted ? 'budget_exhausted' : limited ? 'rate_limited' : 'interrupted';
      await writeRunManifest(runDir, { ...manifest, status, updated_at: ctx.now().toISOString() });
      appendEvent(runDir, { event: status, stage: 'evaluate', ...(exhausted ? { reason: exhausted } : limited ? { reason: limited } : {}) }, ctx.now());
      return { interrupted: true, runDir, ...(exhausted ? { budgetExhausted: exhausted } : {}), ...(limited ? { rateLimited: limited } : {}) };
    }
    const artifact = standaloneFromMeasured(p, skill, m, { runId, iteration: 0, now: ctx.now() });
    if (none) artifact.without_skill = skillEffectOf(m.outcome.tallies, none, p.passK);
    const summary = artifact.evaluation;
    const artifactPath = o.output ? resolve(ctx.cwd, o.output) : `${runDir}/evaluation.json`;
    // Recorded with its results logs (issue 31): the read models hold both to what was written.
    await writeRecordedArtifact(runDir, `${runDir}/evaluation.json`, standaloneEvaluation, artifact, ctx.now());
    // The same validated bytes, copied by the kernel: no second validation, serialisation or buffer of them.
    if (o.output) await copyFileAtomically(`${runDir}/evaluation.json`, artifactPath);
    const status = summary.attempts.errors > 0 ? 'incomplete' : 'completed';
    // Summed while the log was read and written; an outcome from the cache has none, and its log is short.
    const finished = {
      verdict: artifact.verdict,
      engine_calls: summary.engine_calls ?? null,
      pass_rate: summary.pass_rate,
      passed: summary.passed,
      total_tasks: summary.total_tasks,
      totals: m.outcome.spent && !none ? totalsOf(m.outcome.spent) : runTotals(runDir),
    };
    await writeRunManifest(runDir, { ...manifest, status, updated_at: ctx.now().toISOString(), summary: finished });
    appendEvent(runDir, { event: 'finished', stage: 'evaluate', verdict: artifact.verdict, engine_calls: p.engine.calls() }, ctx.now());
    return { artifactPath, artifact, interrupted: false };
  } finally {
    await lock.release();
  }
}
