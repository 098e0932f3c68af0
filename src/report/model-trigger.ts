// A trigger suite's four numbers as every report format shows them: trigger rate (= recall), false-trigger
// rate, precision, each with its Wilson interval, for the run measured and for each iteration of the
// description loop. They come from the evaluation's `trigger` summary; the pooled pass rate is not among
// them because it is not what decides a trigger suite (src/measure/verdict.ts triggerVerdict).
import { z } from 'zod';
import { at, int, isObj, num, obj, str, type IterationInputs, type Json } from './inputs.js';

const ci = z.object({ low: z.number(), high: z.number() }).nullable();

export const triggerRow = z.object({
  /** What was measured: `skill notes`, `iter 2 baseline`, `iter 2 candidate cand-01-…`. */
  label: z.string(),
  iteration: z.number().int().nullable(),
  triggered: z.number().int(),
  should: z.number().int(),
  false_triggered: z.number().int(),
  should_not: z.number().int(),
  /** null: not measured (no query of that kind judged), shown as "—". */
  trigger_rate: z.number().nullable(),
  trigger_rate_ci95: ci,
  false_trigger_rate: z.number().nullable(),
  false_trigger_rate_ci95: ci,
  precision: z.number().nullable(),
  precision_ci95: ci,
  recall: z.number().nullable(),
  recall_ci95: ci,
});
export type TriggerRow = z.infer<typeof triggerRow>;

const interval = (v: unknown) => {
  const o = obj(v);
  const low = num(o?.low);
  const high = num(o?.high);
  return low !== undefined && high !== undefined ? { low, high } : null;
};

function rowOf(label: string, iteration: number | null, summary: unknown): TriggerRow[] {
  const t = obj(at(summary, 'trigger'));
  if (!t) return [];
  const rate = (k: string) => num(t[k]) ?? null;
  const trig = interval(t.trigger_rate_ci95);
  return [
    {
      label,
      iteration,
      triggered: int(t.triggered) ?? 0,
      should: int(t.should) ?? 0,
      false_triggered: int(t.false_triggered) ?? 0,
      should_not: int(t.should_not) ?? 0,
      trigger_rate: rate('trigger_rate'),
      trigger_rate_ci95: trig,
      false_trigger_rate: rate('false_trigger_rate'),
      false_trigger_rate_ci95: interval(t.false_trigger_rate_ci95),
      precision: rate('precision'),
      precision_ci95: interval(t.precision_ci95),
      recall: rate('recall') ?? rate('trigger_rate'),
      recall_ci95: trig,
    },
  ];
}

/** The run's own rows (a stand-alone evaluation, or the iteration reported), then one pair per iteration. */
export function triggerRowsOf(ev: Json | undefined, iterations: IterationInputs[], standalone: boolean): TriggerRow[] {
  if (standalone && ev) return rowOf(`skill ${str(ev.skill_id) ?? 'skill'}`, null, ev.evaluation);
  return iterations.flatMap((it) => {
    const cand = str(at(it.evaluation, 'candidate_id'));
    const candSummary = at(it.evaluation, 'evaluation', 'candidate');
    return [
      ...rowOf(`iter ${it.n} baseline`, it.n, at(it.baseline, 'evaluation') ?? at(it.evaluation, 'evaluation', 'baseline')),
      ...(cand && isObj(candSummary) ? rowOf(`iter ${it.n} candidate ${cand}`, it.n, candSummary) : []),
    ];
  });
}

const f = (x: number | null) => (x === null ? '—' : x.toFixed(4));
const c = (x: { low: number; high: number } | null) => (x ? `[${x.low.toFixed(2)}, ${x.high.toFixed(2)}]` : '—');

/** The four metrics of a row as cells: value (count) and interval, "—" where nothing was measured. */
export function triggerCells(r: TriggerRow): string[] {
  const fired = r.triggered + r.false_triggered;
  return [
    `${f(r.trigger_rate)} (${r.triggered}/${r.should})`,
    c(r.trigger_rate_ci95),
    `${f(r.false_trigger_rate)} (${r.false_triggered}/${r.should_not})`,
    c(r.false_trigger_rate_ci95),
    `${f(r.precision)} (${r.triggered}/${fired})`,
    c(r.precision_ci95),
    `${f(r.recall)} (${r.triggered}/${r.should})`,
    c(r.recall_ci95),
  ];
}

export const TRIGGER_HEAD = ['trigger rate', '95% CI', 'false-trigger rate', '95% CI', 'precision', '95% CI', 'recall', '95% CI'];

/** One line per row, for JUnit's system-out and the skill-creator notes. */
export function triggerLine(r: TriggerRow): string {
  const cells = triggerCells(r);
  return `${r.label}: trigger rate ${cells[0]} ${cells[1]}; false-trigger rate ${cells[2]} ${cells[3]}; precision ${cells[4]} ${cells[5]}; recall ${cells[6]} ${cells[7]}`;
}
