// What a shard measured on, as the hashes its manifest records (src/evaluation/shard-manifest.ts), and the
// plan of which task runs where. The shard and the merge both compute these from a prepared evaluation,
// so a merge proves its own checkout holds what the shards measured.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { thresholdsHash } from '../config/thresholds.js';
import { UsageError } from '../core/errors.js';
import { hashOf, type ShardContent } from '../evaluation/shard-manifest.js';
import { meanDurations, planShards, type ShardPlan } from '../evaluation/shard-plan.js';
import { readResults } from '../state/results-log.js';
import type { LoadedSkill } from '../skill/read.js';
import { VERSION } from '../core/package-info.js';
import type { EvaluateContext, Prepared } from './setup.js';

export function shardContentOf(
  p: Prepared,
  a: { mode: 'standalone' | 'pipeline'; skill: LoadedSkill; candidate?: LoadedSkill; candidateId?: string; evalThreshold?: number; total: number; plan: string },
): ShardContent {
  return {
    mode: a.mode,
    skill: a.skill.contentHash,
    candidate: a.candidate?.contentHash ?? null,
    candidate_id: a.candidateId ?? null,
    suite: p.suite.contentHash,
    engine: hashOf(p.engine.identity()),
    judge_engine: p.judgeEngine ? hashOf(p.judgeEngine.identity()) : null,
    thresholds: hashOf({
      thresholds: thresholdsHash(p.cfg.thresholds),
      standalone_min_pass_rate: p.cfg.standaloneMinPassRate,
      baseline_min_pass_rate: p.cfg.baselineMinPassRate,
      eval_threshold: a.evalThreshold ?? p.cfg.evalThreshold,
    }),
    pass_k: p.passK,
    task_timeout_ms: p.cfg.taskTimeoutMs,
    whetstone_version: VERSION,
    total: a.total,
    plan: a.plan,
  };
}

/** The plan for n shards: by recorded durations when `--shard-durations` names an earlier results log. */
export async function planFor(ctx: EvaluateContext, p: Prepared, total: number, file?: string): Promise<ShardPlan> {
  let durations: Map<string, number> | undefined;
  if (file) {
    const path = resolve(ctx.cwd, file);
    if (!existsSync(path)) throw new UsageError(`--shard-durations ${file}: no such file (an earlier run's results/<variant>.jsonl)`);
    const lines: { task_id: string; duration_ms: number }[] = [];
    await readResults(path, (l) => lines.push({ task_id: l.task_id, duration_ms: l.duration_ms }));
    durations = meanDurations(lines);
    const missing = p.suite.tasks.filter((t) => !durations!.has(t.id)).length;
    if (missing > 0) ctx.log(`--shard-durations: ${missing} task(s) have no recorded duration; balancing by attempt count instead`);
  }
  return planShards(
    p.suite.tasks.map((t) => ({ id: t.id, attempts: t.passK ?? p.passK })),
    total,
    durations,
  );
}
