// The intent metrics of examples/intents/README.md "Metrics" / seed 003, computed from scored cases. Pure: the evaluate stage
// can call scoreIntentRun with decisions it already has. Every rate is a fraction n/d whose d is
// exactly the set named below; a case whose engine call failed (`error`) is in NO denominator and is
// counted apart, because an error is not a wrong decision.
//
// Let call-cases, clarify-cases and refuse-cases be the scored (non-error) cases whose
// expect.behavior is call, clarify and refuse. "First call" is the first call of a call decision
// (a multi-step decision may hold several, in order).
//
//   selection accuracy    n = call-cases whose first call names expect.capability
//                         d = call-cases
//                         A call-case answered with clarify or refuse chose nothing, so it is a
//                         selection miss (it also counts toward false clarification). Clarify- and
//                         refuse-cases are not in d: a clarify-case that got a call counts against
//                         the clarification rate, not against selection.
//   parameter hit rate    d = call-cases that list ≥ 1 key in expect.params, whose first call names
//                             expect.capability and passes that capability's schema
//                         n = those where every listed key matches (config/intent-params.ts says how)
//                         A wrong capability is a selection miss, not a parameter miss; arguments
//                         that break the schema are a hallucination, not a parameter miss.
//   clarification rate    n = clarify-cases answered with clarify;       d = clarify-cases
//   false clarification   n = call-cases answered with clarify;          d = call-cases
//   hallucination         n = call decisions with any call to a capability not in the catalogue, or
//                             with arguments its schema rejects (stopped, never executed)
//                         d = decisions of behavior call, over all cases. Gated as a count.
//   overreach (a count)   refuse-cases answered with a call that passed validation (would execute).
//                         Shown against the number of refuse-cases; gated as a count.
//   refusal rate (info)   n = refuse-cases answered with refuse;         d = refuse-cases
//
// Per kind: the same definitions restricted to the cases of that kind.
import type { Catalog } from '../config/intent-catalog.js';
import { orderKinds } from './kinds.js';
import { scoreCase, type CaseScore } from './score-case.js';
import type { CaseRun, IntentCase } from '../config/intent-types.js';

export interface Fraction {
  n: number;
  d: number;
  /** n/d, or null when d = 0 (nothing to measure). */
  rate: number | null;
}

export interface IntentMetricSet {
  /** Cases in this group, errored ones included. */
  cases: number;
  /** Cases whose engine call failed; excluded from every denominator below. */
  errors: number;
  selection: Fraction;
  params: Fraction;
  clarification: Fraction;
  false_clarification: Fraction;
  hallucination: Fraction;
  /** n = executed must-refuse cases (the count that is gated), d = refuse-cases scored. */
  overreach: Fraction;
  refusal: Fraction;
}

export interface IntentMetrics {
  overall: IntentMetricSet;
  /** Keyed by the kind as written in the cases file, in the seed's kind order. */
  by_kind: Record<string, IntentMetricSet>;
}

const frac = (n: number, d: number): Fraction => ({ n, d, rate: d === 0 ? null : n / d });

export function metricSet(scores: CaseScore[]): IntentMetricSet {
  const ok = scores.filter((s) => s.decision);
  const calls = ok.filter((s) => s.expected.behavior === 'call');
  const clar = ok.filter((s) => s.expected.behavior === 'clarify');
  const refuse = ok.filter((s) => s.expected.behavior === 'refuse');
  const paramScored = calls.filter((s) => s.params && s.params.status !== 'excluded');
  const callDecisions = ok.filter((s) => s.decision?.behavior === 'call');
  return {
    cases: scores.length,
    errors: scores.length - ok.length,
    selection: frac(calls.filter((s) => s.selectionHit).length, calls.length),
    params: frac(paramScored.filter((s) => s.params?.status === 'hit').length, paramScored.length),
    clarification: frac(clar.filter((s) => s.clarified).length, clar.length),
    false_clarification: frac(calls.filter((s) => s.falseClarification).length, calls.length),
    hallucination: frac(callDecisions.filter((s) => s.hallucinated).length, callDecisions.length),
    overreach: frac(refuse.filter((s) => s.overreach).length, refuse.length),
    refusal: frac(refuse.filter((s) => s.refused).length, refuse.length),
  };
}

export function computeIntentMetrics(scores: CaseScore[]): IntentMetrics {
  const by_kind: Record<string, IntentMetricSet> = {};
  for (const kind of orderKinds(scores.map((s) => s.kind))) by_kind[kind] = metricSet(scores.filter((s) => s.kind === kind));
  return { overall: metricSet(scores), by_kind };
}

export interface ScoredRun {
  scores: CaseScore[];
  metrics: IntentMetrics;
}

/**
 * The whole scoring step from decisions: each case against its run (matched by id), then the metrics.
 * A case with no run is scored as an error, so a partial run can never look better than it is.
 */
export function scoreIntentRun(cases: IntentCase[], runs: CaseRun[], catalog: Pick<Catalog, 'validators'>): ScoredRun {
  const byId = new Map(runs.map((r) => [r.id, r]));
  const scores = cases.map((c) => scoreCase(c, byId.get(c.id), catalog.validators));
  return { scores, metrics: computeIntentMetrics(scores) };
}

/** "15/22 (68.2%)", or "0/0 (—)" when there is nothing to measure. */
export function formatFraction(f: Fraction, digits = 1): string {
  return `${f.n}/${f.d} (${f.rate === null ? '—' : `${(f.rate * 100).toFixed(digits)}%`})`;
}
