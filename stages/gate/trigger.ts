// The gate's checks of a trigger suite (docs/method.md: Trigger bars). A candidate is kept only when its
// held-out queries meet the suite's own bars, as a standalone trigger evaluation is judged
// (src/measure/verdict.ts triggerVerdict): a gain in the pooled pass rate can come from the
// should-not-trigger half alone, by a description that triggers on nothing. The false-trigger bar is a
// claim about queries like these, so it is held to an upper bound clustered by query
// (src/stats/clustered-rate.ts), not to the measured rate: a description that fires on 30% of should-not
// queries passed a 0.2 bar on its measured rate in up to 38% of runs. And a candidate may not false-trigger
// significantly more than the baseline on the same queries, whatever the bar. A side with no held-out
// query judged shows "—" and does not pass: nothing there says the bar is met.
import type { PipelineEvaluation } from '../../src/artifacts/evaluation.js';
import type { Check } from '../../src/artifacts/gate.js';
import { cmh, DESIGN } from '../../src/evaluation/sequential.js';
import { normalSurvival } from '../../src/stats/normal.js';
import { ciWords, falseTriggerBound, type TriggerBars } from '../../src/measure/verdict.js';

type Queries = NonNullable<NonNullable<PipelineEvaluation['evaluation']['candidate']>['holdout_trigger']>['queries'];

/**
 * One-sided p that the candidate triggers more often than the baseline on the held-out should-not
 * queries: the CMH score the held-out test uses, each query a stratum (its runs on both sides), with the
 * same continuity correction. 1 when no query was run on both.
 */
export function moreFalseTriggers(candidate: Queries, baseline: Queries): { p: number; queries: number } {
  const base = new Map((baseline ?? []).filter((q) => !q.should).map((q) => [q.task_id, q]));
  const pairs = (candidate ?? []).flatMap((q) => {
    const b = base.get(q.task_id);
    return !q.should && b && q.judged > 0 && b.judged > 0 ? [{ task_id: q.task_id, candidate: { passes: q.triggered, judged: q.judged }, baseline: { passes: b.triggered, judged: b.judged } }] : [];
  });
  const c = cmh(pairs);
  if (!(c.info > 0)) return { p: 1, queries: pairs.length };
  const z = Math.sign(c.score) * Math.max(0, Math.abs(c.score) - DESIGN.continuity) / Math.sqrt(c.info);
  return { p: Number(normalSurvival(z).toPrecision(4)), queries: pairs.length };
}

export function triggerChecks(e: PipelineEvaluation, bars: TriggerBars): Check[] {
  const c = e.evaluation.candidate;
  if (!c?.trigger) return [];
  const h = c.holdout_trigger;
  const rate = h?.trigger_rate ?? null;
  const falseRate = h?.false_trigger_rate ?? null;
  const alpha = bars.significance ?? 0.05;
  const checks: Check[] = [
    rate === null
      ? { id: 'min_trigger_rate', passed: false, detail: `held-out trigger rate — (no held-out should-trigger query judged); needs ≥ ${bars.minTriggerRate}` }
      : { id: 'min_trigger_rate', passed: rate >= bars.minTriggerRate, detail: `held-out trigger rate ${rate.toFixed(4)}${ciWords(h?.trigger_rate_ci95)} ${rate >= bars.minTriggerRate ? '≥' : '<'} ${bars.minTriggerRate} (${h!.triggered}/${h!.should} should-trigger runs)` },
  ];
  if (falseRate === null) {
    checks.push({ id: 'max_false_trigger_rate', passed: false, detail: `held-out false-trigger rate — (no held-out should-not-trigger query judged); needs ≤ ${bars.maxFalseTriggerRate}` });
    return checks;
  }
  if (!h?.queries) {
    // An evaluation.json from before per-query counts were recorded: its rate alone is no bound.
    checks.push({ id: 'max_false_trigger_rate', passed: false, detail: `held-out false-trigger rate ${falseRate.toFixed(4)}, but evaluation.json records no per-query counts to bound it by (re-evaluate the candidate); needs an upper bound ≤ ${bars.maxFalseTriggerRate}` });
    return checks;
  }
  const bound = falseTriggerBound(h.queries, bars.maxFalseTriggerRate, alpha);
  checks.push({ id: 'max_false_trigger_rate', passed: bound.passed, detail: `held-out ${bound.words}` });
  const more = moreFalseTriggers(h.queries, e.evaluation.baseline?.holdout_trigger?.queries);
  const worse = more.p < alpha;
  checks.push({
    id: 'false_trigger_vs_baseline',
    passed: !worse,
    detail: more.queries === 0 ? 'no held-out should-not-trigger query run on both variants' : `${worse ? 'false-triggers more than the baseline' : 'no evidence of more false triggers than the baseline'} on ${more.queries} held-out should-not-trigger queries (one-sided CMH p ${more.p} ${worse ? '<' : '≥'} ${alpha})`,
  });
  return checks;
}
