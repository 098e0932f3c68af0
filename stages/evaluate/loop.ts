// The evaluate stage inside an improvement-loop run. Each iteration starts with the target measured as
// it is now (iter-NNN/baseline.json, usually a cache hit: a kept candidate was measured already), whose
// train-split failures feed the generator; later the selected candidate is measured against it
// (evaluation.json). Both reuse the standalone and pipeline machinery unchanged.
import { HANDOFF_END } from '../../src/artifacts/envelope.js';
import { writeRecordedArtifact } from '../../src/state/recorded.js';
import type { LoopContext, StageOutcome } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { singleThresholdFrom } from '../../src/config/eval-thresholds.js';
import { readSkill } from '../../src/skill/read.js';
import { appendEvent } from '../../src/state/events.js';
import { measure, standaloneFromMeasured } from '../../src/measure/measure.js';
import { runPipeline, weakBaselineWhy } from './pipeline.js';
import { standaloneEvaluation, type StandaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { prepare, type CandidateRequest } from '../../src/measure/setup.js';
import { evaluateContext } from '../../src/loop/evaluate-context.js';
import { evaluateThroughShards } from './loop-shards.js';

export async function evaluateLoopBaseline(ctx: LoopContext): Promise<StageOutcome | 'interrupted'> {
  const ectx = evaluateContext(ctx);
  const p = await prepare(ectx);
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  const skill = readSkill(ctx.manifest.target.skill_dir);
  const m = await measure(p, ectx, { skill, variant: 'baseline', dir: paths.dir, cacheable: true, budget: ctx.budget });
  if (m.outcome.interrupted) return 'interrupted';
  const measured = standaloneFromMeasured(p, skill, m, { runId: ctx.runId, iteration: ctx.iteration, now: ctx.now() });
  const base = tooWeak(measured, p.cfg.baselineMinPassRate, weakBaselineWhy(p).weakBaselineWhy);
  const summary = base.evaluation;
  const usable = base.verdict !== 'error';
  const artifact = { ...base, ...(usable ? { next_step: 'generate', next_owner: 'generator' } : HANDOFF_END.abort) };
  await writeRecordedArtifact(ctx.runDir, paths.baseline, standaloneEvaluation, artifact, ctx.now());
  appendEvent(ctx.runDir, { event: 'finished', stage: 'baseline', iteration: ctx.iteration, verdict: artifact.verdict, engine_calls: p.engine.calls() }, ctx.now());
  return {
    artifactPath: paths.baseline,
    verdict: artifact.verdict,
    next_step: artifact.next_step,
    next_owner: artifact.next_owner,
    summary: `baseline: pass rate ${summary.pass_rate === null ? '—' : summary.pass_rate.toFixed(4)} (${summary.passed}/${summary.passed + summary.failed})${m.cache.hit ? ' from cache' : ''}`,
    engineCalls: p.engine.calls(),
  };
}

/**
 * A baseline below evaluate.baseline_min_pass_rate means a broken suite (or skill): the candidate's
 * evaluation would refuse it anyway, so the loop stops here rather than after paying for generate and
 * discriminate.
 */
function tooWeak(base: StandaloneEvaluation, min: number, mockWhy: string | undefined): StandaloneEvaluation {
  const s = base.evaluation;
  if (base.verdict === 'error' || s.pass_rate === null || s.pass_rate >= min) return base;
  const why = mockWhy ? `${mockWhy}; nothing was generated` : 'the task suite (or the skill) is probably broken; nothing was generated — fix the suite or the skill, then start a new run';
  const reason = `baseline pass rate ${s.pass_rate.toFixed(4)} < evaluate.baseline_min_pass_rate ${min}: ${why}`;
  return { ...base, verdict: 'error', reason, evaluation: { ...s, verdict: 'error' } };
}

export async function evaluateLoopCandidate(ctx: LoopContext, candidateId: string): Promise<StageOutcome | 'interrupted'> {
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  // The run's threshold (registered; a flag's when the run started with one), not pipeline.yaml reread.
  const flagged = ctx.flags?.evalThreshold !== undefined || ctx.manifest.flags?.eval_threshold !== undefined;
  const ectx = evaluateContext(ctx);
  const req: CandidateRequest = {
    input: paths.ranking,
    candidateId,
    evalThreshold: ctx.config.evalThreshold,
    evalThresholdFrom: singleThresholdFrom(flagged),
    evalThresholds: ctx.config.evalThresholds,
  };
  const sharded = ctx.config.evaluateShards > 1 ? await evaluateThroughShards(ctx, ectx, req) : undefined;
  if (sharded && 'summary' in sharded) return sharded;
  const r = sharded ? sharded.merged : await runPipeline(ectx, req);
  if (r.interrupted) return 'interrupted';
  // Shards measure the first round only: said, since a noisy engine's gate then rests on one attempt per task.
  if (sharded && ctx.config.deterministic !== true && (ctx.manifest.mock !== true && ctx.config.engine?.type !== 'mock')) {
    ctx.log('whet: warning: a sharded evaluation runs no rounds of attempts on the held-out tasks: on a noisy engine the gate decides on the first measurement alone (set evaluate.shards: 1 for the sequential test)');
  }
  const a = r.artifact;
  const e = a.evaluation;
  const rates = 'execution_pass_rate' in e && e.execution_pass_rate !== null && e.baseline_pass_rate !== null ? ` ${e.execution_pass_rate.toFixed(4)} vs baseline ${e.baseline_pass_rate.toFixed(4)}` : '';
  const calls = 'candidate' in e ? (e.candidate?.engine_calls ?? 0) + (e.baseline?.engine_calls ?? 0) + (e.sequential?.calls.engine ?? 0) : 0;
  // Not run after the held-out test kept the candidate: the regression guard undid the keep (pipeline.ts).
  const train = 'train' in e && e.train?.measured === false ? (e.sequential?.decision === 'keep' ? '; train tasks not run (the regression guard will undo the keep)' : '; train tasks not run (they wait for a keep)') : '';
  return { artifactPath: r.artifactPath, verdict: a.verdict, next_step: a.next_step, next_owner: a.next_owner, summary: `evaluate ${candidateId}: ${a.verdict}${rates}${train}`, engineCalls: calls };
}
