// Intent metrics as system metrics of an evaluation (issue 5 §6). Each judged or errored attempt of a
// `tool_call` task carries its contribution — the metrics of src/intents/metrics.ts computed on that one
// case (every fraction 0/0, 0/1 or 1/1) — in its results line and in its task's tally. Summing
// contributions gives exactly the fractions metrics.ts would compute over all attempts, so a summary can
// be built from tallies alone (and a cached baseline, which keeps tallies, keeps its intent metrics).
// With pass-k > 1 every attempt counts, like in the rates: n/d are over attempts, not cases.
import { z } from 'zod';
import type { Fraction, IntentMetrics, IntentMetricSet } from './metrics.js';
import { orderKinds } from './kinds.js';

const fraction = z.object({ n: z.number().int(), d: z.number().int(), rate: z.number().nullable() });
export const intentMetricSetSchema = z.object({
  cases: z.number().int(),
  errors: z.number().int(),
  selection: fraction,
  params: fraction,
  clarification: fraction,
  false_clarification: fraction,
  hallucination: fraction,
  overreach: fraction,
  refusal: fraction,
});
export const intentMetricsSchema = z.object({ overall: intentMetricSetSchema, by_kind: z.record(z.string(), intentMetricSetSchema) });

const RATES = ['selection', 'params', 'clarification', 'false_clarification', 'hallucination', 'overreach', 'refusal'] as const;

const frac = (n: number, d: number): Fraction => ({ n, d, rate: d === 0 ? null : Math.round((n / d) * 10_000) / 10_000 });

export function emptyIntentSet(): IntentMetricSet {
  const zero = frac(0, 0);
  return { cases: 0, errors: 0, selection: zero, params: zero, clarification: zero, false_clarification: zero, hallucination: zero, overreach: zero, refusal: zero };
}

/** a + b, rates recomputed from the summed counts. */
export function addIntentSets(a: IntentMetricSet, b: IntentMetricSet): IntentMetricSet {
  const out: IntentMetricSet = { ...a, cases: a.cases + b.cases, errors: a.errors + b.errors };
  for (const k of RATES) out[k] = frac(a[k].n + b[k].n, a[k].d + b[k].d);
  return out;
}

/** Overall and per-kind metrics of the tallies that carry contributions; undefined when none does. */
export function intentMetricsOf(tallies: { category: string; intent?: IntentMetricSet }[]): IntentMetrics | undefined {
  const withIntent = tallies.filter((t) => t.intent);
  if (withIntent.length === 0) return undefined;
  let overall = emptyIntentSet();
  const by: Record<string, IntentMetricSet> = {};
  for (const t of withIntent) {
    overall = addIntentSets(overall, t.intent!);
    by[t.category] = addIntentSets(by[t.category] ?? emptyIntentSet(), t.intent!);
  }
  const by_kind: Record<string, IntentMetricSet> = {};
  for (const k of orderKinds(Object.keys(by))) by_kind[k] = by[k]!;
  return { overall, by_kind };
}
