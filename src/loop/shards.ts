// A loop run's evaluation handed to shards (`evaluate.shards: N`): iter-NNN/shard-plan.json is the
// handoff (next_owner "shards"), and each shard leaves its directory under iter-NNN/shards/. What is in
// and what is missing is read from those directories alone, so `whet status`, `whet resume` and any
// machine holding a copy of the state agree on it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SHARD_FILE } from '../evaluation/shard-manifest.js';

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

/** Shard indices present under `shardsDir` (from each shard.json's `covers`) and those still missing. */
export function shardsIn(shardsDir: string, total: number): { present: number[]; missing: number[] } {
  const present = new Set<number>();
  if (existsSync(shardsDir)) {
    for (const d of readdirSync(shardsDir)) {
      const file = join(shardsDir, d, SHARD_FILE);
      if (!existsSync(file)) continue;
      try {
        const covers = (JSON.parse(readFileSync(file, 'utf8')) as { covers?: unknown }).covers;
        if (Array.isArray(covers)) for (const i of covers) if (Number.isInteger(i)) present.add(i as number);
      } catch {
        // An unreadable manifest is not a shard that is in; the merge will name it if it is given.
      }
    }
  }
  const all = Array.from({ length: total }, (_, i) => i + 1);
  return { present: all.filter((i) => present.has(i)), missing: all.filter((i) => !present.has(i)) };
}
