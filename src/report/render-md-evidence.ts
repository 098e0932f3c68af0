// The parts of the markdown report that are about the measuring instruments rather than the skill: the
// eval set's shape, the judges' agreement with people (METHOD.md step 5, with the positive class named
// next to every figure), and the closing evidence list a reviewer reads instead of a verdict word.
import { f4, mdTable, mdText, plural } from './format.js';
import type { CalibrationView, ReportModel } from './model-schema.js';

const EMPTY_CELLS_LISTED = 12;

export function mdSuite(m: ReportModel): string[] {
  const s = m.suite;
  const out = ['## Eval set', ''];
  if (s.source === 'none') return [...out, `No task was measured and the suite could not be read${s.problem ? `: ${mdText(s.problem)}` : ''}.`, ''];
  if (s.path) out.push(`Suite \`${s.path}\`${s.sha256 ? ` (${s.sha256.slice(0, 19)}…)` : ''}${s.source === 'results' ? ' — could not be read; shape taken from the results' : ''}.`, '');
  const items = [
    `${plural(s.tasks, 'task')} in ${plural(s.categories.length, 'category', 'categories')}: ${s.categories.map((c) => `${c.name} (${c.tasks})`).join(', ')}`,
    `negative controls: ${s.negative_controls}${s.negative_controls === 0 ? ' (none: nothing checks that the skill stays out of what it should not do)' : ''}`,
    `splits: ${s.splits.train} train, ${s.splits.holdout} held out${s.splits.unassigned ? `, ${s.splits.unassigned} unassigned` : ''}`,
  ];
  if (s.grid) {
    const g = s.grid;
    const dims = g.dimensions.map((d) => `${d.name} (${d.values.join(', ')})`).join(' × ');
    const empty = g.empty_cells.length
      ? `; empty: ${g.empty_cells.slice(0, EMPTY_CELLS_LISTED).join('; ')}${g.empty_cells.length > EMPTY_CELLS_LISTED ? `; … ${g.empty_cells.length - EMPTY_CELLS_LISTED} more` : ''}`
      : '';
    items.push(`declared grid ${dims}: ${g.cells_filled} of ${g.cells_total} cells filled${empty}${g.tasks_without_cell ? `; ${g.tasks_without_cell} task(s) without a cell` : ''}`);
  } else if (s.source === 'suite') items.push('no declared grid: coverage cannot be checked');
  if (s.judge_types.length) items.push(`judges: ${s.judge_types.map((j) => `${j.type} (${j.tasks})`).join(', ')}`);
  return [...out, ...items.map((i) => `- ${mdText(i)}`), ''];
}

export function biasLine(c: CalibrationView): string {
  const r = (f: { count: number; of: number }) => `${f.count}/${f.of} (${f.of ? f4(f.count / f.of) : 'n/a'})`;
  return `${c.judge}: ${c.bias.reading} — wrongly failed ${r(c.bias.wrongly_failed)} against wrongly passed ${r(c.bias.wrongly_passed)}`;
}

export function mdJudges(m: ReportModel): string[] {
  const out = ['## Judge metrics (agreement with people)', ''];
  const j = m.judges;
  if (!j.calibrated) {
    const kinds = m.suite.judge_types.map((t) => t.type).join(', ');
    return [
      ...out,
      `No judge is calibrated: there is no calibration record in this state directory, so the judges' agreement with people is unmeasured${kinds ? ` (this suite's judges: ${kinds})` : ''}. Hand-label an answer key and run \`whet calibrate\` before trusting a model-graded judge at scale.`,
      '',
    ];
  }
  out.push('Measured against a hand-labelled answer key. Rates are under the positive class named in each row; swapping it swaps TPR with TNR.', '');
  out.push(
    mdTable(
      ['judge', 'used here', 'positive', 'answer key', 'TP', 'TN', 'FP', 'FN', 'TPR', 'TNR', 'accuracy', 'precision'],
      j.calibrations.map((c) => [mdText(c.judge), c.in_suite ? 'yes' : 'no', c.positive, String(c.answer_key_items), String(c.tp), String(c.tn), String(c.fp), String(c.fn), f4(c.tpr), f4(c.tnr), f4(c.accuracy), f4(c.precision)]),
    ),
    '',
  );
  for (const c of j.calibrations) out.push(`- bias: ${mdText(biasLine(c))}${c.small_sample ? ' — small sample (under 30 in a class): read the counts, not the rates' : ''}`);
  return [...out, ''];
}

/** The closing list: the evidence a reviewer needs, in METHOD.md's order. */
export function mdEvidence(m: ReportModel): string[] {
  const s = m.suite;
  const out = ['## Evidence', ''];
  const grid = s.grid ? `, ${s.grid.cells_filled}/${s.grid.cells_total} grid cells filled` : ', no declared grid';
  out.push(`- eval set: ${plural(s.tasks, 'task')}, ${plural(s.categories.length, 'category', 'categories')}${grid}, ${s.negative_controls} negative control(s), ${s.splits.holdout} held out`);
  if (m.judges.calibrated) {
    for (const c of m.judges.calibrations) out.push(`- judge ${mdText(c.judge)} (positive ${c.positive}, answer key ${c.answer_key_items}): TPR ${f4(c.tpr)}, TNR ${f4(c.tnr)}, accuracy ${f4(c.accuracy)}, precision ${f4(c.precision)}; ${mdText(biasLine(c).slice(c.judge.length + 2))}`);
  } else out.push('- judges: none calibrated (answer key size 0)');
  const t = m.thresholds;
  out.push(`- thresholds: ${t.registered ? `set before results, sha256 \`${t.sha256 ?? 'none'}\`` : mdText(t.source)}`);
  const checks = [...(m.gate?.checks ?? []), ...(m.verdict?.checks ?? [])];
  const failed = checks.filter((c) => !c.passed).map((c) => c.id);
  out.push(`- gates: ${checks.length - failed.length} of ${checks.length} checks passed${failed.length ? `; failed: ${failed.join(', ')}` : ''}${m.gate ? ` (gate decision: ${m.gate.decision})` : ''}`);
  const p = m.system.primary;
  const r = m.system.reference;
  if (p) out.push(`- ${mdText(p.label)}: ${f4(p.summary.pass_rate)} (${p.summary.passed}/${p.summary.judged}) [${f4(p.summary.ci95.low)}, ${f4(p.summary.ci95.high)}], ${p.summary.errors} error(s)${r ? `; baseline ${f4(r.summary.pass_rate)} (${r.summary.passed}/${r.summary.judged})` : ''}`);
  const top = m.system.top_failure_category;
  out.push(`- top failure category: ${top ? `${top.category} (${top.failed}/${top.judged} failed)` : 'none'}`);
  out.push(`- fed back: ${plural(m.proposed_cases.total, 'new case')} proposed for review`);
  return [...out, ''];
}
