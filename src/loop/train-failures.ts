// What a stage may learn from: the baseline's judged failures on the train split, never a held-out task.
// The generator's proposers and the discriminator's llm judge both read them, so the rule lives here once.
import type { Task } from '../config/suite-schema.js';

/** A result row of baseline.json, as the generator reads it. */
export interface ObservedResult {
  task_id: string;
  category: string;
  split?: 'train' | 'holdout' | undefined;
  status: 'pass' | 'fail' | 'error';
  reason: string;
}

/** A train failure with its request, as an engine asked about it sees it. */
export interface TrainFailure {
  task_id: string;
  category: string;
  split: 'train' | 'holdout' | undefined;
  prompt: string;
  reason: string;
}

/**
 * The failures the generator may learn from: judged failures of the train split only. A result without
 * a split is not train: when in doubt, a task is treated as held out, never leaked.
 */
export function trainFailures<T extends ObservedResult>(results: readonly T[]): T[] {
  return results.filter((r) => r.split === 'train' && r.status === 'fail');
}

/**
 * Train failures with their requests, from the run's own suite (its registered splits applied): a task the
 * suite now calls held out, or no longer has, is dropped before any prompt is read.
 */
export function trainFailuresWithPrompts(tasks: readonly Task[], results: readonly ObservedResult[]): TrainFailure[] {
  const failed = trainFailures(results);
  if (failed.length === 0) return [];
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const out: TrainFailure[] = [];
  for (const r of failed) {
    const task = byId.get(r.task_id);
    if (!task || task.split !== 'train') continue;
    out.push({ task_id: r.task_id, category: r.category, split: 'train', prompt: task.prompt, reason: r.reason });
  }
  return out;
}
