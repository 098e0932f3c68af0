// gate.json: the decision on the evaluated candidate, with every check's result, so `whet show` can
// explain it from the artifact alone.
import { z } from 'zod';
import { envelope } from './envelope.js';
import { safeId } from '../config/safe-id-schema.js';

export const check = z.object({ id: z.string(), passed: z.boolean(), detail: z.string() });
export type Check = z.infer<typeof check>;

export const gateArtifact = envelope.extend({
  schema: z.literal('whetstone.gate/1'),
  stage: z.literal('gated'),
  /** keep (applied), reject, pending_review (a person decides), refused (inputs inconsistent), none (nothing evaluated). */
  decision: z.enum(['keep', 'reject', 'pending_review', 'refused', 'none']),
  candidate_id: safeId.nullable(),
  reason: z.string(),
  checks: z.array(check),
  thresholds: z.record(z.string(), z.unknown()),
  holdout: z
    .object({
      tasks: z.number().int(),
      /** null: no held-out task judged on both (not measured; gates before issue 28 wrote 0). */
      candidate_pass_rate: z.number().nullable(),
      baseline_pass_rate: z.number().nullable(),
      delta: z.number().nullable(),
      fixes: z.array(z.string()),
      regressions: z.array(z.string()),
      p_value: z.number(),
      /**
       * Written by gates before issue 38: Holm-adjusted p over the candidates gated so far in the run. Now
       * `run_level` holds the run's correction (each candidate at significance ÷ max_iterations).
       */
      p_value_holm: z.number().optional(),
      /** How many candidates that family held (gates before issue 38). */
      tests_in_run: z.number().int().optional(),
      /** On a noisy engine: the effect on attempt shares and its interval (evaluation.json's sequential.effect). */
      effect_ci95: z.object({ low: z.number().nullable(), high: z.number().nullable() }).optional(),
    })
    .optional(),
  /** On a noisy engine: the rounds the decision took, what they cost and saved, and the decision in words. */
  sequential: z
    .object({
      decision: z.enum(['keep', 'stop']),
      rounds: z.number().int(),
      attempts: z.number().int(),
      max_attempts: z.number().int(),
      engine_calls: z.number().int(),
      judge_calls: z.number().int(),
      calls_every_attempt: z.number().int(),
      calls_saved: z.number().int(),
      power: z.number().nullable(),
      min_effect: z.number(),
      attempts_for_80: z.number().int().nullable(),
      words: z.string(),
    })
    .optional(),
  /**
   * The run-level claim (issue 38): every candidate of a run is tested at significance ÷ loop.max_iterations,
   * so a run ends having kept an edit that does nothing at most `significance` of the time. `enforced`
   * is false on the mock engine alone (a demonstration: its test is shown, not required).
   */
  run_level: z.object({ significance: z.number(), max_iterations: z.number().int(), per_candidate: z.number(), enforced: z.boolean() }).optional(),
  applied: z
    .object({ target: z.string(), backup: z.string(), sha256_before: z.string(), sha256_after: z.string(), files: z.array(z.string()) })
    .optional(),
});
export type GateArtifact = z.infer<typeof gateArtifact>;
