// nightly/<date>.md: engine failures and drift alerts first (what dropped, how sure, and what changed since
// the last night), then every target's numbers with their counts and intervals and its last nights.
import { sequentialWords } from './drift-noisy.js';
import { falseAlertsWords } from './accumulate.js';
import type { TrendRow } from './history.js';
import type { NightTarget } from './schema.js';
import { signed4 as signed } from '../core/numbers.js';

const pct = (x: number) => x.toFixed(4);
const rate = (x: number | null) => (x === null ? '—' : pct(x));
/** A pass rate over no judged task is not 0%: it is unknown. */
const judgedRate = (r: { pass_rate: number | null; passed: number; failed: number }) => (r.passed + r.failed === 0 || r.pass_rate === null ? '—' : pct(r.pass_rate));

function trendTable(rows: TrendRow[]): string[] {
  return [
    '',
    '| night | pass rate | judged | errors |',
    '|---|---:|---:|---:|',
    ...[...rows].reverse().map((r) => `| ${r.night} | ${judgedRate(r)} | ${r.passed}/${r.passed + r.failed} | ${r.errors} |`),
  ];
}

export function formatNight(date: string, targets: NightTarget[], trends: Map<string, TrendRow[]> = new Map(), significance?: number): string {
  const calls = targets.reduce((n, t) => n + t.summary.engine_calls, 0);
  const attempts = targets.reduce((n, t) => n + t.summary.passed + t.summary.failed + t.summary.errors, 0);
  const out: string[] = [
    `# Nightly baseline — ${date}`,
    '',
    `Engine calls tonight: ${calls} for ${attempts} task(s) over ${targets.length} target(s); every task is measured each night (the nightly never reads the baseline cache).`,
    '',
  ];
  const failed = targets.filter((t) => t.drift.engine_failed);
  if (failed.length) {
    out.push('## ⚠ Engine failed', '');
    for (const t of failed) out.push(`- **${t.label}**: ${t.drift.reasons[0]}.`);
    out.push('');
  }
  const drops = targets.filter((t) => t.drift.reasons.length > (t.drift.engine_failed ? 1 : 0));
  if (drops.length) {
    out.push('## ⚠ Drift alert', '');
    for (const t of drops) {
      out.push(`- **${t.label}**: ${t.drift.reasons.slice(t.drift.engine_failed ? 1 : 0).join('; ')}.`);
      out.push(`  Since ${t.drift.compared_with}: ${t.drift.cause}.`);
    }
    out.push('');
  }
  // Not an alert (a nondeterministic model flips a task now and then), but never left to be inferred.
  const moved = targets.filter((t) => t.drift.engine_behaviour_changed);
  if (moved.length) {
    out.push('## Results changed, nothing else did', '');
    for (const t of moved) out.push(`- **${t.label}**: ${t.drift.cause} (since ${t.drift.compared_with}: fixed ${t.drift.fixes.length}, regressed ${t.drift.regressions.length}).`);
    out.push('');
  }
  if (!failed.length && !drops.length) out.push('No drift alert.', '');
  // How often an alert comes with nothing changed: what a reader needs to weigh one (issue 39).
  if (significance !== undefined) out.push(`The design: ${falseAlertsWords(significance, targets.length)}.`, '');
  for (const t of targets) {
    const s = t.summary;
    out.push(`## ${t.label}`, '');
    out.push(`- pass rate ${judgedRate(s)} (${s.passed}/${s.passed + s.failed} judged), 95% CI ${s.pass_rate_ci95 ? `[${s.pass_rate_ci95.low.toFixed(2)}, ${s.pass_rate_ci95.high.toFixed(2)}]` : '—'}; errors ${s.errors}`);
    out.push(`- engine calls tonight: ${s.engine_calls}; run ${t.run_id}`);
    const d = t.drift;
    if (d.compared_with) {
      out.push(`- compared with ${d.compared_with} on ${d.tasks_compared} task(s) judged both nights: fixed ${d.fixes.length}, regressed ${d.regressions.length}, exact McNemar p = ${d.p_value ?? '—'}; pass rate change ${signed(d.pass_rate_change)}`);
      // On a noisy engine the line above is what the first attempts did; this is what decided the alert.
      if (d.sequential) out.push(`- drift test on a noisy engine${t.noise ? ` (${t.noise.why})` : ''}: ${d.sequential.method}; ${sequentialWords(d.sequential)}; ${d.sequential.calls.engine} engine call(s) in ${d.sequential.rounds - 1} later round(s)`);
      out.push(`- what changed: ${d.cause}`);
      if (d.regressions.length) out.push(`- regressed: ${d.regressions.join(', ')}`);
      const cats = Object.entries(d.per_category).filter(([, c]) => c.change !== 0);
      if (cats.length) out.push(`- categories (tasks judged both nights): ${cats.map(([k, c]) => `${k} ${rate(c.before)} → ${rate(c.after)} (${c.tasks})`).join('; ')}`);
    } else out.push(`- ${d.cause}`);
    const acc = d.accumulated;
    if (acc) out.push(acc.nights === 0 ? `- reference night for the accumulated decline: tonight (${acc.since})` : `- against the reference night ${acc.reference.label} (${acc.nights} night(s) since): change ${signed(acc.change)}, z ${acc.z?.toFixed(2) ?? '—'}, CUSUM ${acc.alert ? `passed ${acc.h}: alert` : `${acc.statistic.toFixed(2)} of ${acc.h}`}`);
    const rows = trends.get(t.target_key);
    if (rows?.length) out.push(...trendTable(rows));
    out.push('');
  }
  return out.join('\n');
}
