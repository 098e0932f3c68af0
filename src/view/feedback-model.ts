// Feedback in the viewer: a person's good/bad and comment on one output, checked against the run (the
// task must be in the iteration; its split and category come from the run's artifacts, never from the
// browser), appended to memory/feedback.jsonl (src/lessons/feedback.ts), and exported as skill-creator's
// feedback.json ({reviews: [{run_id, feedback, timestamp}], status}: skill-creator/SKILL.md "Read the
// feedback"), whose run_id is `eval-<id>-<configuration>-run-<n>` as `whet report --format skill-creator`
// names runs; `whet import feedback` (feedback-import.ts) reads it back.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { appendFeedback, currentFeedback, readFeedback } from '../lessons/feedback.js';
import { MAX_COMMENT, type FeedbackItem } from '../artifacts/feedback.js';
import { isSafeId } from '../config/safe-id.js';
import { UsageError } from '../core/errors.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { measuredDir, outputsTable, type OutputRow } from './outputs-model.js';
import { suiteTasks } from './prompts.js';
import { configurationOf, evalDirs, NO_SKILL_VARIANT, runPath, type EvalDir } from '../config/skill-creator-dirs.js';

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

export function saveFeedback(stateDir: string, body: FeedbackRequest, now: Date, source = 'whet view'): FeedbackItem {
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
  if (variant !== 'baseline' && variant !== table.candidate && !(variant === NO_SKILL_VARIANT && !table.candidate && existsSync(stateLayout.resultsFile(measuredDir(stateDir, run, iteration).dir, NO_SKILL_VARIANT)))) throw new UsageError(`feedback: ${variant} was not measured in iteration ${iteration}`);
  const split = row[2] === 'train' || row[2] === 'holdout' ? row[2] : null;
  return appendFeedback(
    stateLayout.feedback(stateDir),
    { run_id: run, iteration, task_id: task, variant, attempt, target: targetOf(manifest), split, category: row[1], rating, comment, source },
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

/**
 * The eval folders of a run's iteration as `whet report --format skill-creator` names them: from the suite
 * run.json names (the author's integer ids), the tasks it no longer has numbered after it.
 */
export function runEvalDirs(stateDir: string, run: string, table: { rows: OutputRow[] }): Map<string, EvalDir> {
  const manifest = readLenient(stateLayout.runManifest(stateLayout.runDir(stateDir, run)));
  const tasks = suiteTasks(manifest);
  const suite = typeof tasks === 'string' ? [] : [...tasks.values()];
  const known = new Set(suite.map((t) => t.id));
  return evalDirs(suite, table.rows.map((r) => r[0]).filter((id) => !known.has(id)));
}

/**
 * skill-creator's feedback.json for one run's verdicts, each run id the folder `whet report --format
 * skill-creator` writes the output to (`eval-1-with_skill-run-2`; `eval-1-with_skill` for the task as a
 * whole). Empty feedback means "fine" there, and any text a complaint (skill-creator/SKILL.md "Read the
 * feedback"), so a verdict's rating leads its text: "bad: …", "good: …", a bare bad "marked bad in whet view".
 */
export function exportFeedback(stateDir: string, run: string): SkillCreatorFeedback {
  const items = listFeedback(stateDir, run);
  const named = new Map<number, { table: ReturnType<typeof outputsTable>; dirs: Map<string, EvalDir> }>();
  const reviews = items.map((f) => {
    let n = named.get(f.iteration);
    if (!n) {
      const table = outputsTable(stateDir, run, f.iteration);
      n = { table, dirs: runEvalDirs(stateDir, run, table) };
      named.set(f.iteration, n);
    }
    const dir = n.dirs.get(f.task_id)?.dir ?? `eval-${f.task_id}`;
    const configuration = configurationOf(f.variant, n.table.candidate);
    const run_id = f.attempt === null ? `${dir}-${configuration}` : runPath(dir, configuration, f.attempt).runId;
    const comment = f.comment.trim();
    const feedback = f.rating === 'bad' ? (comment ? `bad: ${comment}` : BARE_BAD) : comment ? `good: ${comment}` : '';
    return { run_id, feedback, timestamp: f.created_at };
  });
  return { reviews, status: 'complete' };
}

/** A "bad" with no comment: skill-creator reads empty feedback as "fine". */
export const BARE_BAD = 'marked bad in whet view';
