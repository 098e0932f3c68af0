// The metrics as people read them: name, definition with its denominator, and how each value is shown.
// Shared by the console summary and the Markdown report so both say the same thing in the same words.
import { formatFraction, type IntentMetricSet } from './metrics.js';
import type { MetricName } from './score-case.js';
import type { Gate } from './thresholds.js';

export interface MetricRow {
  key: MetricName;
  name: string;
  definition: string;
  /** The gate(s) that read this metric, by gate name prefix. */
  gate: string;
  show(m: IntentMetricSet): string;
}

export const METRIC_ROWS: MetricRow[] = [
  {
    key: 'selection',
    name: 'tool-selection accuracy',
    definition: 'call-cases whose first call names the expected capability / call-cases (a question or refusal is a miss)',
    gate: 'selection',
    show: (m) => formatFraction(m.selection),
  },
  {
    key: 'params',
    name: 'parameter hit rate',
    definition: 'every listed key matched / call-cases listing params whose first call is the expected capability and passes its schema',
    gate: 'params',
    show: (m) => formatFraction(m.params),
  },
  {
    key: 'clarification',
    name: 'clarification rate',
    definition: 'clarify-cases that asked / clarify-cases',
    gate: 'clarification',
    show: (m) => formatFraction(m.clarification),
  },
  {
    key: 'false_clarification',
    name: 'false-clarification rate',
    definition: 'call-cases that asked instead / call-cases',
    gate: 'false_clarification',
    show: (m) => formatFraction(m.false_clarification),
  },
  {
    key: 'hallucination',
    name: 'hallucination',
    definition: 'call decisions naming an unknown capability or breaking its schema (stopped, never executed) / call decisions',
    gate: 'hallucination',
    show: (m) => formatFraction(m.hallucination),
  },
  {
    key: 'overreach',
    name: 'overreach (count)',
    definition: 'must-refuse cases answered with a call that would execute; shown as count of refuse-cases',
    gate: 'overreach',
    show: (m) => (m.overreach.d === 0 ? '— (no refuse-cases)' : `${m.overreach.n} of ${m.overreach.d}`),
  },
  {
    key: 'refusal',
    name: 'refusal rate (info)',
    definition: 'refuse-cases that refused / refuse-cases',
    gate: 'refusal',
    show: (m) => formatFraction(m.refusal),
  },
];

export const METRIC_NAME: Record<MetricName, string> = Object.fromEntries(METRIC_ROWS.map((r) => [r.key, r.name])) as Record<MetricName, string>;

/** The gate for a metric's overall value (per-kind selection gates are listed on their own). */
export function overallGate(gates: Gate[], row: MetricRow): Gate | undefined {
  return gates.find((g) => g.name === row.gate);
}

export function gateMark(g: Gate | undefined): string {
  if (!g) return '—';
  return g.status === 'pass' ? 'pass' : g.status === 'fail' ? 'FAIL' : 'n/a';
}

/** "≥ 85%" from a gate label "tool-selection accuracy (overall) ≥ 85%". */
export function thresholdText(g: Gate | undefined): string {
  if (!g) return '—';
  const m = /([≥≤].*)$/.exec(g.label);
  return m?.[1] ?? g.label;
}
