// A single-file HTML report that works offline: inline CSS, inline SVG charts, one small inline script for
// the task filter, and a Content-Security-Policy that allows that script by its hash and nothing else —
// no network fetch of any kind, and a `<script>` smuggled into a task's reason could not run even if
// escaping ever failed. Judge metrics and system metrics are separate sections; the page ends with the evidence.
import { evidenceItems } from './evidence.js';
import { ciText, f4, rateText, runLevelText, signed, spentText } from './format.js';
import { categoryChart, esc, trendChart } from './html-charts.js';
import { confusionMatrix, diffBlock, FILTER_SCRIPT, htmlDocument, modelGradedTable, pairedTable, splitTable, taskTable } from './html-parts.js';
import type { ReportModel, Variant } from './model-schema.js';
import { htmlTrigger } from './render-trigger.js';


const section = (id: string, title: string, body: string) => `<section data-testid="${id}">\n<h2>${esc(title)}</h2>\n${body}\n</section>`;
const list = (items: string[]) => `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`;

function variantRow(v: Variant): string {
  const s = v.summary;
  return `<tr data-testid="variant-row" data-role="${v.role}" data-rate="${f4(s.pass_rate)}"><td>${esc(v.label)}${v.cached ? ' <small>(cached)</small>' : ''}</td><td>${s.passed}</td><td>${s.failed}</td><td>${s.errors}</td><td>${f4(s.pass_rate)}</td><td>${ciText(s)}</td></tr>`;
}

function systemSection(m: ReportModel): string {
  const s = m.system;
  const vs = [s.primary, s.reference].filter((v) => v !== null);
  if (!vs.length) return section('system', 'System metrics', '<p>Nothing was measured in this run.</p>');
  const top = s.top_failure_category;
  const errors = s.errors.length ? list(s.errors.map((e) => `${e.task_id} (${e.role}): ${e.reason}`)) : '<p>None: every task was judged.</p>';
  return section(
    'system',
    'System metrics (what the skill does)',
    `<p>Pass rate over judged tasks with 95% Wilson intervals; errors are counted apart, never as failures.</p>
<table data-testid="variants"><tr><th>variant</th><th>passed</th><th>failed</th><th>errors</th><th>pass rate</th><th>95% CI</th></tr>${vs.map(variantRow).join('')}</table>
<h3>Per category</h3>${categoryChart(m)}
<table data-testid="category-table"><tr><th>category</th><th>${esc(s.primary?.role ?? '')}</th>${s.reference ? `<th>${esc(s.reference.role)}</th><th>delta</th>` : ''}</tr>${s.per_category
    .map((c) => `<tr data-category="${esc(c.category)}"><td>${esc(c.category)}</td><td>${rateText(c.primary)}</td>${s.reference ? `<td>${rateText(c.reference)}</td><td>${signed(c.delta)}</td>` : ''}</tr>`)
    .join('')}</table>
${splitTable(m)}
<h3>${!s.paired && m.nightly ? 'Paired comparison: tonight vs the previous night (same tasks)' : 'Paired comparison (same tasks)'}</h3>${pairedTable(m)}
<h3>Errors (apart from failures)</h3>${errors}
<p data-testid="top-failure">Top failure category: ${top ? `<b>${esc(top.category)}</b> — ${top.failed} of ${top.judged} judged tasks failed (${top.role})` : 'none (no task failed)'}.</p>`,
  );
}

function judgeSection(m: ReportModel): string {
  const j = m.judges;
  const source = `<p data-testid="judge-source" data-source="${j.source}">Source: ${esc(j.source_note)}.</p>`;
  const body = j.calibrated
    ? `<p>Agreement with a hand-labelled answer key; every figure is under the positive class named beside it.</p>${j.calibrations.map(confusionMatrix).join('\n')}`
    : `<p data-testid="no-calibration">No judge is calibrated: ${j.source === 'evaluation' ? 'the evaluation used no calibrated judge' : 'there is no calibration record in this state directory'}, so the judges' agreement with people is unmeasured.</p>`;
  return section('judges', 'Judge metrics (agreement with people)', `${source}${modelGradedTable(m)}${body}`);
}

