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
  rows.push(['errors (in no denominator)', ...r.runs.flatMap((run) => [`${run.metrics.overall.errors} of ${run.metrics.overall.cases}`, '']), '']);
  lines.push(...textTable(rows), '');

  for (const run of r.runs) {
    const kindRows: string[][] = [['kind', 'cases', 'selection', 'params', 'clarify', 'false-clar', 'halluc', 'overreach']];
    for (const [kind, m] of Object.entries(run.metrics.by_kind)) {
      const f = (x: { n: number; d: number }) => (x.d === 0 ? '—' : `${x.n}/${x.d}`);
      kindRows.push([kind, String(m.cases), f(m.selection), f(m.params), f(m.clarification), f(m.false_clarification), f(m.hallucination), m.overreach.d === 0 ? '—' : String(m.overreach.n)]);
    }
    lines.push(`by kind${r.runs.length > 1 ? ` (${run.engine.spec})` : ''}:`, ...textTable(kindRows).map((l) => `  ${l}`), '');
  }

  for (const run of r.runs) {
    const failing = run.scores.filter((s) => s.failed.length > 0).map((s) => s.id);
    const errored = run.scores.filter((s) => !s.decision).map((s) => s.id);
    const prefix = r.runs.length > 1 ? `${run.engine.spec}: ` : '';
    lines.push(`${prefix}failing cases ${failing.length}${failing.length ? ` (${failing.join(', ')})` : ''}; errors ${errored.length}${errored.length ? ` (${errored.join(', ')})` : ''}`);
  }
  if (r.runs.length > 1) lines.push(`the engines disagree on ${r.disagreements.length} of ${total} cases`);
  lines.push(`report: ${r.report}`);
  const first = r.runs[0]!;
  const failed = first.gates.filter((g) => g.status === 'fail');
  if (r.exit_code === 3) lines.push('result: every case errored on an engine; nothing was measured (exit 3)');
  else if (failed.length > 0) lines.push(`result: ${failed.length} of ${first.gates.length} gates failed: ${failed.map((g) => g.name).join(', ')} (exit 1)`);
  else lines.push(`result: every gate passed or had nothing to measure (exit 0)`);
  return lines.join('\n');
}
