// The HTML report's tables: the paired comparison, a calibrated judge's confusion matrix, the candidate's
// diff with added and removed lines coloured, and the task table with its status filter. All text from
// artifacts goes through esc(): task prompts, reasons and diffs are user data.
import { createHash } from 'node:crypto';
import { esc } from './html-charts.js';
import { biasText, calibratedText, MOCK_CALIBRATION, rawText } from './evidence.js';
import { f4, pValue, rateText, signed } from './format.js';
import type { CalibrationView, ReportModel, TaskRow } from './model-schema.js';

export function pairedTable(m: ReportModel): string {
  const p = m.system.paired;
  if (!p && m.nightly) return nightTable(m.nightly);
  if (!p) return '<p data-testid="paired-none">No paired comparison: this run measured one variant.</p>';
  const cell = (id: string, n: number, what: string, cls = '') => `<td data-testid="paired-${id}" data-count="${n}" class="${cls}"><b>${n}</b><br><small>${what}</small></td>`;
  const list = (ids: string[]) => (ids.length ? `: ${ids.map(esc).join(', ')}` : ': none');
  return `<table class="matrix" data-testid="paired">
<tr><th></th><th>candidate passes</th><th>candidate fails</th></tr>
<tr><th>baseline passes</th>${cell('both-pass', p.both_pass, 'both pass')}${cell('regressed', p.regressed, 'regressed', p.regressed ? 'bad' : '')}</tr>
<tr><th>baseline fails</th>${cell('fixed', p.fixed, 'fixed', p.fixed ? 'good' : '')}${cell('both-fail', p.both_fail, 'both fail')}</tr>
</table>
<p>${p.tasks_compared} tasks compared, ${p.excluded_errors} excluded for errors. ${esc(p.method)}: <span data-testid="paired-p">p = ${pValue(p.p_value)}</span>.
Fixed${list(p.fixes)}; regressed${list(p.regressions)}.</p>`;
}

/** A nightly run: tonight against the previous night of its target, with the alert and what changed. */
export function nightTable(n: NonNullable<ReportModel['nightly']>): string {
  const head = `<p data-testid="night-alert" data-alert="${n.alert}" data-engine-failed="${n.engine_failed}" class="${n.alert ? 'note' : ''}">${n.alert ? `<b>Drift alert</b> on ${esc(n.date)}: ${esc(n.reasons.join('; '))}` : `No drift alert on ${esc(n.date)}.`}</p>`;
  if (!n.compared_with) return `<div data-testid="night">${head}<p data-testid="night-cause">${esc(n.cause)}.</p></div>`;
  const cell = (id: string, k: number, what: string, cls = '') => `<td data-testid="night-${id}" data-count="${k}" class="${cls}"><b>${k}</b><br><small>${what}</small></td>`;
  const list = (ids: string[]) => (ids.length ? `: ${ids.map(esc).join(', ')}` : ': none');
  const cats = n.per_category
    .map((c) => `<tr data-testid="night-category" data-category="${esc(c.category)}"><td>${esc(c.category)}</td><td>${c.tasks}</td><td>${f4(c.before)}</td><td>${f4(c.after)}</td><td>${signed(c.change)}</td></tr>`)
    .join('');
  return `<div data-testid="night">${head}
<p>Tonight (${esc(n.date)}) against the previous night of this target, <span data-testid="night-previous">${esc(n.compared_with)}</span>, on the ${n.tasks_compared} task(s) judged on both nights.</p>
<table class="matrix" data-testid="night-matrix">
<tr><th></th><th>tonight passes</th><th>tonight fails</th></tr>
<tr><th>previous night passed</th>${cell('both-pass', n.both_pass, 'both pass')}${cell('regressed', n.regressed, 'regressed', n.regressed ? 'bad' : '')}</tr>
<tr><th>previous night failed</th>${cell('fixed', n.fixed, 'fixed', n.fixed ? 'good' : '')}${cell('both-fail', n.both_fail, 'both fail')}</tr>
</table>
<p><span data-testid="night-tasks" data-count="${n.tasks_compared}">${n.tasks_compared} tasks compared</span>. ${esc(n.method)}: <span data-testid="night-p">p = ${pValue(n.p_value)}</span>; pass rate change ${signed(n.pass_rate_change)}.
Fixed${list(n.fixes)}; regressed${list(n.regressions)}.${n.critical_failures.length ? ` Critical tasks newly failing${list(n.critical_failures)}.` : ''}</p>
${n.noisy_test ? `<p data-testid="night-noisy" data-decision="${esc(n.noisy_test.decision)}" data-attempts="${n.noisy_test.attempts}">On this noisy engine the alert is decided by the ${esc(n.noisy_test.test)} — ${esc(n.noisy_test.summary)}.</p>\n` : ''}<p data-testid="night-cause">What changed since: ${esc(n.cause)}.</p>
<table data-testid="night-categories"><tr><th>category</th><th>tasks</th><th>previous night</th><th>tonight</th><th>change</th></tr>${cats}</table></div>`;
}

