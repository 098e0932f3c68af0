// `whet baseline --shard i/n` and `whet nightly --shard i/n`: shard i of every target in pipeline.yaml,
// each target split on its own (the same plan a standalone `--shard i/n` of it makes), all under one
// concurrency limit as `whet baseline` runs them. No verdict, no report: `whet merge` (or `whet nightly
// --merge`) over all n shard directories gives each target its baseline, grouped by target.
import { relative } from 'node:path';
import { UsageError } from '../core/errors.js';
import type { RunEnv } from '../core/run-env.js';
import { runShard, type ShardResult } from '../measure/shard.js';
import { parseShardSpec } from '../evaluation/shard-plan.js';
import { canonicalJson } from '../state/artifact-io.js';
import { runMerge } from '../measure/merge.js';
import { collectShards } from '../measure/shard-sources.js';
import type { StandaloneEvaluation } from '../artifacts/evaluation.js';
import { forEachTarget, openTargets, type baselineAll, type TargetBaseline } from './baseline.js';

export async function shardTargets(
  e: RunEnv,
  o: { config?: string; stateRoot?: string; mock?: boolean; shard: string; shardDurations?: string },
): Promise<{ results: ShardResult[]; interrupted: boolean }> {
  parseShardSpec(o.shard);
  const { results } = await forEachTarget(e, o, `whet baseline --shard ${o.shard}`, (ctx, t, { cfg }) =>
    runShard(ctx, {
      shard: o.shard,
      ...(o.shardDurations ? { durations: o.shardDurations } : {}),
      // Relative to pipeline.yaml, so a merge on another checkout finds the same target.
      target: { skill: relative(cfg.dir, t.skillDir), suite: relative(cfg.dir, t.suitePath) },
      of: { mode: 'standalone', skillPath: t.skillDir },
    }),
  );
  return { results, interrupted: results.some((r) => r.interrupted) };
}

/**
 * `whet nightly --merge DIR…`: every target's shards merged (as `whet merge` does) into the baselines a
 * `whet nightly` would have measured, for the night's report. A target of pipeline.yaml with no shards
 * among the directories is refused: a night that silently skipped a target would read as no drift.
 */
export function mergedBaselines(dirs: string[], verify?: (shardDirs: string[]) => Promise<void>): typeof baselineAll {
  return async (e, o) => {
    const { cfg, targets, stateDir } = await openTargets(e, o);
    // Every target must have shards before anything is merged, so a refused night writes nothing.
    const groups = await collectShards(e.cwd, dirs, false);
    groups[0]?.cleanup();
    const have = new Set(groups.map((g) => canonicalJson(g.shards[0]!.manifest.invocation.target)));
    for (const t of targets) {
      if (!have.has(canonicalJson({ skill: relative(cfg.dir, t.skillDir), suite: relative(cfg.dir, t.suitePath) }))) {
        throw new UsageError(`target ${relative(cfg.dir, t.skillDir) || '.'} (suite ${relative(cfg.dir, t.suitePath)}) has no shards among ${dirs.join(' ')}; a night must measure every target`);
      }
    }
    const merged = await runMerge({ cwd: e.cwd, env: e.env, now: e.now, log: e.log, signal: e.signal, source: { stateRoot: stateDir, config: cfg.path, mock: o.mock } }, { dirs, ...(verify ? { verify } : {}) });
    const results: TargetBaseline[] = [];
    const same = (a: unknown, b: unknown) => canonicalJson(a ?? null) === canonicalJson(b ?? null);
    for (const t of targets) {
      const m = merged.find((r) => !r.partial && r.request.mode === 'standalone' && r.request.skillPath === t.skillDir && r.source.taskSuite === t.suitePath && same(r.source.engine, t.engine));
      if (!m || m.partial) throw new UsageError(`target ${relative(cfg.dir, t.skillDir) || '.'} (suite ${relative(cfg.dir, t.suitePath)}) has no shards among ${dirs.join(' ')}; a night must measure every target`);
      results.push({ target: t, run_id: m.artifact.run_id, artifact: m.artifact as StandaloneEvaluation, artifactPath: m.artifactPath });
    }
    return { cfg, stateDir, results, interrupted: false };
  };
}
