// The Triggering section of the Markdown and HTML reports: a trigger suite's trigger rate, false-trigger
// rate, precision and recall with their intervals, one row per run measured (per iteration in the
// description loop), "—" where a side had nothing judged. Absent for other suites.
import { mdTable, mdText } from './format.js';
import { esc } from './html-charts.js';
import type { ReportModel } from './model-schema.js';
import { TRIGGER_HEAD, triggerCells } from './model-trigger.js';

const WHY =
  'Over every run of every query (triggering is noisy). The verdict comes from the trigger rate and the false-trigger rate against evaluate.min_trigger_rate and evaluate.max_false_trigger_rate, not from the pooled pass rate; precision = triggered / all triggers, recall = the trigger rate.';

export function mdTrigger(m: ReportModel): string[] {
  const rows = m.trigger ?? [];
  if (!rows.length) return [];
  return ['## Triggering', '', WHY, '', mdTable(['measured', ...TRIGGER_HEAD], rows.map((r) => [mdText(r.label), ...triggerCells(r)])), ''];
}

export function htmlTrigger(m: ReportModel): string {
  const rows = m.trigger ?? [];
  if (!rows.length) return '';
  const head = `<tr><th>measured</th>${TRIGGER_HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>`;
  const body = rows.map((r) => `<tr data-testid="trigger-row"><td>${esc(r.label)}</td>${triggerCells(r).map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('');
  return `<section data-testid="trigger">\n<h2>Triggering</h2>\n<p>${esc(WHY)}</p><table>${head}${body}</table>\n</section>`;
}
