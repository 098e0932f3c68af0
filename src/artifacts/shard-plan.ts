// iter-NNN/shard-plan.json: a loop run's evaluation handed to shards (`evaluate.shards: N`, next_owner
// "shards"): the candidate, how many shards, and the command each one runs. src/loop/shards.ts reads
// which shards are in from their directories alone.
import { z } from 'zod';

export const SHARD_PLAN_SCHEMA = 'whetstone.shard-plan/1';

export const shardPlanArtifact = z.strictObject({
  schema: z.literal(SHARD_PLAN_SCHEMA),
  stage: z.literal('shard_plan'),
  run_id: z.string(),
  iteration: z.number().int(),
  created_at: z.iso.datetime(),
  candidate_id: z.string(),
  /** The candidate the evaluation is of (what the runner hands back to evaluate once the shards are in). */
  selected: z.string(),
  total: z.number().int().min(2),
  verdict: z.literal('pending'),
  reason: z.string(),
  next_step: z.literal('evaluate_shards'),
  next_owner: z.literal('shards'),
  /** One command per shard, to run wherever a copy of the state directory is. */
  commands: z.array(z.string()),
});
export type ShardPlanArtifact = z.infer<typeof shardPlanArtifact>;
