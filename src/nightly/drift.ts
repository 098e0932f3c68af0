// Tonight against the previous night of the same target: a paired test on the tasks both nights judged
// (exact McNemar), per-category changes, new failures of tasks marked critical, and what changed in
// between (skill, suite, engine — from the content hashes), because that tells the user where to look.
import { mcnemarExact } from '../stats/index.js';

export interface NightTask {
  task_id: string;
  status: 'pass' | 'fail' | 'error';
  category: string;
  critical?: boolean;
}

export interface NightRecord {
  target: string;
  pass_rate: number;
  skill_sha256: string;
  suite_sha256: string;
  engine_sha256: string;
  tasks: NightTask[];
}

export interface DriftReport {
  compared_with: string | null;
  tasks_compared: number;
  fixes: string[];
  regressions: string[];
  p_value: number | null;
  pass_rate_change: number | null;
  per_category: Record<string, { before: number; after: number; change: number }>;
  critical_failures: string[];
  changed: { skill: boolean; suite: boolean; engine: boolean } | null;
  cause: string;
  alert: boolean;
  reasons: string[];
}

export function describeChange(c: { skill: boolean; suite: boolean; engine: boolean }): string {
  const changed = (Object.keys(c) as (keyof typeof c)[]).filter((k) => c[k]);
  const same = (Object.keys(c) as (keyof typeof c)[]).filter((k) => !c[k]);
  if (changed.length === 0) return 'nothing changed (same skill, suite and engine configuration): the model behind the engine may have changed';
  const join = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);
  return `${join(changed)} changed${same.length ? `, ${join(same)} unchanged` : ''}`;
}

function rates(tasks: NightTask[]): Map<string, { pass: number; judged: number }> {
  const m = new Map<string, { pass: number; judged: number }>();
  for (const t of tasks) {
    if (t.status === 'error') continue;
    const r = m.get(t.category) ?? { pass: 0, judged: 0 };
    r.judged++;
    if (t.status === 'pass') r.pass++;
    m.set(t.category, r);
  }
  return m;
}

export function compareNights(tonight: NightRecord, previous: (NightRecord & { label: string }) | undefined, significance: number): DriftReport {
  if (!previous) {
    return { compared_with: null, tasks_compared: 0, fixes: [], regressions: [], p_value: null, pass_rate_change: null, per_category: {}, critical_failures: [], changed: null, cause: 'first night for this target', alert: false, reasons: [] };
  }
  const before = new Map(previous.tasks.map((t) => [t.task_id, t]));
  const fixes: string[] = [];
  const regressions: string[] = [];
  const critical: string[] = [];
  let compared = 0;
  for (const t of tonight.tasks) {
    const b = before.get(t.task_id);
    if (!b || b.status === 'error' || t.status === 'error') continue;
    compared++;
    if (b.status === 'pass' && t.status === 'fail') {
      regressions.push(t.task_id);
      if (t.critical) critical.push(t.task_id);
    }
    if (b.status === 'fail' && t.status === 'pass') fixes.push(t.task_id);
  }
  const p = mcnemarExact(regressions.length, fixes.length).pValue;
  const rb = rates(previous.tasks);
  const ra = rates(tonight.tasks);
  const per_category: DriftReport['per_category'] = {};
  for (const cat of [...new Set([...rb.keys(), ...ra.keys()])].sort()) {
    const x = rb.get(cat);
    const y = ra.get(cat);
    const b = x && x.judged ? x.pass / x.judged : 0;
    const a = y && y.judged ? y.pass / y.judged : 0;
    per_category[cat] = { before: round4(b), after: round4(a), change: round4(a - b) };
  }
  const changed = { skill: tonight.skill_sha256 !== previous.skill_sha256, suite: tonight.suite_sha256 !== previous.suite_sha256, engine: tonight.engine_sha256 !== previous.engine_sha256 };
  const change = round4(tonight.pass_rate - previous.pass_rate);
  const reasons: string[] = [];
  if (regressions.length > fixes.length && p < significance) reasons.push(`significant drop: ${regressions.length} task(s) regressed vs ${fixes.length} fixed, exact McNemar p = ${Number(p.toPrecision(4))} < ${significance}`);
  if (critical.length) reasons.push(`critical task(s) newly failing: ${critical.join(', ')}`);
  return {
    compared_with: previous.label,
    tasks_compared: compared,
    fixes,
    regressions,
    p_value: Number(p.toPrecision(6)),
    pass_rate_change: change,
    per_category,
    critical_failures: critical,
    changed,
    cause: describeChange(changed),
    alert: reasons.length > 0,
    reasons,
  };
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