/** Train and held out side by side, each variant's rate with its counts and interval. */
export function splitTable(m: ReportModel): string {
  const s = m.system;
  if (!s.per_split.length) return '';
  const two = s.primary && s.reference;
  const head = `<tr><th>split</th><th>${esc(s.primary?.role ?? '')}</th>${two ? `<th>${esc(s.reference!.role)}</th><th>delta</th>` : ''}</tr>`;
  const rows = s.per_split
    .map((c) => `<tr data-testid="split-row" data-split="${esc(c.split)}" data-rate="${f4(c.primary?.pass_rate)}"><td>${esc(c.split)}</td><td>${rateText(c.primary)}</td>${two ? `<td>${rateText(c.reference)}</td><td>${signed(c.delta)}</td>` : ''}</tr>`)
    .join('');
  return `<h3>Per split (train and held out)</h3><table data-testid="split-table">${head}${rows}</table>`;
}

/** Each model-graded judge the evaluation ran: calibrated or not, the corrected pass rate beside the raw one. */
export function modelGradedTable(m: ReportModel): string {
  const g = m.judges.model_graded;
  if (!g.length) return '';
  const rows = g
    .map((x) => `<tr data-testid="model-graded" data-judge="${esc(x.judge)}" data-calibrated="${x.calibrated}" data-mock="${x.engine_mock === true}"><td>${esc(x.judge)}</td><td>${x.tasks}</td><td>${esc(calibratedText(x))}</td><td>${rawText(x)}</td><td data-testid="corrected">${f4(x.corrected_pass_rate)}</td></tr>`)
    .join('');
  return `<p>Model-graded judges; pass rate over the tasks each judge alone decides, raw and corrected for the judge's errors (Rogan–Gladen).</p>
<table data-testid="model-graded-table"><tr><th>judge</th><th>tasks</th><th>calibrated</th><th>raw pass rate</th><th>corrected pass rate</th></tr>${rows}</table>`;
}

/** Rows are the human label, columns the judge's; each cell named by its role under the positive class. */
export function confusionMatrix(c: CalibrationView, i: number): string {
  const failPos = c.positive !== 'PASS';
  const cell = (human: 'FAIL' | 'PASS', judge: 'FAIL' | 'PASS') => {
    const agree = human === judge;
    const positiveHuman = (human === 'FAIL') === failPos;
    const name = agree ? (positiveHuman ? 'tp' : 'tn') : positiveHuman ? 'fn' : 'fp';
    return `<td data-testid="cm-${name}" data-count="${c[name]}" class="${agree ? 'good' : 'bad'}"><b>${c[name]}</b> <small>${name.toUpperCase()}</small></td>`;
  };
  return `<figure class="cm" data-testid="confusion-matrix" data-judge="${esc(c.judge)}" data-index="${i}">
<figcaption>${esc(c.judge)}${c.in_suite ? '' : ' <small>(not used by this suite)</small>'} — positive class <b>${esc(c.positive)}</b>, answer key ${c.answer_key_items}</figcaption>${c.engine_mock ? `\n<p class="note" data-testid="mock-calibration">${esc(MOCK_CALIBRATION)}</p>` : ''}
<table class="matrix"><tr><th></th><th>judge FAIL</th><th>judge PASS</th></tr>
<tr><th>human FAIL</th>${cell('FAIL', 'FAIL')}${cell('FAIL', 'PASS')}</tr>
<tr><th>human PASS</th>${cell('PASS', 'FAIL')}${cell('PASS', 'PASS')}</tr></table>
<p>TPR ${f4(c.tpr)} · TNR ${f4(c.tnr)} · accuracy ${f4(c.accuracy)} · precision ${f4(c.precision)}<br>bias: ${esc(biasText(c))}${c.small_sample ? ' — small sample: read the counts' : ''}</p>
</figure>`;
}

export function diffBlock(diff: string): string {
  const lines = diff.replace(/\n$/, '').split('\n');
  const cls = (l: string) => (l.startsWith('+++') || l.startsWith('---') ? 'meta' : l.startsWith('@@') ? 'hunk' : l.startsWith('+') ? 'add' : l.startsWith('-') ? 'del' : 'ctx');
  return `<pre class="diff" data-testid="diff">${lines.map((l) => `<span class="${cls(l)}">${esc(l) || ' '}</span>`).join('')}</pre>`;
}

const badge = (s: string | undefined) => (s ? `<span class="st ${esc(s)}">${esc(s)}</span>` : '—');

/** One line per named expectation (verdict, expectation, evidence); else the combined reason. */
function reasonCell(o: TaskRow['primary']): string {
  if (!o?.expectations?.length) return esc(o?.reason ?? '');
  return `<ul class="expectations">${o.expectations.map((e) => `<li data-testid="expectation" data-passed="${e.passed}"><b class="${e.passed ? 'good' : 'bad'}">${e.passed ? 'pass' : 'FAIL'}</b> ${esc(e.expectation)}${e.evidence ? ` — <small>${esc(e.evidence)}</small>` : ''}</li>`).join('')}</ul>`;
}

