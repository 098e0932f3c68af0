// ranking.json: every candidate scored cheaply (0–10, the scale of --eval-threshold) with a
// recommendation and its reasons, and the one the evaluate stage should measure. Its candidate entries are
// what the evaluate stage reads (`scored_candidates[].id / score / variant_path`).
import { z } from 'zod';
import { envelope } from './envelope.js';
import { changeCategory, risk } from './vocabulary.js';
import { innerPath, safeId } from '../config/safe-id-schema.js';

export const scoredCandidate = z.object({
  id: safeId,
  score: z.number().min(0).max(10),
  recommendation: z.enum(['evaluate', 'hold', 'reject']),
  reasons: z.array(z.string()).min(1),
  category: changeCategory,
  risk,
  variant_path: innerPath,
  /** This candidate's own eval threshold, when its category has one (evaluate.eval_thresholds). */
  eval_threshold: z.number().optional(),
  eval_threshold_from: z.string().optional(),
  /** Optional pre-check on a few train tasks: candidate vs baseline passes. */
  minibatch: z.object({ tasks: z.array(z.string()), candidate_passed: z.number().int(), baseline_passed: z.number().int() }).optional(),
  /** The optional llm judge's rating (its adjustment is parts.llm_judge), or why it gave none. */
  llm_judge: z.union([z.object({ rating: z.number().min(0).max(10), reason: z.string(), adjustment: z.number() }), z.object({ error: z.string() })]).optional(),
  /** The score's parts, so the formula can be checked from the artifact (score.ts documents it). */
  parts: z.record(z.string(), z.number()).optional(),
});
export type ScoredCandidate = z.infer<typeof scoredCandidate>;

export const rankingArtifact = envelope.extend({
  schema: z.literal('whetstone.ranking/1'),
  stage: z.literal('ranked'),
  target: z.object({ path: z.string() }),
  eval_threshold: z.number(),
  /** Per-category eval thresholds the run registered (a category not listed uses eval_threshold). */
  eval_thresholds: z.record(z.string(), z.number()).optional(),
  scored_candidates: z.array(scoredCandidate),
  /** The candidate to evaluate this iteration; null when none is recommended (then next_step is learn). */
  selected: safeId.nullable(),
  /** Why nothing was selected, when nothing was. */
  reason: z.string().optional(),
  /** The target's structure score the gains were measured from. */
  target_structure: z.number().min(0).max(1).optional(),
  /** The llm judge, when loop.discriminate.llm_judge is on: its engine, its calls and every error. */
  llm_judge: z
    .object({
      engine: z.string(),
      engine_calls: z.number().int().min(0),
      cost_usd: z.number().min(0),
      errors: z.array(z.object({ candidate: safeId, error: z.string() })),
    })
    .optional(),
  /** Calls the llm judge and the minibatch pre-check made, and their cost (for the learner's budget totals). */
  engine_calls: z.number().int().min(0).optional(),
  cost_usd: z.number().min(0).optional(),
});
export type RankingArtifact = z.infer<typeof rankingArtifact>;
