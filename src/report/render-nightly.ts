// The night over all its targets, as markdown or one offline HTML page: alerts first (what someone opening
// the CI artifact must see), then one section per target with its pass rate, its trend over nights and its
// comparison with the previous night. The full per-run report stays one `whet report RUN` away.
import { ciText, f4, mdText } from './format.js';
import { esc, trendChart } from './html-charts.js';
import { htmlDocument, nightTable } from './html-parts.js';
import type { ReportModel } from './model-schema.js';
import type { NightlyReport } from './nightly-report.js';
import { nightMd, trend } from './render-md.js';

// No script at all on this page, so the policy allows none.

function rateLine(m: ReportModel): string {
  const s = m.system.primary?.summary;
  if (!s) return 'nothing was measured';
  return `pass rate ${f4(s.pass_rate)} (${s.passed}/${s.judged} judged), 95% CI ${ciText(s)}, errors ${s.errors}`;
}

function alerts(r: NightlyReport): string[] {
  return r.targets.flatMap((t) => (t.report?.nightly?.alert ? [`${t.label}: ${t.report.nightly.reasons.join('; ')}`] : []));
}

export function renderNightlyMarkdown(r: NightlyReport): string {
  const out = [`# whetstone nightly report — ${r.date}`, '', `${r.targets.length} target(s) from \`nightly/${r.file}\`.`, ''];
  const a = alerts(r);
  if (a.length) out.push('## ⚠ Drift alert', '', ...a.map((x) => `- ${mdText(x)}`), '');
  else out.push('No drift alert.', '');
  for (const t of r.targets) {
    out.push(`## ${mdText(t.label)}`, '');
    if (!t.report) {
      out.push(`${mdText(t.problem ?? 'no report')}.`, '');
      continue;
    }
    out.push(`Run \`${t.run_id}\`: ${rateLine(t.report)}.`, '');
    // The trend is a ## section of a run's report; here it sits under this target's ## heading.
    const sub = [...nightMd(t.report), ...trend(t.report)].map((l) => (l.startsWith('## ') ? `#${l}` : l));
    out.push(...sub);
  }
  return `${out.join('\n').trimEnd()}\n`;
}

function targetSection(t: NightlyReport['targets'][number], i: number): string {
  const head = `<h2>${esc(t.label)}</h2>`;
  if (!t.report) return `<section data-testid="night-target" data-index="${i}" data-run="${esc(t.run_id)}">${head}<p>${esc(t.problem ?? 'no report')}.</p></section>`;
  const m = t.report;
  const night = m.nightly ? nightTable(m.nightly) : '<p>This run is not in the night’s drift records.</p>';
  return `<section data-testid="night-target" data-index="${i}" data-run="${esc(t.run_id)}" data-alert="${m.nightly?.alert ?? false}">
${head}<p>Run <code>${esc(t.run_id)}</code>: ${esc(rateLine(m))}.</p>
<h3>Pass rate over nights</h3>${trendChart(m.trend)}
<h3>Tonight vs the previous night (same tasks)</h3>${night}
</section>`;
}

export function renderNightlyHtml(r: NightlyReport): string {
  const a = alerts(r);
  return htmlDocument(
    `whetstone nightly report — ${r.date}`,
    `<header data-testid="header"><h1>whetstone nightly report — ${esc(r.date)}</h1>
<p>${r.targets.length} target(s) from <code>${esc(`nightly/${r.file}`)}</code>.</p>
${a.length ? `<div class="note" data-testid="night-alerts"><b>Drift alert</b><ul>${a.map((x) => `<li>${esc(x)}</li>`).join('')}</ul></div>` : '<p data-testid="night-alerts-none">No drift alert.</p>'}</header>
${r.targets.map(targetSection).join('\n')}`,
  );
}
