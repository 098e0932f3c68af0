// Feedback in the viewer: a person's good/bad and comment on one output, checked against the run (the
// task must be in the iteration; its split and category come from the run's artifacts, never from the
// browser), appended to memory/feedback.jsonl (src/lessons/feedback.ts), and exported as skill-creator's
// feedback.json ({reviews: [{run_id, feedback, timestamp}], status}: skill-creator/SKILL.md "Read the
// feedback"), whose run_id is `eval-<id>-<configuration>` as `whet report --format skill-creator` names runs.
import { dirname } from 'node:path';
import { appendFeedback, currentFeedback, readFeedback } from '../lessons/feedback.js';
import { MAX_COMMENT, type FeedbackItem } from '../artifacts/feedback.js';
import { isSafeId } from '../config/safe-id.js';
import { UsageError } from '../core/errors.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { outputsTable } from './outputs-model.js';

/** What the page sends. Anything else in the body is ignored. */
export interface FeedbackRequest {
  run: unknown;
  iteration: unknown;
  task: unknown;
  variant: unknown;
  attempt: unknown;
  rating: unknown;
  comment: unknown;
}

/** The skill folder a run measured: a loop's run.json names it; a standalone run's, the folder of its SKILL.md. */
function targetOf(manifest: Record<string, any>): string {
  if (typeof manifest.target?.skill_dir === 'string') return manifest.target.skill_dir;
  return typeof manifest.target?.skill_path === 'string' ? dirname(manifest.target.skill_path) : '';
}

export function saveFeedback(stateDir: string, body: FeedbackRequest, now: Date): FeedbackItem {
  const { run, iteration, task, variant, attempt, rating, comment } = body;
  if (!isSafeId(run)) throw new UsageError('feedback: no such run');
  if (typeof iteration !== 'number' || !Number.isSafeInteger(iteration) || iteration < 0) throw new UsageError('feedback: iteration must be a whole number');
  if (typeof task !== 'string' || !isSafeId(variant)) throw new UsageError('feedback: a task and a variant are needed');
  if (rating !== 'good' && rating !== 'bad') throw new UsageError('feedback: rating is good or bad');
  if (typeof comment !== 'string' || comment.length > MAX_COMMENT) throw new UsageError(`feedback: a comment is text of at most ${MAX_COMMENT} characters`);
  if (attempt !== null && (typeof attempt !== 'number' || !Number.isSafeInteger(attempt) || attempt < 0)) throw new UsageError('feedback: attempt is a whole number or null');
  const manifest = readLenient(stateLayout.runManifest(stateLayout.runDir(stateDir, run)));
  if (!manifest) throw new UsageError(`feedback: run ${run} has no readable run.json`);
  const table = outputsTable(stateDir, run, iteration);
  const row = table.rows.find((r) => r[0] === task);
  if (!row) throw new UsageError(`feedback: iteration ${iteration} of ${run} has no task ${task}`);
  if (variant !== 'baseline' && variant !== table.candidate) throw new UsageError(`feedback: ${variant} was not measured in iteration ${iteration}`);
  const split = row[2] === 'train' || row[2] === 'holdout' ? row[2] : null;
  return appendFeedback(
    stateLayout.feedback(stateDir),
    { run_id: run, iteration, task_id: task, variant, attempt, target: targetOf(manifest), split, category: row[1], rating, comment, source: 'whet view' },
    now,
  );
}

/** The verdicts that stand (newest per output), optionally of one run. */
export function listFeedback(stateDir: string, run?: string): FeedbackItem[] {
  const all = currentFeedback(readFeedback(stateLayout.feedback(stateDir)).items);
  return run ? all.filter((f) => f.run_id === run) : all;
}

export interface SkillCreatorFeedback {
  reviews: { run_id: string; feedback: string; timestamp: string }[];
  status: 'complete' | 'in_progress';
}

/** skill-creator's feedback.json for one run's verdicts. Empty feedback means "fine" there, so a bare "bad" says so. */
export function exportFeedback(stateDir: string, run: string): SkillCreatorFeedback {
  const items = listFeedback(stateDir, run);
  const reviews = items.map((f) => {
    const table = outputsTable(stateDir, run, f.iteration);
    const index = table.rows.findIndex((r) => r[0] === f.task_id);
    const configuration = f.variant === 'baseline' && table.candidate ? 'without_skill' : 'with_skill';
    const text = f.comment.trim() || (f.rating === 'bad' ? 'marked bad in whet view' : '');
    return { run_id: `eval-${index < 0 ? f.task_id : index}-${configuration}`, feedback: f.rating === 'bad' && f.comment.trim() ? `bad: ${text}` : text, timestamp: f.created_at };
  });
  return { reviews, status: 'complete' };
}

