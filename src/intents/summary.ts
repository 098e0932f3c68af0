// The console summary of `whet intents` (stdout). Same metrics, words and counts as the report, in a
// compact table; with --compare each engine gets the adjacent column pair (value, gate).
import { gateMark, METRIC_ROWS, overallGate, thresholdText } from './metric-rows.js';
import type { IntentsResult } from './run-intents.js';

/** Left-aligned columns, two spaces apart; the last column is not padded. */
export function textTable(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, [...c].length)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c + ' '.repeat((widths[i] ?? 0) - [...c].length))).join('  ').trimEnd());
}

export function summarizeIntents(r: IntentsResult): string {
  const total = Object.values(r.kinds).reduce((a, b) => a + b, 0);
  const lines = [
    `intent eval ${r.date}: ${total} cases in ${Object.keys(r.kinds).length} kinds from ${r.cases_file}${r.kind_filter.length ? ` (kinds: ${r.kind_filter.join(', ')})` : ''}; catalogue ${r.catalog} (${r.capabilities} capabilities)`,
    ...r.runs.map((run, i) => `${i === 0 ? 'engine' : 'compare'}: ${run.engine.label}`),
    `thresholds: ${r.thresholds.source}`,
    '',
  ];
  const head = ['metric', ...r.runs.flatMap((run) => [run.engine.spec, 'gate']), 'threshold'];
  const rows: string[][] = [head];
  for (const row of METRIC_ROWS) {
    rows.push([row.name, ...r.runs.flatMap((run) => [row.show(run.metrics.overall), gateMark(overallGate(run.gates, row))]), thresholdText(overallGate(r.runs[0]!.gates, row))]);
    if (row.key !== 'selection') continue;
    for (const g of r.runs[0]!.gates.filter((x) => x.name.startsWith('selection['))) {
      const label = `  ${g.name.slice('selection'.length)}`;
      rows.push([label, ...r.runs.flatMap((run) => {
        const mine = run.gates.find((x) => x.name === g.name);
        return [mine?.value ?? '—', gateMark(mine)];
      }), thresholdText(g)]);
    }
  }
  const errorsGate = (run: (typeof r.runs)[number]) => run.gates.find((g) => g.name === 'errors');
  rows.push(['engine errors (in no denominator)', ...r.runs.flatMap((run) => [`${run.metrics.overall.errors} of ${run.metrics.overall.cases}`, gateMark(errorsGate(run))]), thresholdText(errorsGate(r.runs[0]!))]);
  lines.push(...textTable(rows), '');

  const multi = r.runs.length > 1;
  const kindRows: string[][] = [['kind', ...(multi ? ['engine'] : []), 'cases', 'selection', 'params', 'clarify', 'false-clar', 'halluc', 'overreach']];
  const f = (x: { n: number; d: number }) => (x.d === 0 ? '—' : `${x.n}/${x.d}`);
  for (const kind of Object.keys(r.runs[0]!.metrics.by_kind)) {
    for (const run of r.runs) {
      const m = run.metrics.by_kind[kind]!;
      kindRows.push([kind, ...(multi ? [run.engine.spec] : []), String(m.cases), f(m.selection), f(m.params), f(m.clarification), f(m.false_clarification), f(m.hallucination), m.overreach.d === 0 ? '—' : `${m.overreach.n} of ${m.overreach.d}`]);
    }
  }
  lines.push('by kind:', ...textTable(kindRows).map((l) => `  ${l}`), '');

  for (const run of r.runs) {
    const failing = run.scores.filter((s) => s.failed.length > 0).map((s) => s.id);
    const errored = run.scores.filter((s) => !s.decision).map((s) => s.id);
    const prefix = r.runs.length > 1 ? `${run.engine.spec}: ` : '';
    lines.push(`${prefix}failing cases ${failing.length}${failing.length ? ` (${failing.join(', ')})` : ''}; errors ${errored.length}${errored.length ? ` (${errored.join(', ')})` : ''}`);
  }
  if (r.runs.length > 1) lines.push(`the engines disagree on ${r.disagreements.length} of ${total} cases`);
  lines.push(`report: ${r.report}`);
  const gatesLine = (run: (typeof r.runs)[number]) => {
    const failed = run.gates.filter((g) => g.status === 'fail');
    return failed.length > 0 ? `${failed.length} of ${run.gates.length} gates failed: ${failed.map((g) => g.name).join(', ')}` : 'every gate passed or had nothing to measure';
  };
  const first = r.runs[0]!;
  if (r.exit_code === 3) lines.push('result: every case errored on an engine; nothing was measured (exit 3)');
  else lines.push(`result: ${multi ? `${first.engine.spec}: ` : ''}${gatesLine(first)} (exit ${r.exit_code})`);
  // The exit code follows the first engine; the compared one's verdict is still said, never hidden.
  for (const run of r.runs.slice(1)) lines.push(`compared: ${run.engine.spec}: ${run.all_errored ? 'every case errored; nothing was measured' : gatesLine(run)} (does not set the exit code)`);
  return lines.join('\n');
}
