// The evaluate stage's decisions, as pure functions of what was measured: the verdict, the reason, who
// acts next, and the artifact's payload. Nothing here reads or writes a file or calls an engine.
import { HANDOFF, HANDOFF_END } from '../artifacts/envelope.js';
import { derivedArray } from '../core/derived-array.js';
import { taskStatus, type TaskTally } from '../evaluation/aggregate.js';
import { queryTriggers, rateOf, type QueryTriggers, type TriggerSummary, type VariantSummary } from '../evaluation/summary.js';
import { clusteredUpperBound } from '../stats/clustered-rate.js';
import { pairedComparison } from '../evaluation/paired.js';
import { errorShareOf, tooManyErrors } from '../evaluation/summary.js';

export { tooManyErrors } from '../evaluation/summary.js';
import type { PipelineEvaluation, StandaloneEvaluation } from '../artifacts/evaluation.js';

type TaskResult = PipelineEvaluation['candidate_results'][number];
type CacheInfo = StandaloneEvaluation['evaluation']['cache'];
export type EnvelopeBits = Pick<PipelineEvaluation, 'run_id' | 'iteration' | 'created_at' | 'inputs' | 'task_suite' | 'suite_copy' | 'skill_id' | 'pass_k' | 'engine' | 'judge_engine'>;

/**
 * One row per tally, derived when read (src/core/derived-array.ts): the artifact is written, and printed,
 * from the tallies themselves rather than from a second object per task held beside them.
 */
export function taskResults(tallies: TaskTally[]): TaskResult[] {
  return derivedArray(tallies, (t) => {
    const status = taskStatus(t);
    return {
      task_id: t.task_id,
      passed: status === 'pass',
      score: Math.round(t.bestScore * 10_000) / 10_000,
      status,
      category: t.category,
      ...(t.split ? { split: t.split } : {}),
      ...(t.negative ? { negative: true } : {}),
      ...(t.critical ? { critical: true } : {}),
      attempts: t.k,
      passes: t.passes,
      errors: t.errors,
      judged: t.judged,
      reason: status === 'error' ? (t.errorMessage ?? 'no attempt could be judged') : t.reason,
    };
  });
}

/** An evaluation stopped early: why, what to fix (in the guard's reason), and what is left to resume. */
function stoppedReason(s: NonNullable<VariantSummary['stopped_early']>): string {
  return `${s.reason}; ${s.attempts_not_run} attempt(s) not run`;
}

function firstError(tallies: TaskTally[]): string {
  return tallies.find((t) => t.errorMessage)?.errorMessage ?? 'unknown';
}

export function standaloneArtifact(a: {
  bits: EnvelopeBits;
  skillPath: string;
  summary: VariantSummary;
  tallies: TaskTally[];
  minPassRate: number;
  maxErrorShare: number;
  cache: CacheInfo;
  /** evaluate.min_trigger_rate / max_false_trigger_rate: what decides a trigger suite in place of minPassRate. */
  trigger?: TriggerBars;
}): StandaloneEvaluation {
  const s = a.summary;
  const bars = s.trigger && a.trigger ? a.trigger : undefined;
  let verdict: 'pass' | 'fail' | 'error';
  let reason: string;
  const partial = tooManyErrors(s, a.maxErrorShare);
  // Past the first checks something was judged, so the rate was measured.
  const rate = s.pass_rate ?? 0;
  if (s.stopped_early) {
    verdict = 'error';
    reason = stoppedReason(s.stopped_early);
  } else if (s.passed + s.failed === 0) {
    verdict = 'error';
    reason = s.unjudged && s.errors === 0 ? `no task could be judged: all ${s.unjudged.tasks} eval(s) are unjudged (no expectations, no expected_output)` : `no task could be judged: ${s.errors} error(s); first: ${firstError(a.tallies)}`;
  } else if (partial) {
    verdict = 'error';
    reason = `${partial}; pass rate ${rate.toFixed(4)} over the judged tasks is no verdict; first error: ${firstError(a.tallies)}`;
  } else if (bars && s.trigger) {
    const t = triggerVerdict(s.trigger, bars, queryTriggers(a.tallies));
    verdict = t.pass ? 'pass' : 'fail';
    reason = t.reason;
  } else if (rate >= a.minPassRate) {
    verdict = 'pass';
    reason = `pass rate ${rate.toFixed(4)} ≥ ${a.minPassRate}`;
  } else {
    verdict = 'fail';
    reason = `pass rate ${rate.toFixed(4)} < ${a.minPassRate}`;
  }
  if (s.errors > 0 && verdict !== 'error') reason += `; ${s.errors} task(s) errored and are not counted`;
  if (s.unjudged && verdict !== 'error') reason += `; ${s.unjudged.tasks} eval(s) unjudged and not counted`;
  return {
    schema: 'whetstone.evaluation/1',
    stage: 'evaluated',
    mode: 'standalone',
    ...a.bits,
    verdict,
    reason,
    ...HANDOFF_END.done,
    skill_path: a.skillPath,
    evaluation: { ...s, verdict, min_pass_rate: a.minPassRate, ...(bars ? { min_trigger_rate: bars.minTriggerRate, max_false_trigger_rate: bars.maxFalseTriggerRate } : {}), error_share: errorShareOf(s), max_error_share: a.maxErrorShare, cache: a.cache },
    task_results: taskResults(a.tallies),
  };
}

