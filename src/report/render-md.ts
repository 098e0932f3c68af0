// The evidence report docs/guides/reports.md describes, in markdown: the eval set's shape, the judges' agreement with
// people, the thresholds set before results, which gates passed, the system's numbers per category, and
// what was fed back as new cases. Judge metrics and system metrics have their own sections (two dashboards),
// and the report ends with the evidence, never with a lone verdict word.
import { ciText, f4, mdCode, mdFence, mdTable, mdText, plural, pValue, rateText, runLevelText, signed, spentText } from './format.js';
import type { ReportModel } from './model-schema.js';
import { mdEvidence, mdJudges, mdSuite } from './render-md-evidence.js';
import { mdTrigger } from './render-trigger.js';
import { checkTally } from './evidence.js';

const DIFF_LINES = 80;

function header(m: ReportModel): string[] {
  const r = m.run;
  const out = [`# whetstone report — run \`${r.run_id}\``, ''];
  const facts = [
    `mode ${r.mode}`,
    r.status ? `status ${r.status}` : undefined,
    r.engine ? `engine ${r.engine.type}${r.engine.mock && r.engine.type !== 'mock' ? ' (mock)' : ''}` : undefined,
    r.iteration !== null ? `iteration ${r.iteration} of ${r.iterations.length}` : undefined,
    r.created_at ? `started ${r.created_at}` : undefined,
    r.spent ? spentText(r.spent) : undefined,
  ].filter(Boolean);
  if (r.target) out.push(`Target: \`${r.target}\``, '');
  out.push(facts.join(' · '), '');
  return out;
}

/**
 * What was decided, first (the HTML report's Decision section, render-html.ts): the gate's decision and
 * the run's verdict before any evidence for them, within the report's first 15 lines (issue 41). The
 * notes follow: they say which iteration this is and what the engine was.
 */
function decision(m: ReportModel): string[] {
  const out = ['## Decision', ''];
  const g = m.gate;
  if (g) out.push(`Gate, iteration ${g.iteration}: **${g.decision.toUpperCase()}**${g.candidate_id ? ` \`${g.candidate_id}\`` : ''} — ${mdText(g.reason)}`, '');
  if (m.verdict) out.push(`Verdict: **${m.verdict.verdict}** — ${mdText(m.verdict.reason)}`, '');
  if (!g && !m.verdict) out.push('No decision yet in this run.', '');
  for (const n of m.notes) out.push(`> ${mdText(n)}`, '');
  return out;
}

function thresholds(m: ReportModel): string[] {
  const t = m.thresholds;
  const out = [t.registered ? '## Thresholds (set before results)' : '## Thresholds', ''];
  out.push(t.registered ? `Registered in run.json when the run started, before any result existed; hash \`${t.sha256 ?? 'none'}\`.` : `Source: ${t.source}.`, '');
  const entries = Object.entries(t.values);
  if (entries.length) out.push(mdTable(['threshold', 'value'], entries.map(([k, v]) => [mdText(k), mdCode(JSON.stringify(v))])), '');
  else out.push('No thresholds recorded for this run.', '');
  return out;
}

/** What the suite could find on its engine, before the decisions it made (issue 27 §4). */
function planSection(m: ReportModel): string[] {
  const p = m.plan;
  if (!p) return [];
  const out = ['## Plan', ''];
  if (p.deterministic) out.push(`The engine answers the same way every time: one attempt per task decides, on ${p.held_out} held-out task(s).`, '');
  else if (p.power !== null) {
    out.push(
      `On ${p.held_out} held-out task(s), at significance ${p.significance} and at most ${p.max_attempts} attempts per task, the sequential test had power ${p.power.toFixed(2)} to find a +${p.min_effect} gain (expected ${p.expected_attempts_none?.toFixed(1)} attempts per task with no effect, ${p.expected_attempts_min_effect?.toFixed(1)} at +${p.min_effect}).` +
        (p.can_find ? '' : ` This suite cannot reliably find +${p.min_effect}: 80% power needs ${[p.attempts_for_80 !== null ? `evaluate.max_attempts ${p.attempts_for_80}` : null, p.tasks_for_80 !== null ? `${p.tasks_for_80} held-out tasks` : null].filter(Boolean).join(' or ') || 'more attempts or tasks'} (whet plan).`),
      '',
    );
  }
  return out;
}

