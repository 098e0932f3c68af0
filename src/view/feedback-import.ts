// `whet import feedback FILE [RUN]`: skill-creator's feedback.json — what its viewer saves, `{reviews:
// [{run_id, feedback, timestamp?}], status?}` — into whetstone's feedback memory (memory/feedback.jsonl),
// each review on the output `whet report --format skill-creator` wrote under that run id. Every review is
// checked as a verdict given in `whet view` is (saveFeedback: the task must be in the iteration, its split
// and category come from the run), and one that names no exported run is listed, never guessed at.
// Reading the text: skill-creator's "empty feedback means the user thought it was fine" and any text is a
// complaint (its SKILL.md "Read the feedback"); whetstone's own export leads with "bad: " or "good: ".
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { MAX_COMMENT, type FeedbackItem } from '../artifacts/feedback.js';
import { parseRunId, variantOf } from '../config/skill-creator-dirs.js';
import { ConfigError, UsageError } from '../core/errors.js';
import { BARE_BAD, runEvalDirs, saveFeedback } from './feedback-model.js';
import { outputsTable } from './outputs-model.js';
import { loadReportInputs, resolveReportRun } from '../report/load.js';
import { chooseIteration } from '../report/model.js';

const feedbackJson = z.object({
  reviews: z.array(z.object({ run_id: z.string(), feedback: z.string(), timestamp: z.string().optional() })),
  status: z.string().optional(),
});

export interface FeedbackImport {
  imported: FeedbackItem[];
  /** Reviews not imported, each with why. */
  skipped: { run_id: string; why: string }[];
}

/** A review's text as a rating and comment. */
export function verdictOf(text: string): { rating: 'good' | 'bad'; comment: string } {
  const t = text.trim();
  if (t === '') return { rating: 'good', comment: '' };
  if (t === BARE_BAD) return { rating: 'bad', comment: '' };
  const m = /^(good|bad):\s*([\s\S]*)$/.exec(t);
  if (m) return { rating: m[1] as 'good' | 'bad', comment: m[2]!.trim() };
  return { rating: 'bad', comment: t };
}

export function readFeedbackJson(file: string): z.infer<typeof feedbackJson> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`${file}: not a JSON file (${(err as Error).message})`);
  }
  const parsed = feedbackJson.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`${file} ${issue.path.join('.') || '(top)'}: ${issue.message} — expected skill-creator's feedback.json: {"reviews": [{"run_id", "feedback"}]}`);
  }
  return parsed.data;
}

/** Imports the reviews of `file` on iteration `iteration` of `run`; nothing is written when the file is bad. */
export function importFeedback(stateDir: string, run: string, iteration: number, file: string, now: Date): FeedbackImport {
  const data = readFeedbackJson(file);
  const table = outputsTable(stateDir, run, iteration);
  if (table.error && !table.rows.length) throw new UsageError(`feedback: iteration ${iteration} of ${run} has no measured outputs (${table.error})`);
  const byDir = new Map([...runEvalDirs(stateDir, run, table).values()].map((d) => [d.dir, d.taskId]));
  const imported: FeedbackItem[] = [];
  const skipped: FeedbackImport['skipped'] = [];
  // Checked first, all of them: a file with a review too long is refused whole, before anything is appended.
  for (const [i, r] of data.reviews.entries()) if (verdictOf(r.feedback).comment.length > MAX_COMMENT) throw new ConfigError(`${file} reviews.${i}.feedback: longer than ${MAX_COMMENT} characters, more than whetstone keeps of a comment; shorten it`);
  for (const r of data.reviews) {
    const parts = parseRunId(r.run_id);
    if (!parts) {
      skipped.push({ run_id: r.run_id, why: 'not a run id skill-creator names (eval-<id>-<configuration>[-run-<n>])' });
      continue;
    }
    const task = byDir.get(parts.evalDir);
    const variant = variantOf(parts.configuration, table.candidate);
    if (!task) {
      skipped.push({ run_id: r.run_id, why: `iteration ${iteration} of ${run} has no ${parts.evalDir}` });
      continue;
    }
    if (!variant) {
      skipped.push({ run_id: r.run_id, why: `iteration ${iteration} of ${run} has no ${parts.configuration} (${table.candidate ? 'a candidate run is new_skill/old_skill' : 'a run without a candidate is with_skill/without_skill'})` });
      continue;
    }
    const { rating, comment } = verdictOf(r.feedback);
    try {
      imported.push(saveFeedback(stateDir, { run, iteration, task, variant, attempt: parts.attempt, rating, comment }, now, 'feedback.json (skill-creator)'));
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      skipped.push({ run_id: r.run_id, why: err.message.replace(/^feedback: /, '') });
    }
  }
  return { imported, skipped };
}

/** The run and iteration `whet report --format skill-creator` exports when none is named: 0 for a run that is not a loop. */
export function exportedRun(stateDir: string, run: string | undefined, iteration: number | undefined): { id: string; n: number } {
  const id = resolveReportRun(stateDir, run);
  const inputs = loadReportInputs(stateDir, id, iteration);
  if (inputs.evaluation) return { id, n: 0 };
  const chosen = chooseIteration(inputs.iterations, iteration);
  if (!chosen) throw new UsageError(`run ${id} has ${iteration === undefined ? 'no iteration measured yet' : `no iteration ${iteration}`}`);
  return { id, n: chosen.n };
}
