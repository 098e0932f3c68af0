// A loop run's evaluation handed to shards (`evaluate.shards: N`): iter-NNN/shard-plan.json is the
// handoff (next_owner "shards"), and each shard leaves its directory under iter-NNN/shards/. What is in
// and what is missing is read from those directories alone, so `whet status`, `whet resume` and any
// machine holding a copy of the state agree on it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARD_FILE } from '../state/layout.js';

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