function suiteSection(m: ReportModel): string {
  const s = m.suite;
  const items = [
    `${s.tasks} tasks in ${s.categories.length} categories: ${s.categories.map((c) => `${c.name} (${c.tasks})`).join(', ')}`,
    `negative controls: ${s.negative_controls}`,
    `splits: ${s.splits.train} train, ${s.splits.holdout} held out${s.splits.unassigned ? `, ${s.splits.unassigned} unassigned` : ''}`,
  ];
  if (s.grid) items.push(`grid ${s.grid.dimensions.map((d) => d.name).join(' × ')}: ${s.grid.cells_filled} of ${s.grid.cells_total} cells filled${s.grid.empty_cells.length ? `; empty: ${s.grid.empty_cells.join('; ')}` : ''}`);
  if (s.judge_types.length) items.push(`judges: ${s.judge_types.map((t) => `${t.type} (${t.tasks})`).join(', ')}`);
  if (s.problem) items.push(`note: ${s.problem}`);
  return section('suite', 'Eval set', `${s.path ? `<p><code>${esc(s.path)}</code></p>` : ''}${list(items)}`);
}

function gateSection(m: ReportModel): string {
  const g = m.gate;
  const checks = [...(g?.checks ?? []), ...(m.verdict?.checks ?? [])];
  const t = m.thresholds;
  const thresholds = `<p>${t.registered ? `Set before results (registered in run.json with sha256 <code>${esc(t.sha256 ?? 'none')}</code>).` : esc(`Source: ${t.source}.`)}</p>
<table data-testid="thresholds"><tr><th>threshold</th><th>value</th></tr>${Object.entries(t.values)
    .map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(JSON.stringify(v))}</td></tr>`)
    .join('')}</table>`;
  const head = g ? `<p>Iteration ${g.iteration}: decision <b>${esc(g.decision)}</b>${g.candidate_id ? ` for <code>${esc(g.candidate_id)}</code>` : ''} — ${esc(g.reason)}</p>` : '';
  const runLevel = g?.run_level ? `<p data-testid="run-level">${esc(runLevelText(g.run_level))}</p>` : '';
  const r = g?.sequential;
  const rounds = r ? `<p data-testid="gate-rounds">Rounds: ${r.rounds}, ${r.attempts} of at most ${r.max_attempts} attempts per held-out task per variant; ${r.calls} calls in the later rounds, ${r.calls_saved} saved against running every attempt${r.power !== null ? `; power ${r.power.toFixed(2)} for a +${r.min_effect} gain` : ''}.</p>` : '';
  const p = m.plan;
  const planP = p && !p.deterministic && p.power !== null ? `<p data-testid="plan">Plan: ${p.held_out} held-out task(s), power ${p.power.toFixed(2)} for +${p.min_effect} at significance ${p.significance} within ${p.max_attempts} attempts per task${p.can_find ? '' : esc(` — this suite cannot reliably find it (80% power needs ${[p.attempts_for_80 !== null ? `evaluate.max_attempts ${p.attempts_for_80}` : null, p.tasks_for_80 !== null ? `${p.tasks_for_80} held-out tasks` : null].filter(Boolean).join(' or ') || 'more attempts or tasks'})`)}.</p>` : '';
  const rows = checks.map((c) => `<tr data-testid="gate-check" data-passed="${c.passed}"><td>${esc(c.id)}</td><td class="${c.passed ? 'good' : 'bad'}">${c.passed ? 'passed' : 'failed'}</td><td>${esc(c.detail)}</td></tr>`).join('');
  return section('gates', 'Thresholds and gates', `${thresholds}${planP}${head}${runLevel}${rounds}${checks.length ? `<table><tr><th>check</th><th>result</th><th>evidence</th></tr>${rows}</table>` : '<p>No gate ran in this run.</p>'}`);
}

function proposedSection(m: ReportModel): string {
  const p = m.proposed_cases;
  if (p.total === 0) return section('proposed', 'Fed back as new cases', '<p>No new case was proposed from failures.</p>');
  const items = p.by_iteration.flatMap((b) =>
    b.cases.length
      ? b.cases.map((c) => `iteration ${b.iteration}: ${c.id}${c.source_task ? ` (from ${c.source_task})` : ''}${c.description ? ` — ${c.description}` : ''}`)
      : b.count
        ? [`iteration ${b.iteration}: ${b.count} case(s) in ${b.file ?? 'proposed-cases.yaml'}`]
        : [],
  );
  return section('proposed', 'Fed back as new cases', `<p>${p.total} case(s) proposed from observed failures, for a person to review.</p>${list(items)}`);
}

/** What was decided, first: the gate's decision and the run's verdict, before any evidence for them. */
function decisionSection(m: ReportModel): string {
  const items: string[] = [];
  const g = m.gate;
  if (g) items.push(`<p data-testid="decision-gate">Gate, iteration ${g.iteration}: <b class="${g.decision === 'keep' ? 'good' : 'bad'}">${esc(g.decision.toUpperCase())}</b>${g.candidate_id ? ` <code>${esc(g.candidate_id)}</code>` : ''} — ${esc(g.reason)}</p>`);
  if (m.verdict) items.push(`<p data-testid="decision-verdict">Verdict: <b class="${m.verdict.verdict === 'pass' ? 'good' : 'bad'}">${esc(m.verdict.verdict)}</b> — ${esc(m.verdict.reason)}</p>`);
  if (!items.length) items.push('<p>No decision yet in this run.</p>');
  return section('decision', 'Decision', items.join('\n'));
}

export function renderHtml(m: ReportModel): string {
  const r = m.run;
  const facts = [`mode ${r.mode}`, r.status ? `status ${r.status}` : '', r.engine ? `engine ${r.engine.type}` : '', r.iteration !== null ? `iteration ${r.iteration} of ${r.iterations.length}` : '', r.created_at ? `started ${r.created_at}` : '', r.spent ? spentText(r.spent) : ''].filter(Boolean);
  const candidate = m.candidate
    ? section('candidate', 'The candidate', `<p><code>${esc(m.candidate.id)}</code> — ${esc(m.candidate.title)} (${esc(m.candidate.category)}, risk ${esc(m.candidate.risk)}, +${m.candidate.added} −${m.candidate.removed}). ${esc(m.candidate.rationale)}</p>${diffBlock(m.candidate.diff)}`)
    : '';
  return htmlDocument(
    `whetstone report — ${r.run_id}`,
    `<header data-testid="header"><h1>whetstone report — <code>${esc(r.run_id)}</code></h1>