function gates(m: ReportModel): string[] {
  const out = ['## Gates', ''];
  const g = m.gate;
  // One count of checks, the evidence list's (the gate's and the evaluation stage's together).
  const tally = checkTally(m);
  if (g) {
    out.push(`Iteration ${g.iteration}: decision **${g.decision}**${g.candidate_id ? ` for \`${g.candidate_id}\`` : ''} — ${mdText(g.reason)}. ${tally.passed} of ${tally.total} checks passed.`, '');
    if (g.checks.length) out.push(mdTable(['check', 'result', 'evidence'], g.checks.map((c) => [c.id, c.passed ? 'passed' : '**failed**', mdText(c.detail)])), '');
    if (g.run_level) out.push(mdText(runLevelText(g.run_level)), '');
    const r = g.sequential;
    if (g.holdout && r) out.push(`Held-out: ${g.holdout.tasks} tasks, share of passed attempts ${f4(g.holdout.candidate_pass_rate)} vs baseline ${f4(g.holdout.baseline_pass_rate)}, effect ${signed(g.holdout.delta)}${r.low !== null && r.high !== null ? ` (95% CI ${signed(r.low)} to ${signed(r.high)})` : ''}, sequential test stage-wise p = ${pValue(g.holdout.p_value)}.`, '');
    else if (g.holdout) out.push(`Held-out: ${g.holdout.tasks} tasks, candidate ${f4(g.holdout.candidate_pass_rate)} vs baseline ${f4(g.holdout.baseline_pass_rate)} (${signed(g.holdout.delta)}), one-sided exact sign test p = ${pValue(g.holdout.p_value)}.`, '');
    if (r) out.push(`Rounds: ${r.rounds}, ${r.attempts} of at most ${r.max_attempts} attempts per held-out task per variant; ${r.calls} calls in the later rounds, ${r.calls_saved} saved against running every attempt${r.power !== null ? `; power ${r.power.toFixed(2)} for a +${r.min_effect} gain` : ''}. ${mdText(r.words)}.`, '');
  }
  if (m.verdict && m.verdict.checks.length) {
    out.push(`Evaluation stage: verdict ${m.verdict.verdict} — ${mdText(m.verdict.reason)}.`, '');
    out.push(mdTable(['check', 'result', 'evidence'], m.verdict.checks.map((c) => [c.id, c.passed ? 'passed' : '**failed**', mdText(c.detail)])), '');
  }
  if (!g && !m.verdict?.checks.length) out.push('No gate ran in this run.', '');
  return out;
}

function system(m: ReportModel): string[] {
  const s = m.system;
  const out = ['## System metrics (what the skill does)', ''];
  const variants = [s.primary, s.reference].filter((v) => v !== null);
  if (!variants.length) return [...out, 'Nothing was measured in this run.', ''];
  out.push('Pass rate over judged tasks, with counts and 95% Wilson intervals; errors are counted apart, never as failures.', '');
  out.push(
    mdTable(
      ['variant', 'passed', 'failed', 'errors', 'pass rate', '95% CI'],
      variants.map((v) => [`${mdText(v.label)}${v.cached ? ' (cached)' : ''}`, String(v.summary.passed), String(v.summary.failed), String(v.summary.errors), f4(v.summary.pass_rate), ciText(v.summary)]),
    ),
    '',
  );
  const two = s.primary && s.reference;
  out.push('### Per category', '');
  const head = two ? ['category', s.primary!.role, s.reference!.role, 'delta'] : ['category', s.primary?.role ?? 'variant'];
  out.push(mdTable(head, s.per_category.map((c) => (two ? [c.category, rateText(c.primary), rateText(c.reference), signed(c.delta)] : [c.category, rateText(c.primary)]))), '');
  if (s.per_split.length) {
    out.push('### Per split (train and held out)', '');
    out.push('The generator sees train failures only; the gate decides on the held-out split.', '');
    const splitHead = two ? ['split', s.primary!.role, s.reference!.role, 'delta'] : ['split', s.primary?.role ?? 'variant'];
    out.push(mdTable(splitHead, s.per_split.map((c) => (two ? [c.split, rateText(c.primary), rateText(c.reference), signed(c.delta)] : [c.split, rateText(c.primary)]))), '');
  }
  if (s.paired) {
    const p = s.paired;
    out.push('### Paired comparison (same tasks)', '');
    out.push(`${p.tasks_compared} tasks compared (${p.excluded_errors} excluded for errors): both pass ${p.both_pass}, both fail ${p.both_fail}, fixed ${p.fixed}${p.fixes.length ? ` (${p.fixes.map((x) => `\`${x}\``).join(', ')})` : ''}, regressed ${p.regressed}${p.regressions.length ? ` (${p.regressions.map((x) => `\`${x}\``).join(', ')})` : ''}; ${mdText(p.method)} p = ${pValue(p.p_value)}.`, '');
  }
  out.push(...nightMd(m));
  out.push('### Errors (apart from failures)', '');
  out.push(s.errors.length ? s.errors.map((e) => `- \`${e.task_id}\` (${e.role}): ${mdText(e.reason)}`).join('\n') : 'None: every task was judged.', '');
  const failing = m.tasks.filter((t) => t.primary?.status === 'fail');
  out.push(`### Failures (${s.primary?.label ?? 'primary'})`, '');
  out.push(failing.length ? failing.map((t) => `- \`${t.task_id}\` [${t.category}${t.split ? `, ${t.split}` : ''}]: ${expectationsMd(t.primary!)}`).join('\n') : 'None.', '');
  const top = s.top_failure_category;
  out.push(top ? `Top failure category: **${top.category}** — ${top.failed} of ${top.judged} judged tasks failed (${top.role}).` : 'Top failure category: none (no task failed).', '');
  return out;
}