/** A difference of two rates, null unless both were measured (a rate over nothing is not 0). */
function diffOf(a: number | null | undefined, b: number | null | undefined): number | null {
  return a === null || a === undefined || b === null || b === undefined ? null : Math.round((a - b) * 10_000) / 10_000;
}

export interface TriggerBars {
  minTriggerRate: number;
  maxFalseTriggerRate: number;
  /** One-sided level of the false-trigger bound (thresholds.significance); 0.05 when not given. */
  significance?: number;
}

/**
 * The false-trigger bar, held to the upper bound of the rate clustered by query (src/stats/clustered-rate.ts):
 * met only when that bound is at most the bar, so a description is not passed on runs that happened to
 * stay quiet. No should-not-trigger query judged meets nothing.
 */
export function falseTriggerBound(queries: readonly QueryTriggers[], bar: number, alpha = 0.05): { passed: boolean; upper: number; words: string } {
  const b = clusteredUpperBound(queries.filter((q) => !q.should).map((q) => ({ x: q.triggered, n: q.judged })), alpha);
  if (b.rate === null) return { passed: false, upper: 1, words: `false-trigger rate — (no should-not-trigger query judged); needs an upper bound ≤ ${bar}` };
  const passed = b.upper <= bar;
  const words = `false-trigger rate ${b.rate.toFixed(4)}, its ${Number(((1 - alpha) * 100).toFixed(1))}% upper bound ${b.upper.toFixed(4)} clustered by query ${passed ? '≤' : '>'} ${bar} (${b.clusters} should-not-trigger queries, ${b.trials} runs)`;
  return { passed, upper: b.upper, words };
}

/** " [0.21, 1.00]": an interval as the trigger verdicts and the gate's trigger checks print it; '' when there is none. */
export const ciWords = (c: { low: number; high: number } | null | undefined) => (c ? ` [${c.low.toFixed(2)}, ${c.high.toFixed(2)}]` : '');

/**
 * A trigger suite passes on its two rates, never on the pooled pass rate: pooling lets the negatives
 * (which a skill that never triggers passes) carry a skill that misses every positive. A side with no
 * queries is not measured and decides nothing; both sides unmeasured is no verdict the caller reaches.
 */
export function triggerVerdict(t: TriggerSummary, bars: TriggerBars, queries: readonly QueryTriggers[]): { pass: boolean; reason: string } {
  const parts: string[] = [];
  let pass = true;
  if (t.trigger_rate !== null) {
    const ok = t.trigger_rate >= bars.minTriggerRate;
    pass &&= ok;
    parts.push(`trigger rate ${t.trigger_rate.toFixed(4)}${ciWords(t.trigger_rate_ci95)} ${ok ? '≥' : '<'} ${bars.minTriggerRate} (${t.triggered}/${t.should} should-trigger runs)`);
  } else parts.push('trigger rate — (no should-trigger query judged)');
  if (t.false_trigger_rate !== null) {
    const b = falseTriggerBound(queries, bars.maxFalseTriggerRate, bars.significance);
    pass &&= b.passed;
    parts.push(b.words);
  } else parts.push('false-trigger rate — (no should-not-trigger query judged)');
  return { pass, reason: parts.join('; ') };
}

export interface PipelineMeasured {
  /** Absent when the candidate was not run (the baseline was unusable). */
  candidate?: { summary: VariantSummary; tallies: TaskTally[] };
  baseline: { summary: VariantSummary; tallies: TaskTally[] };
}