${r.target ? `<p>Target <code>${esc(r.target)}</code></p>` : ''}<p>${esc(facts.join(' · '))}</p>
${m.notes.map((n) => `<p class="note" data-testid="note">${esc(n)}</p>`).join('\n')}</header>
${decisionSection(m)}
${section('trend', m.trend.source === 'nightly' ? 'Pass rate over nights' : m.trend.source === 'iterations' ? 'Baseline pass rate over iterations' : 'Pass rate', trendChart(m.trend))}
${htmlTrigger(m)}
${htmlSkillEffect(m)}
${systemSection(m)}
${section('tasks', 'Tasks', taskTable(m))}
${candidate}
${judgeSection(m)}
${suiteSection(m)}
${gateSection(m)}
${proposedSection(m)}
${section('evidence', 'Evidence', list(evidenceItems(m)))}`,
    FILTER_SCRIPT,
  );
}

/** `--without-skill`: the skill against no skill, with its interval and paired test (render-md.ts says the same). */
function htmlSkillEffect(m: ReportModel): string {
  const e = m.skill_effect;
  if (!e) return '';
  const pts = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`);
  const row = (label: string, r: typeof e.with_skill) => `<tr><td>${esc(label)}</td><td>${r.passed}</td><td>${r.failed}</td><td>${r.errors}</td><td>${f4(r.pass_rate)}</td><td>${ciText(r)}</td></tr>`;
  const p = e.paired;
  return section(
    'skill-effect',
    'With the skill against without it',
    `<table><tr><th>configuration</th><th>passed</th><th>failed</th><th>errors</th><th>pass rate</th><th>95% CI</th></tr>${row('with the skill', e.with_skill)}${row('without a skill', e.without_skill)}</table>
<p data-testid="skill-effect-line" data-effect="${e.effect ?? ''}">The skill's own effect: <b>${pts(e.effect)} points</b> (95% CI ${e.low === null || e.high === null ? '—' : `[${pts(e.low)}, ${pts(e.high)}]`}, ${e.tasks} task(s)). ${p.fixed} task(s) pass only with the skill, ${p.regressed} only without; exact McNemar p = ${p.p_value}.</p>`,
  );
}