/** skill-creator evals: each expectation on its own line with its verdict and evidence; else the reason. */
function expectationsMd(o: NonNullable<ReportModel['tasks'][number]['primary']>): string {
  const es = o.expectations ?? [];
  if (!es.length) return mdText(o.reason);
  const failed = es.filter((e) => !e.passed).length;
  return [`${failed} of ${es.length} expectation(s) failed`, ...es.map((e) => `  - ${e.passed ? 'passed' : '**failed**'}: ${mdText(e.expectation)}${e.evidence ? ` — ${mdText(e.evidence)}` : ''}`)].join('\n');
}

/** A nightly run's comparison with the previous night of its target (the drift record of its night). */
export function nightMd(m: ReportModel): string[] {
  const n = m.nightly;
  if (!n) return [];
  const out = ['### Paired comparison: tonight vs the previous night', ''];
  out.push(n.alert ? `**Drift alert** on ${n.date}: ${mdText(n.reasons.join('; '))}.` : `No drift alert on ${n.date}.`, '');
  if (!n.compared_with) return [...out, `${mdText(n.cause)}.`, ''];
  const ids = (xs: string[]) => (xs.length ? ` (${xs.map((x) => mdCode(x)).join(', ')})` : '');
  out.push(
    `Compared with ${mdText(n.compared_with)} on ${n.tasks_compared} task(s) judged both nights: both pass ${n.both_pass}, both fail ${n.both_fail}, fixed ${n.fixed}${ids(n.fixes)}, regressed ${n.regressed}${ids(n.regressions)}; ${n.method} p = ${pValue(n.p_value)}; pass rate change ${signed(n.pass_rate_change)}.`,
    '',
  );
  if (n.noisy_test) out.push(`On this noisy engine the alert is decided by the ${mdText(n.noisy_test.test)} — ${mdText(n.noisy_test.summary)}.`, '');
  if (n.critical_failures.length) out.push(`Critical task(s) newly failing: ${n.critical_failures.map((x) => mdCode(x)).join(', ')}.`, '');
  out.push(`What changed since: ${mdText(n.cause)}.`, '');
  if (n.per_category.length) out.push(mdTable(['category', 'tasks', 'previous night', 'tonight', 'change'], n.per_category.map((c) => [mdText(c.category), String(c.tasks), f4(c.before), f4(c.after), signed(c.change)])), '');
  return out;
}

