// `evaluate.shards: N` in a loop run. The first time the evaluate stage comes to the candidate it writes
// iter-NNN/shard-plan.json — the handoff, next_owner "shards" — and runs nothing; each shard then runs
// with `whet evaluate --run R --shard i/N` wherever a copy of the state is, leaving its directory under
// iter-NNN/shards/; once all are in, the runner comes back here (`whet resume`) and the merge writes
// evaluation.json exactly as the unsharded stage would, so the gate decides on the same artifact.
import { existsSync } from 'node:fs';
import { writeArtifact } from '../../src/state/artifact-io.js';
import type { LoopContext, StageOutcome } from '../../src/loop/context.js';
import { openRun } from '../../src/loop/open.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { SHARD_PLAN_SCHEMA, shardPlanArtifact } from '../../src/artifacts/shard-plan.js';
import { readArtifact } from '../../src/state/artifact-io.js';
import type { RunEnv } from '../../src/core/run-env.js';
import { appendEvent } from '../../src/state/events.js';
import { UsageError } from '../../src/core/errors.js';
import { runMerge } from '../../src/measure/merge.js';
import type { CandidateRequest, EvaluateContext, StageResult } from '../../src/measure/setup.js';
import { runShard, type ShardResult } from '../../src/measure/shard.js';
import { evaluateContext } from '../../src/loop/evaluate-context.js';

export async function evaluateThroughShards(ctx: LoopContext, ectx: EvaluateContext, req: CandidateRequest): Promise<StageOutcome | { merged: StageResult }> {
  const candidateId = req.candidateId;
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  const n = ctx.config.evaluateShards;
  if (!existsSync(paths.shardPlan)) {
    const state = ctx.stateDir;
    const commands = Array.from({ length: n }, (_, i) => `whet evaluate --run ${ctx.runId} --shard ${i + 1}/${n} --state-root ${state}`);
    const reason = `the evaluation of ${candidateId} is handed to ${n} shards: run each command where a copy of the state is, bring its directory back under ${paths.shards}, then whet resume ${ctx.runId}`;
    await writeArtifact(paths.shardPlan, shardPlanArtifact, {
      schema: SHARD_PLAN_SCHEMA,
      stage: 'shard_plan',
      run_id: ctx.runId,
      iteration: ctx.iteration,
      created_at: ctx.now().toISOString(),
      candidate_id: candidateId,
      selected: candidateId,
      total: n,
      verdict: 'pending',
      reason,
      next_step: 'evaluate_shards',
      next_owner: 'shards',
      commands,
    });
    appendEvent(ctx.runDir, { event: 'handed_to_shards', stage: 'evaluate', iteration: ctx.iteration, shards: n }, ctx.now());
    return { artifactPath: paths.shardPlan, verdict: 'pending', next_step: 'evaluate_shards', next_owner: 'shards', summary: `evaluate ${candidateId}: handed to ${n} shards`, engineCalls: 0 };
  }
  const [r] = await runMerge(ectx, { dirs: [paths.shards], input: req.input, thresholds: { evalThreshold: req.evalThreshold, evalThresholdFrom: req.evalThresholdFrom, evalThresholds: req.evalThresholds } });
  if (!r || r.partial) throw new UsageError(`the shards under ${paths.shards} did not merge into an evaluation`);
  return { merged: r };
}

/** `whet evaluate --run R --shard i/N`: one shard of a run's handed-over evaluation, in the run's own context. */
export async function runLoopShard(e: RunEnv, o: { stateDir: string; runId: string; shard: string; concurrency?: number }): Promise<ShardResult> {
  const ctx = await openRun(e, { stateDir: o.stateDir, runId: o.runId });
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  if (!existsSync(paths.shardPlan)) throw new UsageError(`run ${o.runId} has no evaluation handed to shards in iteration ${ctx.iteration} (no ${paths.shardPlan}); set evaluate.shards in pipeline.yaml and whet run`);
  const plan = readArtifact(paths.shardPlan, shardPlanArtifact, 'shard plan');
  const total = Number(o.shard.split('/')[1]);
  if (total !== plan.total) throw new UsageError(`--shard ${o.shard}: run ${o.runId} was handed to ${plan.total} shards, not ${o.shard.split('/')[1]}`);
  const ectx = evaluateContext(ctx, o.concurrency ? { concurrency: o.concurrency } : undefined);
  return runShard({ ...ectx, lockHeld: false }, { shard: o.shard, of: { mode: 'pipeline', input: paths.ranking, candidateId: plan.candidate_id, evalThreshold: ctx.config.evalThreshold } });
}
