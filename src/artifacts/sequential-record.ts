// The sequential test's record inside evaluation.json (issue 27; issue 38 added the run-level fields): its
// looks, the settings and constants it ran with, the held-out effect and the per-task attempts — enough for
// anyone to recompute every boundary and decision. Part of the evaluation artifact (evaluation.ts).
import { z } from 'zod';

const counts = z.object({ passes: z.number().int().min(0), judged: z.number().int().min(0) });

/** One look of the sequential test (src/evaluation/sequential.ts Look): enough to recompute its boundaries. */
export const lookSchema = z.object({
  round: z.number().int().min(1),
  attempts: z.number().int().min(1),
  tasks: z.number().int().min(0),
  score: z.number(),
  info: z.number().min(0),
  theta1: z.number().nullable(),
  z: z.number().nullable(),
  t: z.number().min(0).max(1),
  final: z.boolean(),
  upper: z.number().nullable(),
  lower: z.number().nullable(),
  alpha_spent: z.number().min(0).max(1),
  decision: z.enum(['keep', 'stop', 'continue']),
  /** A gate's test (issue 38): the task-level t over per-task differences at this look, and the critical value it had to reach. */
  task_t: z.number().nullable().optional(),
  task_critical: z.number().nullable().optional(),
});

/** The held-out effect: mean per-task difference of attempt shares, with its interval over tasks. */
export const effectSchema = z.object({
  effect: z.number().nullable(),
  low: z.number().nullable(),
  high: z.number().nullable(),
  tasks: z.number().int(),
  confidence: z.number(),
});

/** The registered settings and the design's constants a sequential test ran with: enough to replay its looks. */
export const designSettingsSchema = z.object({
  significance: z.number(),
  min_effect: z.number(),
  max_attempts: z.number().int(),
  beta: z.number(),
  gamma_alpha: z.number(),
  gamma_beta: z.number(),
  continuity: z.number(),
  /** A gate's test (issue 38): thresholds.significance for the whole run; `significance` above is it ÷ loop.max_iterations. */
  run_significance: z.number().optional(),
  max_iterations: z.number().int().optional(),
  /** A keep also needed the task-level t test over per-task differences. */
  task_level: z.boolean().optional(),
});

/** Rounds of held-out attempts on a noisy engine and what the sequential test decided (issue 27). */
export const sequentialSchema = z.object({
  method: z.string(),
  settings: designSettingsSchema,
  looks: z.array(lookSchema).min(1),
  /** keep: the candidate is better at the registered significance; stop: no evidence of it. */
  decision: z.enum(['keep', 'stop']),
  rounds: z.number().int().min(1),
  /** Attempts per held-out task per variant when the test stopped. */
  attempts: z.number().int().min(1),
  /** Every held-out task's attempts over all rounds, per variant. */
  tasks: z.array(z.object({ task_id: z.string(), candidate: counts, baseline: counts })),
  effect: effectSchema,
  /** Stage-wise p-value of the sequence (what Holm adjusts when a run gates several candidates). */
  p_value: z.number(),
  /** The design's power for min_effect at these tasks' pass chances, and the attempts that would reach 80%. */
  power: z.number().nullable(),
  attempts_for_80: z.number().int().nullable(),
  /** Calls the later rounds made (the guard's rounds included), what running every attempt to max_attempts would have cost, and the difference. */
  calls: z.object({ engine: z.number().int(), judge: z.number().int(), every_attempt: z.number().int(), saved: z.number().int() }),
  /**
   * The regression guard's rounds after the decision (issue 38 §5): the held-out tasks that still looked
   * worse, with only the attempts made after the decision. The gate tests each task on `tasks` plus these;
   * the looks and the effect count `tasks` alone. Absent in records written before it.
   */
  guard: z
    .object({
      rounds: z.number().int().min(0),
      tasks: z.array(z.object({ task_id: z.string(), candidate: counts, baseline: counts })),
      calls: z.object({ engine: z.number().int(), judge: z.number().int() }),
    })
    .optional(),
});
export type SequentialRecord = z.infer<typeof sequentialSchema>;