function candidate(m: ReportModel): string[] {
  const c = m.candidate;
  if (!c) return [];
  const lines = c.diff.split('\n');
  const shown = lines.length > DIFF_LINES ? `${lines.slice(0, DIFF_LINES).join('\n')}\n… ${lines.length - DIFF_LINES} more line(s): whet diff ${m.run.run_id} ${c.id}` : c.diff;
  return ['## The candidate', '', `\`${c.id}\` — ${mdText(c.title)} (${c.category}, risk ${c.risk}, +${c.added} −${c.removed} lines). ${mdText(c.rationale)}`, '', mdFence(shown, 'diff'), ''];
}

function loop(m: ReportModel): string[] {
  if (m.loop.length === 0) return [];
  return [
    '## Iterations',
    '',
    mdTable(
      ['iteration', 'baseline', 'candidate', 'candidate rate', 'gate', 'stop'],
      m.loop.map((r) => [String(r.iteration), rateText(r.baseline), r.candidate_id ? `\`${r.candidate_id}\`` : '—', rateText(r.candidate), r.decision ?? '—', r.stop ? mdText(r.stop) : '—']),
    ),
    '',
  ];
}

export function trend(m: ReportModel): string[] {
  if (m.trend.source !== 'nightly') return [];
  return ['## Nightly trend', '', mdTable(['night', 'pass rate', '95% CI', 'drift'], m.trend.points.map((p) => [p.label, `${f4(p.pass_rate)} (${p.passed}/${p.judged})`, ciText(p), p.alert ? `**alert**: ${mdText(p.note ?? '')}` : '—'])), ''];
}

function proposed(m: ReportModel): string[] {
  const p = m.proposed_cases;
  const out = ['## Fed back as new cases', ''];
  if (p.total === 0) return [...out, 'No new case was proposed from failures.', ''];
  out.push(`${plural(p.total, 'case')} proposed from observed failures, for a person to review (never added to the suite, nor to the held-out set, automatically):`, '');
  for (const b of p.by_iteration) {
    out.push(`- iteration ${b.iteration}: ${b.count} in \`${b.file ?? 'proposed-cases.yaml'}\``);
    for (const c of b.cases) out.push(`  - \`${c.id}\`${c.source_task ? ` from failed \`${c.source_task}\`` : ''}${c.category ? ` [${c.category}]` : ''}${c.description ? `: ${mdText(c.description)}` : ''}`);
  }
  return [...out, ''];
}

/** `--without-skill`: the skill's own effect, tested like any paired comparison. */
function skillEffect(m: ReportModel): string[] {
  const e = m.skill_effect;
  if (!e) return [];
  const pts = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}`);
  const p = e.paired;
  return [
    '## With the skill against without it',
    '',
    'The same suite, engine and judges with no skill at all (skill-creator\'s `without_skill`), compared task by task.',
    '',
    mdTable(
      ['configuration', 'passed', 'failed', 'errors', 'pass rate', '95% CI'],
      [
        ['with the skill', String(e.with_skill.passed), String(e.with_skill.failed), String(e.with_skill.errors), f4(e.with_skill.pass_rate), ciText(e.with_skill)],
        ['without a skill', String(e.without_skill.passed), String(e.without_skill.failed), String(e.without_skill.errors), f4(e.without_skill.pass_rate), ciText(e.without_skill)],
      ],
    ),
    '',
    `**The skill's own effect: ${pts(e.effect)} points** (95% CI ${e.low === null || e.high === null ? '— (fewer than 2 tasks judged both ways)' : `[${pts(e.low)}, ${pts(e.high)}]`}, ${e.tasks} task(s); ${mdText(e.method)}).`,
    '',
    `Paired on ${p.tasks_compared} task(s): ${p.fixed} pass only with the skill, ${p.regressed} only without, both pass ${p.both_pass}, both fail ${p.both_fail}; exact McNemar p = ${p.p_value}${p.excluded_errors ? ` (${p.excluded_errors} with errors left out)` : ''}.`,
    '',
  ];
}

export function renderMarkdown(m: ReportModel): string {
  return [...header(m), ...decision(m), ...mdSuite(m), ...mdJudges(m), ...thresholds(m), ...planSection(m), ...gates(m), ...mdTrigger(m), ...system(m), ...skillEffect(m), ...candidate(m), ...loop(m), ...trend(m), ...proposed(m), ...mdEvidence(m)].join('\n');
}
