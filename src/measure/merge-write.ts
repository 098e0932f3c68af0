// What a merge writes once every check has passed: the artifact where the unsharded stage writes it (a
// standalone run's evaluation.json, or the iteration's evaluation.json in pipeline mode, with its handoff),
// the union of the results logs beside it, and a shard.json covering every shard so the merged directory
// can itself be merged or resumed.
import { join, resolve } from 'node:path';
import { writeArtifact } from '../state/artifact-io.js';
import { summarizeVariant } from '../evaluation/summary.js';
import { runTotals } from '../evaluation/run-usage.js';
import type { LoadedSkill } from '../skill/read.js';
import { copyFileAtomically } from '../core/atomic.js';
import { appendEvent } from '../state/events.js';
import { stateLayout } from '../state/layout.js';
import { newRunId, prepareResultsFile, writeRunManifest } from '../state/runs.js';
import type { ShardManifest } from '../evaluation/shard-manifest.js';
import type { Measured } from './measure.js';
import type { Sources } from './shard-sources.js';
import { standaloneFromMeasured } from './measure.js';
import { pipelineInputs, recordCandidateSource, writePipelineEvaluation } from './pipeline-inputs.js';
import { evaluationManifest, openPipelineRun } from './run-manifest.js';
import { standaloneEvaluation, type EvaluationArtifact } from '../artifacts/evaluation.js';
import { engineNoise, evaluationKey, type EvaluateContext, type MeasureRequest, type MeasureSource, type Prepared } from './setup.js';
import { pipelineArtifact, tooManyErrors } from './verdict.js';

/** Everything a merge has read and checked, handed to the writers below. */
export type MergeBundle = {
  p: Prepared;
  src: Sources;
  first: ShardManifest;
  measured: Map<string, Measured>;
  /** Writes the union of the results and a shard.json covering all shards into `dir` (a merge of merges). */
  write: (dir: string) => Promise<void>;
};

export type MergeResult =
  | { partial: true; manifestPath: string; covers: number[]; total: number; tasks: number }
  | { partial: false; interrupted: false; artifactPath: string; artifact: EvaluationArtifact; shards: number; source: MeasureSource; request: MeasureRequest };

export async function writeMergedStandalone(ctx: EvaluateContext, b: MergeBundle, skill: LoadedSkill, request: MeasureRequest): Promise<MergeResult> {
  const { p } = b;
  const now = ctx.now();
  const runId = newRunId(p.stateDir, `standalone-${p.suite.skillId}`, now);
  const runDir = stateLayout.runDir(p.stateDir, runId);
  const key = evaluationKey(p, skill);
  const manifest = { ...evaluationManifest('standalone', runId, p, skill, undefined, now), evaluation_key: key };
  await writeRunManifest(runDir, manifest);
  appendEvent(runDir, { event: 'started', stage: 'evaluate', mode: 'standalone', merged_shards: b.src.total }, now);
  // The .meta.json first: the results then belong to this content, so an unsharded re-run resumes them.
  await prepareResultsFile(runDir, 'baseline', key, now);
  await b.write(runDir);
  const artifact = standaloneFromMeasured(p, skill, b.measured.get('baseline')!, { runId, iteration: 0, now: ctx.now() });
  await writeArtifact(join(runDir, 'evaluation.json'), standaloneEvaluation, artifact);
  const output = ctx.settings?.output;
  if (output) await copyFileAtomically(join(runDir, 'evaluation.json'), resolve(ctx.cwd, output));
  const summary = { verdict: artifact.verdict, engine_calls: artifact.evaluation.engine_calls, totals: runTotals(runDir) };
  await writeRunManifest(runDir, { ...manifest, status: artifact.evaluation.attempts.errors > 0 ? 'incomplete' : 'completed', updated_at: ctx.now().toISOString(), summary });
  appendEvent(runDir, { event: 'finished', stage: 'evaluate', verdict: artifact.verdict, merged_shards: b.src.total }, ctx.now());
  return { partial: false, interrupted: false, artifactPath: output ? resolve(ctx.cwd, output) : join(runDir, 'evaluation.json'), artifact, shards: b.src.shards.length, source: ctx.source, request };
}

export async function writeMergedPipeline(ctx: EvaluateContext, b: MergeBundle, pi: ReturnType<typeof pipelineInputs>, request: MeasureRequest): Promise<MergeResult> {
  const { p } = b;
  const now = ctx.now();
  const { bits, candidate, evalThreshold, score, iterDir, runDir, iteration } = pi;
  const head = { bits, candidateId: candidate.id, candidateScore: score, evalThreshold, baselineMinPassRate: p.cfg.baselineMinPassRate, maxErrorShare: p.cfg.maxErrorShare };
  let artifact;
  if (b.first.skipped) {
    artifact = pipelineArtifact({ ...head, skippedReason: b.first.skipped });
  } else {
    const base = b.measured.get('baseline')!;
    const cand = b.measured.get(candidate.id)!;
    const baseSummary = summarizeVariant(base.outcome, p.passK);
    // The unsharded stage's rule: an unusable baseline means the candidate is not run. The shards ran it
    // (none of them could know the baseline's rate), so its results are left out of the artifact.
    const baseBroken =
      baseSummary.passed + baseSummary.failed === 0 || (baseSummary.pass_rate ?? 0) < p.cfg.baselineMinPassRate || tooManyErrors(baseSummary, p.cfg.maxErrorShare) !== undefined;
    artifact = pipelineArtifact({
      ...head,
      cache: base.cache,
      candidateCache: baseBroken ? undefined : cand.cache,
      measured: {
        candidate: baseBroken ? undefined : { summary: summarizeVariant(cand.outcome, p.passK), tallies: cand.outcome.tallies },
        baseline: { summary: baseSummary, tallies: base.outcome.tallies },
      },
    });
    // As the unsharded stage records it; shards run no rounds (the loop says so when the engine is noisy).
    artifact.evaluation.engine_noise = engineNoise(p);
  }
  const run = await openPipelineRun(runDir, pi.ranking.run_id, p, pi.target, now);
  appendEvent(runDir, { event: 'started', stage: 'evaluate', iteration, candidate: candidate.id, merged_shards: b.src.total }, now);
  for (const name of b.measured.keys()) await prepareResultsFile(iterDir, name, evaluationKey(p, name === 'baseline' ? pi.target : pi.candSkill), now);
  await b.write(iterDir);
  recordCandidateSource(artifact, pi);
  const artifactPath = await writePipelineEvaluation(ctx, p, iterDir, artifact);
  appendEvent(runDir, { event: 'finished', stage: 'evaluate', iteration, verdict: artifact.verdict, merged_shards: b.src.total }, ctx.now());
  await run.finish('completed', ctx.now());
  return { partial: false, interrupted: false, artifactPath, artifact, shards: b.src.shards.length, source: ctx.source, request };
}
