// The union of shards' results logs, as the outcome one unsharded run would have had: the latest line per
// (task, attempt) within each shard stands (as a resume reads it), every task × attempt of the suite must
// come from exactly one shard, and the tallies are folded by the same functions a run folds with
// (aggregate.ts), task by task in suite order and attempt by attempt — the order an unsharded run at
// concurrency 1 finishes them in. Only facts are kept, never outputs, so memory stays flat.
import { StringPool } from '../core/strings.js';
import type { Task } from '../config/suite-schema.js';
import { UsageError } from '../core/errors.js';
import { attemptKey, readResults } from '../state/results-log.js';
import { addUsage, attemptFacts, foldResult, newTally, newUsage, type AttemptFacts } from './aggregate.js';
import type { VariantOutcome } from './run-variant.js';

export interface ShardLog {
  /** How the shard is named in refusals: `2/4 (path)`. */
  name: string;
  file: string;
  /** The tasks the shard was assigned. */
  tasks: ReadonlySet<string>;
  engineCalls: number;
  judgeCalls: number;
}

export async function mergeOutcome(variant: string, tasks: readonly Task[], passK: number, logs: readonly ShardLog[]): Promise<VariantOutcome> {
  const kOf = new Map(tasks.map((t) => [t.id, t.passK ?? passK]));
  const facts = new Map<string, AttemptFacts>();
  const owner = new Map<string, string>();
  for (const log of logs) {
    const mine = new Map<string, AttemptFacts>();
    let stray: string | undefined;
    await readResults(log.file, (line) => {
      const k = kOf.get(line.task_id);
      if (k === undefined || !log.tasks.has(line.task_id) || line.attempt >= k) {
        stray ??= `${line.task_id} attempt ${line.attempt}`;
        return;
      }
      mine.set(attemptKey(line.task_id, line.attempt), attemptFacts(line));
    });
    if (stray) throw new UsageError(`shard ${log.name}: ${variant} results hold ${stray}, which is not in this shard's share of the suite; refusing to merge`);
    for (const [key, f] of mine) {
      const first = owner.get(key);
      if (first !== undefined) throw new UsageError(`task × attempt ${key} (${variant}) is present twice: in shard ${first} and in shard ${log.name}; refusing to merge`);
      owner.set(key, log.name);
      facts.set(key, f);
    }
  }
  const usage = newUsage();
  const durationsMs: number[] = [];
  const strings = new StringPool();
  const tallies = tasks.map((task) => {
    const k = kOf.get(task.id)!;
    const t = newTally(task, k);
    for (let a = 0; a < k; a++) {
      const f = facts.get(attemptKey(task.id, a));
      if (!f) throw new UsageError(`task × attempt ${attemptKey(task.id, a)} (${variant}) is missing: no shard holds it${whoHad(logs, task.id)}; refusing to merge`);
      foldResult(t, f, strings);
      addUsage(usage, f.usage);
      if (f.judge_usage) addUsage(usage, f.judge_usage);
      durationsMs.push(f.duration_ms);
    }
    return t;
  });
  return {
    variant,
    tallies,
    engineCalls: logs.reduce((n, l) => n + l.engineCalls, 0),
    judgeCalls: logs.reduce((n, l) => n + l.judgeCalls, 0),
    resumedAttempts: 0,
    usage,
    durationsMs,
    interrupted: false,
    wallMs: 0,
  };
}

function whoHad(logs: readonly ShardLog[], taskId: string): string {
  const s = logs.find((l) => l.tasks.has(taskId));
  return s ? ` (shard ${s.name} was assigned it: was it interrupted?)` : ' (no shard was assigned it: is a shard missing?)';
}