export function pipelineArtifact(a: {
  bits: EnvelopeBits;
  candidateId: string;
  candidateScore: number | null;
  evalThreshold: number;
  baselineMinPassRate: number;
  maxErrorShare: number;
  cache?: CacheInfo;
  candidateCache?: CacheInfo;
  measured?: PipelineMeasured;
  /** Set when the candidate was skipped before any task ran. */
  skippedReason?: string;
  /** Why a baseline under baselineMinPassRate is weak, when it is known not to be a broken suite (mock-judges.ts). */
  weakBaselineWhy?: string;
  /**
   * The baseline over the whole suite when `measured` compares the held-out tasks alone (train-after-keep.ts):
   * the broken-suite checks are about the suite; the comparison stays on the tasks both variants ran.
   */
  baselineWhole?: PipelineMeasured['baseline'];
}): PipelineEvaluation {
  const head = {
    schema: 'whetstone.evaluation/1' as const,
    stage: 'evaluated' as const,
    mode: 'pipeline' as const,
    ...a.bits,
    candidate_id: a.candidateId,
    candidate_score: a.candidateScore,
    eval_threshold: a.evalThreshold,
  };
  const m = a.measured;
  if (!m) {
    const reason = a.skippedReason ?? 'not evaluated';
    return {
      ...head,
      verdict: 'skipped',
      reason,
      ...HANDOFF.evaluated,
      evaluation: { execution_pass_rate: null, baseline_pass_rate: null, delta: null, verdict: 'skipped', reason },
      candidate_results: [],
      baseline_results: [],
    };
  }
  const base = m.baseline.summary;
  const whole = a.baselineWhole ?? m.baseline;
  const baseJudged = whole.summary.passed + whole.summary.failed;
  let verdict: 'pass' | 'fail' | 'error';
  let reason: string;
  let handoff: { next_step: string; next_owner: string } = HANDOFF_END.abort;
  const stopped = whole.summary.stopped_early ?? base.stopped_early ?? m.candidate?.summary.stopped_early;
  if (stopped) {
    verdict = 'error';
    reason = `${whole.summary.stopped_early ?? base.stopped_early ? 'baseline' : 'candidate'} ${stoppedReason(stopped)}`;
  } else if (baseJudged === 0) {
    verdict = 'error';
    reason = `no baseline task could be judged; first error: ${firstError(whole.tallies)}`;
  } else if ((whole.summary.pass_rate ?? 0) < a.baselineMinPassRate) {
    verdict = 'error';
    reason = `baseline pass rate ${(whole.summary.pass_rate ?? 0).toFixed(4)} < ${a.baselineMinPassRate}: ${a.weakBaselineWhy ?? 'the task suite is probably broken'}; the candidate was not run`;
  } else if (tooManyErrors(whole.summary, a.maxErrorShare) ?? tooManyErrors(base, a.maxErrorShare)) {
    verdict = 'error';
    reason = `baseline ${tooManyErrors(whole.summary, a.maxErrorShare) ?? tooManyErrors(base, a.maxErrorShare)}: the comparison would rest on part of the suite; the candidate was not run; first error: ${firstError(whole.tallies)}`;
  } else if (!m.candidate || m.candidate.summary.passed + m.candidate.summary.failed === 0) {
    verdict = 'error';
    reason = `no candidate task could be judged; first error: ${m.candidate ? firstError(m.candidate.tallies) : 'not run'}`;
  } else if (tooManyErrors(m.candidate.summary, a.maxErrorShare)) {
    verdict = 'error';
    reason = `candidate ${tooManyErrors(m.candidate.summary, a.maxErrorShare)}: not a verdict on the candidate; first error: ${firstError(m.candidate.tallies)}`;
  } else {
    const c = m.candidate.summary.pass_rate ?? 0;
    const b = base.pass_rate ?? 0;
    const d = c - b;
    verdict = d >= 0 ? 'pass' : 'fail';
    reason = `candidate ${c.toFixed(4)} vs baseline ${b.toFixed(4)} (delta ${d >= 0 ? '+' : ''}${d.toFixed(4)})`;
    handoff = HANDOFF.evaluated;
  }
  const candidate = m.candidate ?? { summary: undefined, tallies: [] };
  const cand = candidate.summary;
  const delta = diffOf(cand?.pass_rate, base.pass_rate);
  const paired = cand ? pairedComparison(m.baseline.tallies, candidate.tallies) : undefined;
  const cats = new Set([...Object.keys(cand?.per_category ?? {}), ...Object.keys(base.per_category)]);
  const perCategory = Object.fromEntries(
    [...cats].sort().map((c) => {
      const cc = cand?.per_category[c] ?? rateOf([]);
      const bc = base.per_category[c] ?? rateOf([]);
      return [c, { candidate: cc, baseline: bc, delta: diffOf(cc.pass_rate, bc.pass_rate) }];
    }),
  );
  return {
    ...head,
    verdict,
    reason,
    ...handoff,
    evaluation: {
      execution_pass_rate: cand?.pass_rate ?? null,
      baseline_pass_rate: base.pass_rate,
      delta,
      verdict,
      reason,
      max_error_share: a.maxErrorShare,
      ...(cand ? { candidate_error_share: errorShareOf(cand) } : {}),
      baseline_error_share: errorShareOf(base),
      ...(cand ? { candidate: cand } : {}),
      baseline: base,
      ...(paired ? { paired } : {}),
      per_category: perCategory,
      ...(a.cache ? { baseline_cache: a.cache } : {}),
      ...(a.candidateCache ? { candidate_cache: a.candidateCache } : {}),
    },
    candidate_results: taskResults(candidate.tallies),
    baseline_results: taskResults(m.baseline.tallies),
  };
}
