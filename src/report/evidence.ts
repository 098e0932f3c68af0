// The evidence a report ends with (docs/guides/reports.md: "it ends with evidence, not a verdict word"), as plain
// sentences every renderer can print: the eval set's shape, the answer key's size and each judge's four
// figures with the positive class and the bias reading with counts, the thresholds set in advance, which
// gate checks passed or failed, the system's rate, the top failure category, and what was fed back.
import { ciText, f4, plural, rateText } from './format.js';
import type { CalibrationView, ModelGraded, ReportModel } from './model-schema.js';

const frac = (f: { count: number; of: number }) => `${f.count}/${f.of} (${f.of ? f4(f.count / f.of) : '—'})`;

/** "harsh — wrongly failed 9/30 (0.3000) against wrongly passed 6/50 (0.1200)" */
export const biasText = (c: CalibrationView) => `${c.bias.reading} — wrongly failed ${frac(c.bias.wrongly_failed)} against wrongly passed ${frac(c.bias.wrongly_passed)}`;
export const biasLine = (c: CalibrationView) => `${c.judge}: ${biasText(c)}`;

export const MOCK_CALIBRATION = 'calibrated with the offline mock engine: these figures demonstrate the tool, they are not agreement with people';

/** "yes (mock engine)", "yes, thresholds missed", "no — inline rubrics cannot be calibrated…" */
export function calibratedText(g: ModelGraded): string {
  if (!g.calibrated) return `no — ${g.detail}`;
  const th = g.thresholds_met === null ? '' : g.thresholds_met ? ', thresholds met' : ', thresholds missed';
  return `yes${g.engine_mock ? ' (mock engine: not agreement with people)' : ''}${th}`;
}

/** "0.5000 (2/4)", or — when the judge alone decided no judged task. */
export const rawText = (g: ModelGraded) => (g.observed_pass_rate === null ? '—' : `${f4(g.observed_pass_rate)}${g.observed ? ` (${g.observed.count}/${g.observed.of})` : ''}`);

/** Every check the run's gate and evaluation made, and which failed: the "which gates passed" of the evidence. */
export function checkTally(m: ReportModel): { total: number; passed: number; failed: string[] } {
  const checks = [...(m.gate?.checks ?? []), ...(m.verdict?.checks ?? [])];
  const failed = checks.filter((c) => !c.passed).map((c) => c.id);
  return { total: checks.length, passed: checks.length - failed.length, failed };
}

export function evidenceItems(m: ReportModel): string[] {
  const s = m.suite;
  const out: string[] = [];
  const grid = s.grid ? `, ${s.grid.cells_filled}/${s.grid.cells_total} grid cells filled` : ', no declared grid';
  out.push(`eval set: ${plural(s.tasks, 'task')}, ${plural(s.categories.length, 'category', 'categories')}${grid}, ${s.negative_controls} negative control(s), ${s.splits.train} train / ${s.splits.holdout} held out`);
  if (m.judges.calibrated) {
    for (const c of m.judges.calibrations) {
      out.push(`judge ${c.judge} (positive class ${c.positive}, answer key ${c.answer_key_items}${c.engine_mock ? `; ${MOCK_CALIBRATION}` : ''}): TPR ${f4(c.tpr)}, TNR ${f4(c.tnr)}, accuracy ${f4(c.accuracy)}, precision ${f4(c.precision)}; bias ${biasText(c)}`);
    }
  } else out.push('judges: none calibrated (answer key size 0): agreement with people unmeasured');
  for (const g of m.judges.model_graded) {
    if (g.calibrated) out.push(`judge-corrected pass rate, ${g.judge}${g.engine_mock ? ' (mock-engine calibration)' : ''}: raw ${rawText(g)}, corrected ${f4(g.corrected_pass_rate)}`);
  }
  const t = m.thresholds;
  out.push(`thresholds: ${t.registered ? `set before results (${t.sha256 ?? 'no hash recorded'})` : t.source}`);
  const c = checkTally(m);
  out.push(`gates: ${c.passed} of ${c.total} checks passed${c.failed.length ? `; failed: ${c.failed.join(', ')}` : ''}${m.gate ? ` (gate decision: ${m.gate.decision})` : ''}`);
  const p = m.system.primary;
  const r = m.system.reference;
  if (p) {
    const base = r ? `; baseline ${f4(r.summary.pass_rate)} (${r.summary.passed}/${r.summary.judged})` : '';
    out.push(`${p.label}: ${f4(p.summary.pass_rate)} (${p.summary.passed}/${p.summary.judged}) 95% CI ${ciText(p.summary)}, ${p.summary.errors} error(s)${base}`);
  }
  for (const sp of m.system.per_split) {
    out.push(`split ${sp.split}: ${p?.role ?? 'primary'} ${rateText(sp.primary)}${r ? `; ${r.role} ${rateText(sp.reference)}` : ''}`);
  }
  const top = m.system.top_failure_category;
  out.push(`top failure category: ${top ? `${top.category} (${top.failed}/${top.judged} failed, ${top.role})` : 'none'}`);
  out.push(`fed back: ${plural(m.proposed_cases.total, 'new case')} proposed from failures for review`);
  return out;
}
