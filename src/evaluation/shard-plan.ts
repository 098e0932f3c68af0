// Which tasks a shard `i/n` runs. The unit is the task with all its attempts: pass@k folds a task's
// attempts together and the paired comparison needs a task's baseline and candidate side by side, so a
// task never straddles two machines. The plan is a pure function of (task ids, attempts, known
// durations, n): every machine that sees the same inputs computes the same plan, and its hash goes into
// each shard's manifest so `whet merge` refuses shards planned from different inputs.
import { canonicalJson, sha256 } from '../state/artifact-io.js';
import { UsageError } from '../core/errors.js';

export interface ShardSpec {
  /** 1-based. */
  index: number;
  total: number;
}

/** At most this many shards: beyond it a plan is a scheduler's job, not a CI matrix's. */
export const MAX_SHARDS = 256;

export function parseShardSpec(text: string, flag = '--shard'): ShardSpec {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new UsageError(`${flag} "${text}" is not i/n (e.g. 2/4: the second of four shards)`);
  const index = Number(m[1]);
  const total = Number(m[2]);
  if (total < 1 || total > MAX_SHARDS) throw new UsageError(`${flag} "${text}": n must be 1–${MAX_SHARDS}`);
  if (index < 1 || index > total) throw new UsageError(`${flag} "${text}": i must be 1–${total}`);
  return { index, total };
}

export const shardLabel = (s: ShardSpec) => `${s.index}-of-${s.total}`;

export interface PlanTask {
  id: string;
  /** Attempts the task asks for (its pass-k). */
  attempts: number;
}

export interface ShardPlan {
  total: number;
  /** `duration`: longest-processing-time-first on recorded durations; `count`: on attempts alone. */
  balanced_by: 'duration' | 'count';
  /** task id → shard index (1-based). */
  assignment: Record<string, number>;
  /** Estimated cost per shard (ms when balanced by duration, attempts otherwise). */
  loads: number[];
  hash: string;
}

/**
 * LPT packing: tasks by cost, largest first (ties by id), each to the least loaded shard (ties to the
 * lowest index). A task's cost is its mean recorded duration × its attempts when every task has a
 * recorded duration, else its attempts — a partial history would bias the packing towards the tasks it
 * happens to know.
 */
export function planShards(tasks: readonly PlanTask[], total: number, durationsMs?: ReadonlyMap<string, number>): ShardPlan {
  const byDuration = !!durationsMs && tasks.length > 0 && tasks.every((t) => durationsMs.has(t.id));
  const cost = (t: PlanTask) => (byDuration ? Math.max(1, Math.round(durationsMs!.get(t.id)!)) * t.attempts : t.attempts);
  const order = [...tasks].sort((a, b) => cost(b) - cost(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const loads = new Array<number>(total).fill(0);
  const assignment: Record<string, number> = {};
  for (const t of order) {
    let best = 0;
    for (let s = 1; s < total; s++) if (loads[s]! < loads[best]!) best = s;
    loads[best]! += cost(t);
    assignment[t.id] = best + 1;
  }
  const sorted = Object.fromEntries(Object.entries(assignment).sort(([a], [b]) => (a < b ? -1 : 1)));
  const balanced_by = byDuration ? 'duration' : 'count';
  return { total, balanced_by, assignment: sorted, loads, hash: sha256(canonicalJson({ total, balanced_by, assignment: sorted })) };
}

/** Mean duration per task from result lines (judged or not: an error costs its time too). */
export function meanDurations(lines: Iterable<{ task_id: string; duration_ms: number }>): Map<string, number> {
  const sum = new Map<string, { ms: number; n: number }>();
  for (const l of lines) {
    const s = sum.get(l.task_id) ?? { ms: 0, n: 0 };
    s.ms += l.duration_ms;
    s.n++;
    sum.set(l.task_id, s);
  }
  return new Map([...sum].map(([id, s]) => [id, s.ms / s.n]));
}
