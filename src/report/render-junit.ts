// JUnit XML for CI tools: one <testsuite> per variant (the candidate and the baseline apart, or the skill of
// a standalone run), one <testcase> per task, a failed task as <failure>, a task the engine or judge could
// not judge as <error> (never a failure), a task this variant has no result for as <skipped/>. The layout
// meets both common schemas: the strict Apache Ant one (windyroad JUnit.xsd: properties, system-out and
// system-err on every suite, package and id, a timestamp without zone, type on failure and error, no
// attributes on <testsuites>) and Jenkins' junit-10.xsd.
// A nightly run adds its comparison with the previous night: as properties (CI dashboards list them), and
// as a suite of one test case that fails on a drift alert (an <error> when the engine failed all night),
// so the dashboard shows the alert where people look rather than only in the exit code.
import { triggerCells, triggerLine } from './model-trigger.js';
import { ciText, f4, pValue } from './format.js';
import type { Outcome, ReportModel, TaskRow, Variant } from './model-schema.js';
import { signed4 as signed } from '../core/numbers.js';

// Characters XML 1.0 cannot carry at all (even as references): C0 controls other than tab, newline and
// carriage return, lone surrogates, U+FFFE and U+FFFF. They are replaced, not dropped, so a reader sees something was there.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function xmlText(s: string): string {
  return s.replace(INVALID_XML, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Attribute values also keep their quotes, tabs and line breaks (a parser would otherwise normalise them to spaces). */
export function xmlAttr(s: string): string {
  return xmlText(s).replace(/"/g, '&quot;').replace(/'/g, '&apos;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

const seconds = (ms: number | null | undefined) => ((ms ?? 0) / 1000).toFixed(3);

/** xs:dateTime without a zone, to the second (the Ant schema's pattern). */
function timestamp(iso: string | null): string {
  const d = iso ? new Date(iso) : new Date(0);
  return (Number.isNaN(d.getTime()) ? new Date(0) : d).toISOString().slice(0, 19);
}

function testcase(t: TaskRow, o: Outcome | null, classPrefix: string): string {
  const head = `    <testcase name="${xmlAttr(t.task_id)}" classname="${xmlAttr(`${classPrefix}.${t.category}`)}" time="${seconds(o?.duration_ms)}"`;
  if (!o) return `${head}>\n      <skipped/>\n    </testcase>`;
  if (o.status === 'pass') return `${head}/>`;
  const tag = o.status === 'fail' ? 'failure' : 'error';
  const body = [o.reason, `category: ${t.category}`, t.split ? `split: ${t.split}` : '', o.score !== null ? `score: ${o.score}` : ''].filter(Boolean).join('\n');
  return `${head}>\n      <${tag} message="${xmlAttr(o.reason || o.status)}" type="whetstone.${o.status}">${xmlText(body)}</${tag}>\n    </testcase>`;
}

function properties(m: ReportModel, v: Variant): string[] {
  const props: [string, string][] = [
    ['whetstone.run_id', m.run.run_id],
    ['whetstone.mode', m.run.mode],
    ['whetstone.variant', v.label],
    ['whetstone.pass_rate', f4(v.summary.pass_rate)],
    ['whetstone.ci95', ciText(v.summary, '..')],
  ];
  if (m.run.engine) props.push(['whetstone.engine', `${m.run.engine.type}${m.run.engine.mock && m.run.engine.type !== 'mock' ? ' (mock)' : ''}`]);
  if (m.run.iteration !== null) props.push(['whetstone.iteration', String(m.run.iteration)]);
  if (m.thresholds.sha256) props.push(['whetstone.thresholds_sha256', m.thresholds.sha256]);
  if (m.gate) props.push(['whetstone.gate', m.gate.decision]);
  if (m.system.paired) props.push(['whetstone.mcnemar_p', pValue(m.system.paired.p_value)]);
  for (const sp of m.system.per_split) {
    const r = v.role === m.system.reference?.role ? sp.reference : sp.primary;
    if (r) props.push([`whetstone.split.${sp.split}.pass_rate`, `${f4(r.pass_rate)} (${r.passed}/${r.judged}) ${ciText(r, '..').replace(/^\[|\]$/g, '')}`]);
  }
  // Judge calibration belongs to the evaluation, not to one variant, but CI tools show only suite properties.
  for (const g of m.judges.model_graded) {
    const k = `whetstone.judge.${g.judge}`;
    props.push([`${k}.calibrated`, g.calibrated ? `yes${g.engine_mock ? ' (mock engine: not agreement with people)' : ''}` : 'no']);
    if (g.calibrated) props.push([`${k}.raw_pass_rate`, f4(g.observed_pass_rate)], [`${k}.corrected_pass_rate`, f4(g.corrected_pass_rate)]);
  }
  if (m.nightly) props.push(...nightProperties(m.nightly));
  // A trigger suite's four metrics once, on the first testsuite (CI tools list suite properties).
  if (v === (m.system.primary ?? m.system.reference)) props.push(...triggerProperties(m));
  // What the run spent, once, in the same count status and show give.
  const spent = m.run.spent;
  if (spent && v === (m.system.primary ?? m.system.reference)) {
    props.push(['whetstone.calls', String(spent.total_calls)]);
    if (spent.calls) props.push(['whetstone.calls.engine', String(spent.calls.engine)], ['whetstone.calls.judge', String(spent.calls.judge)], ['whetstone.calls.generator', String(spent.calls.generator)]);
  }
  return props.map(([k, val]) => `      <property name="${xmlAttr(k)}" value="${xmlAttr(val)}"/>`);
}

function triggerProperties(m: ReportModel): [string, string][] {
  return (m.trigger ?? []).flatMap((r) => {
    const k = `whetstone.trigger.${r.label.replace(/\s+/g, '_')}`;
    const c = triggerCells(r);
    return [[`${k}.trigger_rate`, `${c[0]} ${c[1]}`], [`${k}.false_trigger_rate`, `${c[2]} ${c[3]}`], [`${k}.precision`, `${c[4]} ${c[5]}`], [`${k}.recall`, `${c[6]} ${c[7]}`]] as [string, string][];
  });
}

type Night = NonNullable<ReportModel['nightly']>;

const rate = (x: number | null) => (x === null ? '—' : f4(x));

function nightProperties(n: Night): [string, string][] {
  const k = 'whetstone.nightly';
  const props: [string, string][] = [
    [`${k}.date`, n.date],
    [`${k}.compared_with`, n.compared_with ?? 'none (first night for this target)'],
    [`${k}.tasks_compared`, String(n.tasks_compared)],
    [`${k}.both_pass`, String(n.both_pass)],
    [`${k}.both_fail`, String(n.both_fail)],
    [`${k}.fixed`, String(n.fixed)],
    [`${k}.regressed`, String(n.regressed)],
    [`${k}.mcnemar_p`, n.p_value === null ? '—' : pValue(n.p_value)],
    [`${k}.pass_rate_change`, signed(n.pass_rate_change)],
    [`${k}.alert`, n.engine_failed ? 'engine failed' : n.alert ? 'drift' : 'none'],
    [`${k}.cause`, n.cause],
  ];
  if (n.critical_failures.length) props.push([`${k}.critical_failures`, n.critical_failures.join(', ')]);
  const q = n.noisy_test;
  if (q) {
    props.push([`${k}.test`, q.test], [`${k}.decision`, q.decision], [`${k}.attempts_per_task`, String(q.attempts)], [`${k}.previous_attempts_per_task`, String(q.previous_attempts)]);
    props.push([`${k}.effect`, q.effect === null ? '—' : `${signed(q.effect)} [${q.low === null ? '—' : signed(q.low)}, ${q.high === null ? '—' : signed(q.high)}]`], [`${k}.drift_p`, pValue(q.p_value)]);
  }
  for (const c of n.per_category) props.push([`${k}.category.${c.category}`, `${rate(c.before)} → ${rate(c.after)} (${signed(c.change)}) on ${c.tasks} task(s)`]);
  return props;
}

/** The night's verdict as one test case: passes without an alert, fails on drift, errors when the engine failed. */
function nightSuite(m: ReportModel, n: Night, id: number): string {
  const summary = `tonight ${n.date} vs ${n.compared_with ?? 'no earlier night'}: ${n.tasks_compared} task(s) judged both nights, fixed ${n.fixed}, regressed ${n.regressed}, exact McNemar p = ${n.p_value === null ? '—' : pValue(n.p_value)}, pass rate change ${signed(n.pass_rate_change)}; ${n.cause}`;
  const name = `drift vs ${n.compared_with ?? 'previous night'}`;
  const head = `    <testcase name="${xmlAttr(name)}" classname="whetstone.nightly" time="0.000"`;
  const why = n.reasons.join('; ') || summary;
  const tag = n.engine_failed ? 'error' : n.alert ? 'failure' : undefined;
  const testcase = tag
    ? `${head}>\n      <${tag} message="${xmlAttr(why)}" type="whetstone.${n.engine_failed ? 'engine_failed' : 'drift'}">${xmlText([summary, ...n.reasons].join('\n'))}</${tag}>\n    </testcase>`
    : `${head}/>`;
  const attrs = `name="nightly comparison" package="${xmlAttr(`whetstone.${m.run.run_id}`)}" id="${id}" timestamp="${timestamp(m.run.created_at)}" hostname="localhost" tests="1" failures="${tag === 'failure' ? 1 : 0}" errors="${tag === 'error' ? 1 : 0}" skipped="0" time="0.000"`;
  return [
    `  <testsuite ${attrs}>`,
    '    <properties>',
    ...nightProperties(n).map(([key, val]) => `      <property name="${xmlAttr(key)}" value="${xmlAttr(val)}"/>`),
    '    </properties>',
    testcase,
    `    <system-out>${xmlText(summary)}</system-out>`,
    '    <system-err/>',
    '  </testsuite>',
  ].join('\n');
}

function suite(m: ReportModel, v: Variant, pick: (t: TaskRow) => Outcome | null, id: number): string {
  const outcomes = m.tasks.map(pick);
  const count = (s: Outcome['status']) => outcomes.filter((o) => o?.status === s).length;
  const skipped = outcomes.filter((o) => o === null).length;
  const timeMs = v.wall_ms ?? outcomes.reduce((s, o) => s + (o?.duration_ms ?? 0), 0);
  const pkg = `whetstone.${m.run.run_id}`;
  const attrs = `name="${xmlAttr(v.label)}" package="${xmlAttr(pkg)}" id="${id}" timestamp="${timestamp(m.run.created_at)}" hostname="localhost" tests="${m.tasks.length}" failures="${count('fail')}" errors="${count('error')}" skipped="${skipped}" time="${seconds(timeMs)}"`;
  const triggerLines = v === (m.system.primary ?? m.system.reference) ? (m.trigger ?? []).map((r) => `\n${triggerLine(r)}`).join('') : '';
  const out0 = `${v.label}: pass rate ${f4(v.summary.pass_rate)} (${v.summary.passed}/${v.summary.judged} judged, ${v.summary.errors} errors) 95% CI ${ciText(v.summary)}`;
  const out = out0 + triggerLines;
  return [
    `  <testsuite ${attrs}>`,
    '    <properties>',
    ...properties(m, v),
    '    </properties>',
    ...m.tasks.map((t, i) => testcase(t, outcomes[i] ?? null, v.role)),
    `    <system-out>${xmlText(out)}</system-out>`,
    '    <system-err/>',
    '  </testsuite>',
  ].join('\n');
}

export function renderJunit(m: ReportModel): string {
  const suites: string[] = [];
  if (m.system.primary) suites.push(suite(m, m.system.primary, (t) => t.primary, 0));
  if (m.system.reference) suites.push(suite(m, m.system.reference, (t) => t.reference, suites.length));
  if (m.nightly) suites.push(nightSuite(m, m.nightly, suites.length));
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join('\n')}\n</testsuites>\n`;
}
