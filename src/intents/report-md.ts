// The dated record (report-YYYY-MM-DD.md). docs/guides/reports.md: a report ends with evidence, not a verdict word —
// the set's shape, the thresholds set in advance, every rate with its counts, which gates passed, and
// every failing case with what was expected, what happened, which metric it hit, and a line for the
// person who decides whether the description or the case changes.
import { describeDecision } from './decision.js';
import { gateMark, METRIC_NAME, METRIC_ROWS, overallGate, thresholdText } from './metric-rows.js';
import type { EngineRun, IntentsResult } from './result.js';
import type { CaseScore } from './score-case.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');
const code = (s: string) => `\`${s.replace(/`/g, "'")}\``;

export function describeExpected(s: Pick<CaseScore, 'expected'>): string {
  const e = s.expected;
  if (e.behavior !== 'call') return e.behavior;
  const p = Object.keys(e.params).length > 0 ? ` with ${JSON.stringify(e.params)}` : '';
  return `call ${e.capability}${p}`;
}

export function describeOutcome(s: CaseScore): string {
  return s.decision ? describeDecision(s.decision) : `error (${s.error?.kind}): ${s.error?.message ?? ''}`;
}

function header(r: IntentsResult): string[] {
  const kinds = Object.entries(r.kinds).map(([k, n]) => `${k} ${n}`).join(' · ');
  const total = Object.values(r.kinds).reduce((a, b) => a + b, 0);
  const lines = [
    `# Intent eval — ${r.date}`,
    '',
    '| | |',
    '|---|---|',
    `| Cases | ${code(r.cases_file)}: ${total} cases (${r.cases_sha256.slice(0, 19)}…)${r.kind_filter.length ? `, kinds filtered to ${r.kind_filter.join(', ')}` : ''} |`,
    `| Kinds | ${cell(kinds)} |`,
    `| Catalogue | ${code(r.catalog)}: ${r.capabilities} capabilities (${r.catalog_sha256.slice(0, 19)}…) |`,
    ...r.runs.map((run, i) => `| ${i === 0 ? 'Engine' : 'Compared with'} | ${cell(run.engine.label)} (${code(run.engine.spec)}) |`),
    `| Thresholds | ${cell(r.thresholds.source)}, set before the run |`,
  ];
  if (r.runs.some((run) => run.engine.spec === 'floor')) {
    lines.push('', '> The floor engine is a rule-based planner, not a model: its numbers are the floor, and prove the harness is self-consistent.');
  }
  return lines;
}

function metricsTable(r: IntentsResult): string[] {
  const names = r.runs.map((run) => cell(run.engine.spec));
  const head = `| Metric | Definition | ${names.map((n) => `${n} | gate`).join(' | ')} | Threshold |`;
  const sep = `|---|---|${names.map(() => '---:|:---:').join('|')}|---|`;
  const rows = METRIC_ROWS.map((row) => {
    const g0 = overallGate(r.runs[0]!.gates, row);
    const vals = r.runs.map((run) => `${row.show(run.metrics.overall)} | ${gateMark(overallGate(run.gates, row))}`).join(' | ');
    return `| ${row.name} | ${cell(row.definition)} | ${vals} | ${thresholdText(g0)} |`;
  });
  const kindGates = r.runs[0]!.gates.filter((g) => g.name.startsWith('selection['));
  for (const g of kindGates) {
    const vals = r.runs.map((run) => {
      const mine = run.gates.find((x) => x.name === g.name);
      return `${mine?.value ?? '—'} | ${gateMark(mine)}`;
    });
    rows.push(`| ${g.label.replace(/\s[≥≤].*$/, '')} | same, on these cases only | ${vals.join(' | ')} | ${thresholdText(g)} |`);
  }
  const errorsGate = (run: EngineRun) => run.gates.find((g) => g.name === 'errors');
  const errors = r.runs.map((run) => `${run.metrics.overall.errors} of ${run.metrics.overall.cases} | ${gateMark(errorsGate(run))}`).join(' | ');
  rows.push(`| engine errors | cases whose engine failed (in no denominator) | ${errors} | ${thresholdText(errorsGate(r.runs[0]!))} |`);
  return ['## Metrics', '', head, sep, ...rows];
}

