// memory/feedback.jsonl: what a person said about one output in `whet view` (issue 29) — good or bad, with
// a comment. One line per verdict, appended; a later line for the same output stands for it. The generator
// reads the lines about its own target's train tasks only (src/lessons/feedback.ts), so a verdict on a
// held-out task is kept and exported but never reaches a proposal.
import { z } from 'zod';
import { safeId } from '../config/safe-id-schema.js';

export const FEEDBACK_SCHEMA = 'whetstone.feedback/1';

/** How long a comment may be: a person's note, not a document (the viewer refuses longer ones). */
export const MAX_COMMENT = 4000;

export const feedbackItem = z.object({
  schema: z.literal(FEEDBACK_SCHEMA),
  /** Random, so two viewers writing at once never collide. */
  id: z.string().regex(/^fb-[0-9a-f]{16}$/),
  created_at: z.string(),
  run_id: safeId,
  iteration: z.number().int().min(0),
  task_id: z.string().min(1).max(400),
  /** `baseline` or the candidate's id. */
  variant: safeId,
  /** The attempt looked at, or null for the task as a whole. */
  attempt: z.number().int().min(0).nullable(),
  /** The run's skill folder (run.json target.skill_dir): whose generator may read it. */
  target: z.string(),
  /** The split the run registered for the task when the verdict was given; null when unknown (then never train). */
  split: z.enum(['train', 'holdout']).nullable(),
  category: z.string(),
  rating: z.enum(['good', 'bad']),
  comment: z.string().max(MAX_COMMENT),
  /** Where it was given (`whet view`). */
  source: z.string(),
});
export type FeedbackItem = z.infer<typeof feedbackItem>;
