// Measures one variant: from the baseline cache when allowed and fresh, else by running (or resuming)
// its tasks into results/<variant>.jsonl, then storing a clean baseline back in the cache.
import { formatDuration } from '../config/duration.js';
import { collectBetweenPhases } from '../core/gc-hint.js';
import { lookupBaseline, outcomeFromCache, storeBaseline } from '../evaluation/cache.js';
import { runVariant, type VariantOutcome } from '../evaluation/run-variant.js';
import { createProgress } from '../evaluation/progress.js';
import { readResults } from '../state/results-log.js';
import { prepareResultsFile } from '../state/runs.js';
import type { LoadedSkill } from '../skill/read.js';
import type { Budget } from '../evaluation/budget.js';
import type { StandaloneEvaluation } from '../artifacts/evaluation.js';
import { standaloneArtifact } from './verdict.js';
import { measuredSkillId } from '../config/trigger-engine.js';
import { summarizeVariant } from '../evaluation/summary.js';
import { judgeCalibrations, withCorrectedRates } from '../evaluation/judge-calibration.js';
import { cacheKeyParts, engineInfo, evaluationKey, type EvaluateContext, type Prepared } from './setup.js';

export type CacheInfo = StandaloneEvaluation['evaluation']['cache'];

export interface Measured {
  outcome: VariantOutcome;
  cache: CacheInfo;
}

export async function measure(
  p: Prepared,
  ctx: EvaluateContext,
  a: { skill: LoadedSkill; variant: string; dir: string; cacheable: boolean; budget?: Budget; round?: number; noSkill?: boolean },
): Promise<Measured> {
  // With no skill the engine is given nothing: the key still names the skill's run, so a results file of
  // another content is never resumed; such a variant is never cached (its key would be the skill's).
  const key = a.noSkill ? `${evaluationKey(p, a.skill, a.round)}:no-skill` : evaluationKey(p, a.skill, a.round);
  if (a.noSkill && a.cacheable) throw new Error('internal: a no-skill measurement is not cacheable');
  let why: string | undefined;
  if (a.cacheable) {
    if (!p.useCache) why = 'disabled';
    else if (ctx.settings?.fresh) why = 'not read: nightly measures every task';
    else if (ctx.settings?.force) why = 'bypassed (--force)';
    else {
      const found = lookupBaseline(p.cacheDir, key, p.cacheTtlMs, ctx.now());
      if (found.hit) {
        ctx.log(`${a.variant}: cache hit (${formatDuration(found.ageMs)} old, ttl ${formatDuration(p.cacheTtlMs)}), 0 engine calls`);
        // Splits are assigned from the current config, not taken from when the baseline was cached.
        // The entry's tallies become the outcome's, set in place: no second copy of every task.
        const splitOf = new Map(p.suite.tasks.map((t) => [t.id, t.split]));
        const outcome = outcomeFromCache(found.entry, a.variant);
        for (const t of outcome.tallies) t.split = splitOf.get(t.task_id);
        await p.suiteCopy?.remember?.();
        return {
          outcome,
          cache: { used: true, hit: true, key, dir: p.cacheDir, created_at: found.entry.created_at, age_ms: found.ageMs, ttl_ms: p.cacheTtlMs },
        };
      }
      why = found.why;
    }
  }
  const resultsFile = await prepareResultsFile(a.dir, a.variant, key, ctx.now());
  const total = p.suite.tasks.reduce((n, t) => n + (t.passK ?? p.passK), 0);
  const started = performance.now();
  const remaining = total - (await countJudged(resultsFile));
  const bar = ctx.progressOut && remaining > 0 ? createProgress(a.variant, remaining, ctx.progressOut) : undefined;
  const outcome = await runVariant({
    variant: a.variant,
    suite: p.suite,
    ...(a.noSkill ? {} : { skill: a.skill }),
    engine: p.engine,
    judgeEngine: p.judgeEngine,
    passK: p.passK,
    concurrency: p.concurrency,
    resultsFile,
    signal: ctx.signal,
    now: ctx.now,
    limiter: ctx.limiter,
    budget: a.budget,
    maxErrorShare: p.cfg.maxErrorShare,
    onAttempt: bar ? (line, persist) => bar.tick(line.status, persist) : undefined,
  });
  bar?.done();
  // The run's dead attempts, before the artifact and its task results are built (src/core/gc-hint.ts).
  collectBetweenPhases();
  const secs = (performance.now() - started) / 1000;
  const resumed = outcome.resumedAttempts ? `, ${outcome.resumedAttempts} resumed from ${resultsFile}` : '';
  ctx.log(`${a.variant}: ${outcome.engineCalls} engine calls for ${total} task attempts in ${secs.toFixed(2)}s${resumed}`);
  let stored = false;
  if (a.cacheable && p.useCache) stored = await storeBaseline(p.cacheDir, key, cacheKeyParts(p, a.skill, a.round), outcome, ctx.now());
  // The suite's checked copy, once its tasks are measured: a refused command leaves no file behind, and
  // the run's own peak is past.
  await p.suiteCopy?.remember?.();
  return { outcome, cache: { used: a.cacheable && p.useCache, hit: false, key, dir: p.cacheDir, why: a.cacheable ? why : 'not cacheable', ttl_ms: p.cacheTtlMs, stored } };
}

/** Attempts already judged in a results file (what a resumed run will not redo), for the progress total. */
async function countJudged(file: string): Promise<number> {
  const judged = new Set<string>();
  await readResults(file, (l) => {
    if (l.status !== 'error') judged.add(`${l.task_id}#${l.attempt}`);
  });
  return judged.size;
}

/** The standalone evaluation artifact of a measured skill (a standalone run, or a loop's baseline). */
export function standaloneFromMeasured(p: Prepared, skill: LoadedSkill, m: Measured, at: { runId: string; iteration: number; now: Date }): StandaloneEvaluation {
  const artifact = standaloneArtifact({
    bits: {
      run_id: at.runId,
      iteration: at.iteration,
      created_at: at.now.toISOString(),
      inputs: { suite: p.suite.contentHash, target: skill.contentHash },
      task_suite: p.suite.path,
      ...(p.suiteCopy ? { suite_copy: p.suiteCopy.info } : {}),
      skill_id: measuredSkillId(p.suite, skill.name),
      pass_k: p.passK,
      engine: engineInfo(p.engine)!,
      judge_engine: engineInfo(p.judgeEngine),
    },
    skillPath: skill.file,
    summary: summarizeVariant(m.outcome, p.passK),
    tallies: m.outcome.tallies,
    minPassRate: p.cfg.standaloneMinPassRate,
    maxErrorShare: p.cfg.maxErrorShare,
    trigger: { minTriggerRate: p.cfg.minTriggerRate, maxFalseTriggerRate: p.cfg.maxFalseTriggerRate, significance: p.cfg.thresholds.significance },
    cache: m.cache,
  });
  const cals = judgeCalibrations(p.suite, p.stateDir, p.judgeEngine);
  if (cals.length) artifact.judge_calibration = withCorrectedRates(cals, artifact.task_results, p.suite);
  return artifact;
}
