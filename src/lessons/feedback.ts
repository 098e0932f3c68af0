// The store of a person's verdicts on outputs (memory/feedback.jsonl, schema in src/artifacts/feedback.ts):
// `whet view` appends to it, the generator reads it. Appended one whole line at a time (appendAtomically),
// so a viewer writing while a loop reads never leaves half a line, and a run's own files are never touched:
// a run registered before a verdict keeps its run.json and artifacts byte for byte.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendAtomically } from '../core/atomic.js';
import { readJsonl } from './read-jsonl.js';
import { FEEDBACK_SCHEMA, feedbackItem, type FeedbackItem } from '../artifacts/feedback.js';
import type { Task } from '../config/suite-schema.js';

export interface FeedbackRead {
  items: FeedbackItem[];
  /** Lines that are not valid feedback (a torn or hand-edited line): skipped and counted. */
  invalid: number;
  /** sha256 of the file's bytes ("" when there is none): what a generator records it read. */
  sha256: string;
}

export function readFeedback(file: string): FeedbackRead {
  return readJsonl(file, feedbackItem);
}

export type FeedbackFields = Omit<FeedbackItem, 'schema' | 'id' | 'created_at'>;

/** Validates and appends one verdict; returns it as written. */
export function appendFeedback(file: string, fields: FeedbackFields, now: Date): FeedbackItem {
  const item = feedbackItem.parse({ schema: FEEDBACK_SCHEMA, id: `fb-${randomBytes(8).toString('hex')}`, created_at: now.toISOString(), ...fields });
  mkdirSync(dirname(file), { recursive: true });
  appendAtomically(file, `${JSON.stringify(item)}\n`);
  return item;
}

const keyOf = (f: FeedbackItem) => JSON.stringify([f.run_id, f.iteration, f.task_id, f.variant, f.attempt]);

/** The verdict that stands for each output: the newest line about it. */
export function currentFeedback(items: readonly FeedbackItem[]): FeedbackItem[] {
  const by = new Map<string, FeedbackItem>();
  for (const f of items) by.set(keyOf(f), f);
  return [...by.values()];
}

/**
 * What the generator of a run on `target` may read: verdicts on that target's train tasks, where both the
 * verdict (the split registered when it was given) and the run's own suite (its registered splits applied)
 * say train. A task the suite now holds out, or no longer has, is dropped: a held-out task never reaches a
 * proposal (docs/method.md: Splits: train and held-out).
 */
export function trainFeedback(items: readonly FeedbackItem[], target: string, tasks: readonly Task[]): FeedbackItem[] {
  const split = new Map(tasks.map((t) => [t.id, t.split]));
  return currentFeedback(items).filter((f) => f.target === target && f.split === 'train' && split.get(f.task_id) === 'train');
}
