// nightly/<date>.md: drift alerts first (what dropped, how sure, and what changed since the last night),
// then every target's numbers with their counts and intervals.
import type { NightTarget } from './nightly.js';

const pct = (x: number) => x.toFixed(4);

export function formatNight(date: string, targets: NightTarget[]): string {
  const out: string[] = [`# Nightly baseline — ${date}`, ''];
  const alerts = targets.filter((t) => t.drift.alert);
  if (alerts.length) {
    out.push('## ⚠ Drift alert', '');
    for (const t of alerts) {
      out.push(`- **${t.target}**: ${t.drift.reasons.join('; ')}.`);
      out.push(`  Since ${t.drift.compared_with}: ${t.drift.cause}.`);
    }
    out.push('');
  } else out.push('No drift alert.', '');
  for (const t of targets) {
    const s = t.summary;
    out.push(`## ${t.target}`, '');
    out.push(`- pass rate ${pct(s.pass_rate)} (${s.passed}/${s.passed + s.failed} judged), 95% CI [${s.ci95.low.toFixed(2)}, ${s.ci95.high.toFixed(2)}]; errors ${s.errors}`);
    out.push(`- engine calls tonight: ${s.engine_calls}${s.engine_calls === 0 ? ' (baseline cache: nothing changed)' : ''}; run ${t.run_id}`);
    const d = t.drift;
    if (d.compared_with) {
      out.push(`- compared with ${d.compared_with} on ${d.tasks_compared} tasks: fixed ${d.fixes.length}, regressed ${d.regressions.length}, exact McNemar p = ${d.p_value}; pass rate change ${d.pass_rate_change! >= 0 ? '+' : ''}${pct(d.pass_rate_change!)}`);
      out.push(`- what changed: ${d.cause}`);
      if (d.regressions.length) out.push(`- regressed: ${d.regressions.join(', ')}`);
      const cats = Object.entries(d.per_category).filter(([, c]) => c.change !== 0);
      if (cats.length) out.push(`- categories: ${cats.map(([k, c]) => `${k} ${pct(c.before)} → ${pct(c.after)}`).join('; ')}`);
    } else out.push(`- ${d.cause}`);
    out.push('');
  }
  return out.join('\n');
}
