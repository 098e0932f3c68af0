// System metrics (docs/guides/reports.md, the second dashboard): what the skill does, per variant and per
// category, with counts and Wilson intervals, errors kept apart from failures, the paired comparison of
// candidate and baseline on the same tasks, and the category that fails most.
import { mcnemarExact, wilson } from '../stats/index.js';
import { arr, at, bool, int, isObj, num, obj, round4, str, type Json } from './inputs.js';
import type { Outcome, Rate, ReportModel, TaskRow, Variant, VariantRole } from './model-schema.js';

type System = ReportModel['system'];

interface ResultRow {
  task_id: string;
  category: string;
  split: string | null;
  negative: boolean;
  outcome: Outcome;
}

export function rateOf(passed: number, failed: number, errors: number, total = passed + failed + errors): Rate {
  const judged = passed + failed;
  const ci = wilson(passed, judged);
  return { total_tasks: total, judged, passed, failed, errors, pass_rate: judged === 0 ? null : round4(passed / judged), pass_rate_ci95: judged === 0 ? null : { low: round4(ci.low), high: round4(ci.high) } };
}

export function resultRows(list: unknown, durations: Record<string, number> = {}): ResultRow[] {
  return arr(list).flatMap((r) => {
    const id = str(at(r, 'task_id'));
    if (!id) return [];
    const raw = str(at(r, 'status'));
    const status = raw === 'pass' || raw === 'fail' || raw === 'error' ? raw : bool(at(r, 'passed')) ? 'pass' : 'fail';
    return [
      {
        task_id: id,
        category: str(at(r, 'category')) ?? 'uncategorized',
        split: str(at(r, 'split')) ?? null,
        negative: bool(at(r, 'negative')) ?? false,
        outcome: { status, score: num(at(r, 'score')) ?? null, reason: str(at(r, 'reason')) ?? '', duration_ms: durations[id] ?? null },
      },
    ];
  });
}

function tally(rows: ResultRow[]): Rate {
  let p = 0;
  let f = 0;
  let e = 0;
  for (const r of rows) r.outcome.status === 'pass' ? p++ : r.outcome.status === 'fail' ? f++ : e++;
  return rateOf(p, f, e);
}

/** A variant measured by an evaluation artifact: its task rows, and its summary when rows are missing. */
export interface Measured {
  role: VariantRole;
  id: string;
  label: string;
  rows: ResultRow[];
  summary?: Json;
  cached: boolean | null;
}

function variantOf(m: Measured): Variant {
  const s = m.summary;
  const fromSummary = s && m.rows.length === 0 ? rateOf(int(s.passed) ?? 0, int(s.failed) ?? 0, int(s.errors) ?? 0, int(s.total_tasks)) : undefined;
  return { role: m.role, id: m.id, label: m.label, summary: fromSummary ?? tally(m.rows), cached: m.cached, wall_ms: num(s?.wall_ms) ?? null };
}

function changeOf(p: Outcome | null, r: Outcome | null): TaskRow['change'] {
  if (!p || !r) return null;
  if (p.status === 'error' || r.status === 'error') return 'error';
  if (p.status === r.status) return 'same';
  return p.status === 'pass' ? 'fixed' : 'regressed';
}

function pairedOf(evaluationPaired: unknown, tasks: TaskRow[]): System['paired'] {
  const a = obj(evaluationPaired);
  if (a && int(a.both_pass) !== undefined) {
    return {
      tasks_compared: int(a.tasks_compared) ?? 0,
      excluded_errors: int(a.excluded_errors) ?? 0,
      both_pass: int(a.both_pass) ?? 0,
      both_fail: int(a.both_fail) ?? 0,
      // Today's names, or those of an artifact written before they were one (measures.ts).
      fixed: int(a.fixed) ?? int(a.candidate_only) ?? 0,
      regressed: int(a.regressed) ?? int(a.baseline_only) ?? 0,
      p_value: num(a.p_value) ?? 1,
      method: str(a.method) ?? 'exact McNemar',
      fixes: arr(a.fixes).filter((x): x is string => typeof x === 'string'),
      regressions: arr(a.regressions).filter((x): x is string => typeof x === 'string'),
    };
  }
  const both = tasks.filter((t) => t.change !== null);
  if (both.length === 0) return null;
  const judged = both.filter((t) => t.change !== 'error');
  const fixes = judged.filter((t) => t.change === 'fixed').map((t) => t.task_id);
  const regressions = judged.filter((t) => t.change === 'regressed').map((t) => t.task_id);
  return {
    tasks_compared: judged.length,
    excluded_errors: both.length - judged.length,
    both_pass: judged.filter((t) => t.change === 'same' && t.primary?.status === 'pass').length,
    both_fail: judged.filter((t) => t.change === 'same' && t.primary?.status === 'fail').length,
    fixed: fixes.length,
    regressed: regressions.length,
    p_value: mcnemarExact(regressions.length, fixes.length).pValue,
    method: 'exact McNemar (two-sided binomial on discordant pairs)',
    fixes,
    regressions,
  };
}

