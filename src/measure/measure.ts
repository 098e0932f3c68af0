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
    const cached = readCache(p, ctx, key, a.variant);
    if ('outcome' in cached) {
      ctx.log(`${a.variant}: cache hit (${formatDuration(cached.ageMs)} old, ttl ${formatDuration(p.cacheTtlMs)}), 0 engine calls`);
      await p.suiteCopy?.remember?.();
      return {
        outcome: cached.outcome,
        cache: { used: true, hit: true, key, dir: p.cacheDir, created_at: cached.createdAt, age_ms: cached.ageMs, ttl_ms: p.cacheTtlMs },
      };
    }
    why = cached.why;
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
  const stored = a.cacheable ? await storeInCache(p, a.skill, outcome, ctx.now(), a.round) : false;
  // The suite's checked copy, once its tasks are measured: a refused command leaves no file behind, and
  // the run's own peak is past.
  await p.suiteCopy?.remember?.();
  return { outcome, cache: { used: a.cacheable && p.useCache, hit: false, key, dir: p.cacheDir, why: a.cacheable ? why : 'not cacheable', ttl_ms: p.cacheTtlMs, stored } };
}

/**
 * The cached baseline under `key`, when the cache may be read (not disabled, not a nightly's fresh run, not
 * `--force`) and holds a fresh entry: an outcome of this run that cost no call, else why not.
 */
export function readCache(p: Prepared, ctx: EvaluateContext, key: string, variant: string): { outcome: VariantOutcome; ageMs: number; createdAt: string } | { why: string } {
  if (!p.useCache) return { why: 'disabled' };
  if (ctx.settings?.fresh) return { why: 'not read: nightly measures every task' };
  if (ctx.settings?.force) return { why: 'bypassed (--force)' };
  const found = lookupBaseline(p.cacheDir, key, p.cacheTtlMs, ctx.now());
  if (!found.hit) return { why: found.why };
  // Splits are assigned from the current config, not taken from when the baseline was cached.
  // The entry's tallies become the outcome's, set in place: no second copy of every task.
  const splitOf = new Map(p.suite.tasks.map((t) => [t.id, t.split]));
  const outcome = outcomeFromCache(found.entry, variant);
  for (const t of outcome.tallies) t.split = splitOf.get(t.task_id);
  return { outcome, ageMs: found.ageMs, createdAt: found.entry.created_at };
}

/** Stores a measured skill's clean outcome as its cached baseline, unless the cache is disabled. */
export async function storeInCache(p: Prepared, skill: LoadedSkill, outcome: VariantOutcome, now: Date, round?: number): Promise<boolean> {
  if (!p.useCache) return false;
  return storeBaseline(p.cacheDir, evaluationKey(p, skill, round), cacheKeyParts(p, skill, round), outcome, now);
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
