// shard.json: what one shard of an evaluation measured and on what, so `whet merge` can prove that every
// shard measured the same thing before it adds their results up. `content` holds the hashes that must
// agree across shards (the merge names the first field that does not); `covers` the shard indices the
// directory holds (one for a shard, several for a partial merge), so merges of merges add up the same way.
import { z } from 'zod';
import { canonicalJson, sha256 } from '../state/artifact-io.js';

export const SHARD_SCHEMA = 'whetstone.shard/1';
export { SHARD_FILE } from '../state/layout.js';

export const shardContent = z.strictObject({
  mode: z.enum(['standalone', 'pipeline']),
  /** The skill evaluated (standalone) or the target the candidate is compared with (pipeline). */
  skill: z.string(),
  candidate: z.string().nullable(),
  candidate_id: z.string().nullable(),
  /** The suite's bytes plus every fixture file its judges name (src/config/suite.ts). */
  suite: z.string(),
  engine: z.string(),
  judge_engine: z.string().nullable(),
  /** Thresholds and the other decision settings (min pass rates, eval threshold). */
  thresholds: z.string(),
  pass_k: z.number().int(),
  task_timeout_ms: z.number(),
  whetstone_version: z.string(),
  total: z.number().int().min(1),
  plan: z.string(),
});
export type ShardContent = z.infer<typeof shardContent>;

export const shardVariant = z.strictObject({
  name: z.string(),
  /** Relative to the directory holding shard.json. */
  results: z.string(),
  engine_calls: z.number().int().min(0),
  judge_calls: z.number().int().min(0),
  attempts: z.number().int().min(0),
});

export const shardManifest = z.strictObject({
  schema: z.literal(SHARD_SCHEMA),
  run_id: z.string(),
  created_at: z.iso.datetime(),
  covers: z.array(z.number().int().min(1)).min(1),
  content: shardContent,
  plan: z.strictObject({ balanced_by: z.enum(['duration', 'count']), loads: z.array(z.number()) }),
  /** How the shard was invoked (paths as given), so a merge can load the same suite and skill again. */
  invocation: z.strictObject({
    task_suite: z.string(),
    skill_path: z.string().nullable(),
    input: z.string().nullable(),
    config: z.string().nullable(),
    pass_k: z.number().int().nullable(),
    mock: z.boolean(),
    /** A target of `whet baseline|nightly --shard`: its skill and suite relative to pipeline.yaml's folder. */
    target: z.strictObject({ skill: z.string(), suite: z.string() }).nullable(),
  }),
  /** The task ids the covered shards ran, sorted. */
  tasks: z.array(z.string()),
  variants: z.array(shardVariant),
  /** Pipeline mode: the candidate was skipped before any task ran (its score was below the threshold). */
  skipped: z.string().optional(),
});
export type ShardManifest = z.infer<typeof shardManifest>;

export const hashOf = (value: unknown) => sha256(canonicalJson(value));

/** The first content field two shards disagree on, or undefined when they agree on all of them. */
export function contentDiff(a: ShardContent, b: ShardContent): keyof ShardContent | undefined {
  for (const k of Object.keys(a) as (keyof ShardContent)[]) if (a[k] !== b[k]) return k;
  return undefined;
}