/** One table; with --compare each kind has a row per engine, next to each other. */
function byKindTable(r: IntentsResult): string[] {
  const multi = r.runs.length > 1;
  const kinds = Object.keys(r.runs[0]!.metrics.by_kind);
  const rows = kinds.flatMap((kind) =>
    r.runs.map((run) => {
      const m = run.metrics.by_kind[kind]!;
      const vals = METRIC_ROWS.map((row) => row.show(m));
      return `| ${cell(kind)} |${multi ? ` ${cell(run.engine.spec)} |` : ''} ${m.cases} | ${m.errors} | ${vals.join(' | ')} |`;
    }),
  );
  return [
    '### By kind',
    '',
    `| Kind |${multi ? ' Engine |' : ''} Cases | Errors | ${METRIC_ROWS.map((x) => x.name).join(' | ')} |`,
    `|---|${multi ? '---|' : ''}---:|---:|${METRIC_ROWS.map(() => '---:').join('|')}|`,
    ...rows,
  ];
}

function gatesSection(r: IntentsResult): string[] {
  const out = ['## Gates', ''];
  for (const run of r.runs) {
    const failed = run.gates.filter((g) => g.status === 'fail').length;
    out.push(`**${cell(run.engine.spec)}**: ${failed === 0 ? 'every gate passed' : `${failed} of ${run.gates.length} gates failed`}${run === r.runs[0] ? '' : ' (shown for comparison; the exit code follows the first engine)'}`, '');
    for (const g of run.gates) out.push(`- ${g.status === 'fail' ? 'FAIL' : g.status} — ${g.label}: ${g.value}`);
    out.push('');
  }
  return out;
}

function failingCase(s: CaseScore): string[] {
  const lines = [`### ${s.id} · ${s.kind}`, '', `- Utterance: ${code(s.utterance)}`, `- Expected: ${cell(describeExpected(s))}`, `- Got: ${cell(describeOutcome(s))}`];
  lines.push(`- Metrics hit: ${s.failed.map((m) => METRIC_NAME[m]).join(', ')}`);
  for (const c of s.calls.filter((k) => !k.valid)) lines.push(`- Stopped by validation (${c.capability}): ${cell(c.errors.join('; '))}`);
  if (s.params?.status === 'miss') {
    for (const k of s.params.checks.filter((x) => !x.ok)) lines.push(`- Param ${code(k.key)}: expected ${cell(JSON.stringify(k.expected))}, got ${k.present ? cell(JSON.stringify(k.actual)) : 'nothing'} (${k.why ?? 'different'})`);
  }
  if (s.note) lines.push(`- Guards against: ${cell(s.note)}`);
  lines.push('- Conclusion (change the description / change the case):', '');
  return lines;
}

export function renderReport(r: IntentsResult): string {
  const out = [...header(r), '', ...metricsTable(r), ''];
  const multi = r.runs.length > 1;
  out.push(...byKindTable(r), '');
  out.push(...gatesSection(r));
  if (multi) {
    out.push('## Where the engines disagree', '');
    if (r.disagreements.length === 0) out.push('They made the same decision on every case.', '');
    else {
      out.push(`| Case | Kind | Expected | ${r.runs.map((x) => cell(x.engine.spec)).join(' | ')} |`, `|---|---|---|${r.runs.map(() => '---').join('|')}|`);
      for (const d of r.disagreements) {
        const got = d.scores.map((s) => `${cell(describeOutcome(s))}${s.failed.length ? ' ✗' : s.decision ? ' ✓' : ''}`);
        out.push(`| ${d.id} | ${cell(d.kind)} | ${cell(describeExpected(d.scores[0]!))} | ${got.join(' | ')} |`);
      }
      out.push('');
    }
  }
  const errors = r.runs.flatMap((run) => run.scores.filter((s) => !s.decision).map((s) => ({ run, s })));
  out.push('## Errors (counted apart, in no denominator)', '');
  if (errors.length === 0) out.push('None.', '');
  else for (const { run, s } of errors) out.push(`- ${s.id} (${cell(s.kind)}) on ${code(run.engine.spec)}: ${cell(`${s.error?.kind}: ${s.error?.message}`)}`);
  if (errors.length > 0) out.push('');
  for (const run of r.runs) {
    const failing = run.scores.filter((s) => s.failed.length > 0);
    out.push(`## Failing cases${multi ? ` — ${cell(run.engine.spec)}` : ''} (${failing.length})`, '');
    if (failing.length === 0) out.push('None.', '');
    for (const s of failing) out.push(...failingCase(s));
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
