// learning.json: what this iteration taught (the lesson appended to memory/lessons.jsonl), the target's
// structure score now, the new eval cases proposed from failures (for a person to review), and whether
// the loop goes on (next_step generate) or stops (done) and by which rule.
import { z } from 'zod';
import { envelope } from './envelope.js';
import { callCount } from '../state/call-count.js';

export const lesson = z.object({
  run_id: z.string(),
  iteration: z.number().int(),
  target: z.string(),
  target_sha256: z.string(),
  candidate_id: z.string().nullable(),
  category: z.string().nullable(),
  /**
   * What the candidate answered (`train_failures:breaking-changes`, `structure:examples`), so a lesson
   * demotes more of the same, not every change of its category: every feedback rule is `coverage`.
   * Absent on lessons written before it existed.
   */
  addresses: z.string().nullable().optional(),
  actions: z.array(z.string()),
  content_sha256: z.string().nullable(),
  decision: z.string(),
  delta: z.number().nullable(),
  delta_ci95: z.object({ low: z.number(), high: z.number() }).nullable(),
  why: z.string(),
  at: z.string(),
});
export type Lesson = z.infer<typeof lesson>;

export const learningArtifact = envelope.extend({
  schema: z.literal('whetstone.learning/1'),
  stage: z.literal('learned'),
  lesson,
  structure: z.object({ total: z.number(), dimensions: z.array(z.object({ id: z.string(), score: z.number(), finding: z.string() })) }),
  proposed_cases: z.object({ file: z.string().nullable(), count: z.number().int() }),
  stop: z.object({ stop: z.boolean(), rule: z.string().nullable(), reason: z.string() }),
  /** engine_calls: every call of the run (the budget's count); calls: the same split by kind (absent in runs written before it). */
  totals: z.object({ engine_calls: z.number().int(), calls: callCount.optional(), cost_usd: z.number(), wall_ms: z.number() }),
  /** What happened to memory/lessons.jsonl: a re-run of the same iteration never appends twice. */
  lesson_record: z.enum(['appended', 'unchanged', 'replaced']).optional(),
  /** One line on why the loop goes on or stops (the runner shows it when the run ends). */
  reason: z.string().optional(),
});
export type LearningArtifact = z.infer<typeof learningArtifact>;