const SPLIT_ORDER = ['train', 'holdout'];

/**
 * Per-split rates of both variants from the task table. A task without a split is "unassigned"; a run
 * whose tasks carry no split at all has no rows, rather than one "unassigned" row repeating the total.
 */
export function splitsOf(tasks: TaskRow[], system: Pick<System, 'primary' | 'reference'>): System['per_split'] {
  if (!tasks.some((t) => t.split)) return [];
  const names = [...new Set(tasks.map((t) => t.split ?? 'unassigned'))].sort((a, b) => {
    const ia = SPLIT_ORDER.indexOf(a);
    const ib = SPLIT_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  });
  const rateFor = (list: TaskRow[], pick: (t: TaskRow) => Outcome | null) => {
    const os = list.map(pick).filter((o): o is Outcome => o !== null);
    return os.length ? rateOf(os.filter((o) => o.status === 'pass').length, os.filter((o) => o.status === 'fail').length, os.filter((o) => o.status === 'error').length) : null;
  };
  return names.map((split) => {
    const list = tasks.filter((t) => (t.split ?? 'unassigned') === split);
    const p = system.primary ? rateFor(list, (t) => t.primary) : null;
    const r = system.reference ? rateFor(list, (t) => t.reference) : null;
    const delta = p?.pass_rate != null && r?.pass_rate != null ? round4(p.pass_rate - r.pass_rate) : null;
    return { split, primary: p, reference: r, delta };
  });
}

/** System metrics and the task table from the primary variant and, when there is one, its reference. */
export function systemOf(primary: Measured | undefined, reference: Measured | undefined, evaluationPaired?: unknown): { system: System; tasks: TaskRow[] } {
  const pRows = new Map((primary?.rows ?? []).map((r) => [r.task_id, r]));
  const rRows = new Map((reference?.rows ?? []).map((r) => [r.task_id, r]));
  const ids = [...new Set([...pRows.keys(), ...rRows.keys()])];
  const tasks: TaskRow[] = ids.map((id) => {
    const base = pRows.get(id) ?? rRows.get(id)!;
    const p = pRows.get(id)?.outcome ?? null;
    const r = rRows.get(id)?.outcome ?? null;
    return { task_id: id, category: base.category, split: base.split, negative: base.negative, prompt: null, primary: p, reference: r, change: changeOf(p, r) };
  });

  const categories = [...new Set(tasks.map((t) => t.category))].sort();
  const per_category = categories.map((category) => {
    const pc = [...pRows.values()].filter((r) => r.category === category);
    const rc = [...rRows.values()].filter((r) => r.category === category);
    const p = primary && pc.length ? tally(pc) : null;
    const r = reference && rc.length ? tally(rc) : null;
    const delta = p?.pass_rate != null && r?.pass_rate != null ? round4(p.pass_rate - r.pass_rate) : null;
    return { category, primary: p, reference: r, delta };
  });

  const errors = [
    ...(primary?.rows ?? []).filter((r) => r.outcome.status === 'error').map((r) => ({ task_id: r.task_id, role: primary!.role, reason: r.outcome.reason })),
    ...(reference?.rows ?? []).filter((r) => r.outcome.status === 'error').map((r) => ({ task_id: r.task_id, role: reference!.role, reason: r.outcome.reason })),
  ];

  // The primary's worst category; when the primary failed nothing, the failures observed on the reference.
  const topOf = (key: 'primary' | 'reference', role: VariantRole | undefined) => {
    let top: System['top_failure_category'] = null;
    for (const c of per_category) {
      const r = c[key];
      if (!r || r.failed === 0 || !role) continue;
      const better = !top || r.failed > top.failed || (r.failed === top.failed && r.failed / r.judged > top.failed / top.judged);
      if (better) top = { category: c.category, failed: r.failed, judged: r.judged, role };
    }
    return top;
  };
  const top = topOf('primary', primary?.role) ?? topOf('reference', reference?.role);

  return {
    system: {
      primary: primary ? variantOf(primary) : null,
      reference: reference ? variantOf(reference) : null,
      per_category,
      per_split: [],
      paired: reference && primary ? pairedOf(evaluationPaired, tasks) : null,
      errors,
      top_failure_category: top,
    },
    tasks,
  };
}

export const isPipeline = (ev: Json | undefined) => isObj(ev) && (str(ev.mode) === 'pipeline' || Array.isArray(ev.candidate_results));