export function taskTable(m: ReportModel): string {
  const p = m.system.primary;
  const r = m.system.reference;
  if (!m.tasks.length) return '<p>No task results.</p>';
  const counts = { pass: 0, fail: 0, error: 0 };
  const rows = m.tasks.map((t) => {
    const o = t.primary ?? t.reference;
    const status = o?.status ?? 'none';
    if (o) counts[o.status]++;
    const prompt = t.prompt ? `<details><summary>prompt</summary><pre>${esc(t.prompt)}</pre></details>` : '';
    const ms = o?.duration_ms;
    return `<tr data-testid="task-row" data-task="${esc(t.task_id)}" data-status="${status}">
<td><code>${esc(t.task_id)}</code>${t.negative ? ' <small>(negative control)</small>' : ''}${prompt}</td><td>${esc(t.category)}</td><td>${esc(t.split ?? '—')}</td>
<td data-testid="task-status">${badge(t.primary?.status)}</td><td class="reason">${reasonCell(t.primary)}</td>${r ? `<td>${badge(t.reference?.status)}</td><td>${esc(t.change ?? '—')}</td>` : ''}<td>${ms == null ? '—' : `${ms} ms`}</td></tr>`;
  });
  const button = (f: string, label: string) => `<button type="button" data-filter="${f}" data-testid="filter-${f}" aria-pressed="${f === 'all'}">${label}</button>`;
  return `<div class="filters" role="group" aria-label="filter tasks by status">${button('all', `all (${m.tasks.length})`)}${button('pass', `pass (${counts.pass})`)}${button('fail', `fail (${counts.fail})`)}${button('error', `error (${counts.error})`)}</div>
<table data-testid="task-table" class="tasks"><thead><tr><th>task</th><th>category</th><th>split</th><th>${esc(p?.role ?? 'status')}</th><th>reason</th>${r ? '<th>baseline</th><th>change</th>' : ''}<th>time</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody></table>`;
}

/** The only script in the page (allowed by its hash in the CSP): show the rows of one status. */
export const FILTER_SCRIPT = `(function () {
  var buttons = document.querySelectorAll('[data-filter]');
  buttons.forEach(function (b) {
    b.addEventListener('click', function () {
      var f = b.getAttribute('data-filter');
      document.querySelectorAll('[data-testid="task-row"]').forEach(function (row) {
        row.hidden = f !== 'all' && row.getAttribute('data-status') !== f;
      });
      buttons.forEach(function (x) { x.setAttribute('aria-pressed', String(x === b)); });
    });
  });
})();`;

export const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#111827;max-width:1100px;margin:24px auto;padding:0 16px}
h1{font-size:22px}h2{font-size:18px;margin-top:28px;border-bottom:1px solid #e5e7eb;padding-bottom:4px}
table{border-collapse:collapse;margin:8px 0}td,th{border:1px solid #e5e7eb;padding:4px 8px;text-align:left;vertical-align:top}
.matrix td{text-align:center;min-width:90px}.good{background:#ecfdf5}.bad{background:#fef2f2}
.note{background:#fffbeb;border-left:4px solid #f59e0b;padding:6px 10px;margin:6px 0}
pre.diff{background:#f9fafb;border:1px solid #e5e7eb;padding:8px;overflow:auto;font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere}
ul.expectations{margin:0;padding-left:16px}
.diff .add{background:#dcfce7;color:#166534;display:block}.diff .del{background:#fee2e2;color:#991b1b;display:block}
.diff .hunk{color:#6d28d9;display:block}.diff .meta{color:#6b7280;display:block}.diff .ctx{display:block}
.st{border-radius:4px;padding:1px 6px;font-size:12px}.st.pass{background:#dcfce7}.st.fail{background:#fee2e2}.st.error{background:#fef3c7}
.filters button{margin-right:6px;padding:3px 10px;border:1px solid #d1d5db;background:#fff;border-radius:4px;cursor:pointer}
.filters button[aria-pressed="true"]{background:#1f2937;color:#fff}
td.reason{max-width:420px;word-break:break-word}details pre{white-space:pre-wrap;max-width:420px}
figure.cm{display:inline-block;margin:8px 24px 8px 0;vertical-align:top}
svg{max-width:100%;height:auto;display:block}`;

/**
 * A whole offline page: nothing may load from anywhere (the CSP), and the one script a page has, if
 * any, runs because its hash is listed, not because scripts are allowed.
 */
export function htmlDocument(title: string, body: string, script?: string): string {
  const scriptSrc = script === undefined ? '' : ` script-src 'sha256-${createHash('sha256').update(script).digest('base64')}';`;
  const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:;${scriptSrc} base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
${body}${script === undefined ? '' : `\n<script>${script}</script>`}
</body>
</html>
`;
}
