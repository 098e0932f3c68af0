// The parts of the markdown report that are about the measuring instruments rather than the skill: the
// eval set's shape, the judges' agreement with people (docs/method.md: Calibrating a judge), with the positive class named
// next to every figure, and the closing evidence list a reviewer reads instead of a verdict word.
import { f4, mdTable, mdText, plural } from './format.js';
import { biasLine, calibratedText, evidenceItems, MOCK_CALIBRATION, rawText } from './evidence.js';
import type { ReportModel } from './model-schema.js';

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

export function mdJudges(m: ReportModel): string[] {
  const out = ['## Judge metrics (agreement with people)', ''];
  const j = m.judges;
  out.push(`Source: ${mdText(j.source_note)}.`, '');
  if (j.model_graded.length) {
    out.push('Model-graded judges of this evaluation; pass rate over the tasks each judge alone decides, raw and corrected for the judge\'s errors (Rogan–Gladen).', '');
    out.push(mdTable(['judge', 'tasks', 'calibrated', 'raw pass rate', 'corrected pass rate'], j.model_graded.map((g) => [mdText(g.judge), String(g.tasks), mdText(calibratedText(g)), rawText(g), f4(g.corrected_pass_rate)])), '');
  }
  if (!j.calibrated) {
    const kinds = m.suite.judge_types.map((t) => t.type).join(', ');
    const where = j.source === 'evaluation' ? 'the evaluation used no calibrated judge' : 'there is no calibration record in this state directory';
    return [
      ...out,
      `No judge is calibrated: ${where}, so the judges' agreement with people is unmeasured${kinds ? ` (this suite's judges: ${kinds})` : ''}. Hand-label an answer key and run \`whet calibrate\` before trusting a model-graded judge at scale.`,
      '',
    ];
  }
  out.push('Measured against a hand-labelled answer key. Rates are under the positive class named in each row; swapping it swaps TPR with TNR.', '');
  out.push(
    mdTable(
      ['judge', 'used here', 'positive', 'answer key', 'TP', 'TN', 'FP', 'FN', 'TPR', 'TNR', 'accuracy', 'precision'],
      j.calibrations.map((c) => [`${mdText(c.judge)}${c.engine_mock ? ' (mock engine)' : ''}`, c.in_suite ? 'yes' : 'no', c.positive, String(c.answer_key_items), String(c.tp), String(c.tn), String(c.fp), String(c.fn), f4(c.tpr), f4(c.tnr), f4(c.accuracy), f4(c.precision)]),
    ),
    '',
  );
  for (const c of j.calibrations) if (c.engine_mock) out.push(`- ${mdText(c.judge)}: ${MOCK_CALIBRATION}`);
  for (const c of j.calibrations) out.push(`- bias: ${mdText(biasLine(c))}${c.small_sample ? ' — small sample (under 30 in a class): read the counts, not the rates' : ''}`);
  return [...out, ''];
}

/** The closing list, in docs/guides/reports.md's order: what a reviewer reads instead of a verdict word. */
export function mdEvidence(m: ReportModel): string[] {
  return ['## Evidence', '', ...evidenceItems(m).map((i) => `- ${mdText(i)}`), ''];
}
