// A ranked candidate's evaluation, what pipeline mode, its shards and their merge share: the ranking, the
// candidate and the target it names and where its results go (`pipelineInputs`, every check before the
// state dir is touched), the envelope's inputs, and how the artifact records its candidate and is written
// (iter-NNN/evaluation.json, with the judges' calibration). Kept in the evaluation service so the evaluate
// stage (stages/evaluate/pipeline.ts), `whet evaluate --shard` and `whet merge` build them one way.
import { measuredSkillId } from '../config/trigger-engine.js';
import { writeFileAtomically } from '../core/atomic.js';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { sha256File } from '../state/artifact-io.js';
import { writeRecordedArtifact } from '../state/recorded.js';
import { loadYaml } from '../config/load-yaml.js';
import { UsageError } from '../core/errors.js';
import { evalThresholdFor } from '../config/eval-thresholds.js';
import { readSkill, skillFromText, type LoadedSkill } from '../skill/read.js';
import { stateLayout } from '../state/layout.js';
import { supersedeFile } from '../state/runs.js';
import { judgeCalibrations, withCorrectedRates } from '../evaluation/judge-calibration.js';
import { resolveCandidate, type CandidateSource } from './candidate.js';
import { pipelineEvaluation, rankingInput, type PipelineEvaluation } from '../artifacts/evaluation.js';
import { engineInfo, type CandidateRequest, type EvaluateContext, type Prepared } from './setup.js';
import type { EnvelopeBits } from './verdict.js';

/** Which threshold applied and what the candidate was made from: the same for sharded and unsharded runs. */
export function recordCandidateSource(artifact: PipelineEvaluation, pi: ReturnType<typeof pipelineInputs>, variantPath?: string): void {
  artifact.eval_threshold_from = pi.evalThresholdFrom;
  artifact.candidate_source = {
    kind: pi.source.kind,
    ...(variantPath ? { variant_path: variantPath } : {}),
    ...(pi.source.kind === 'seed_plan' ? { actions: pi.source.actions.map((a) => a.type) } : {}),
  };
}

/** Writes iter-NNN/evaluation.json (and --output), with the judges' calibration; returns where it is for the user. */
export async function writePipelineEvaluation(ctx: EvaluateContext, p: Prepared, iterDir: string, artifact: PipelineEvaluation): Promise<string> {
  const cals = judgeCalibrations(p.suite, p.stateDir, p.judgeEngine);
  if (cals.length) artifact.judge_calibration = withCorrectedRates(cals, artifact.candidate_results, p.suite);
  const inIter = join(iterDir, 'evaluation.json');
  // A second evaluation of the same run and iteration (another candidate, a re-run) must not erase the
  // first one's verdict: it goes to superseded/ like the results it was computed from.
  const moved = supersedeFile(iterDir, inIter, ctx.now());
  if (moved) ctx.log(`previous evaluation.json moved to ${moved}`);
  await writeRecordedArtifact(dirname(iterDir), inIter, pipelineEvaluation, artifact, ctx.now());
  const output = ctx.settings?.output;
  // The same validated bytes, not a second validation and serialisation of a possibly large artifact.
  if (output) await writeFileAtomically(resolve(ctx.cwd, output), readFileSync(inIter));
  return output ? resolve(ctx.cwd, output) : inIter;
}

/**
 * The ranking, the candidate and the target it names, and where its results go: what shards share too.
 * Every check of the candidate (a seed plan that does not apply included) happens here, before the state
 * dir is touched. `candSkill` is the candidate as text until runPipeline writes an inline or seed-plan
 * candidate's variant folder under the lock (candidateSkill); a variant folder is final already.
 */
export function pipelineInputs(ctx: EvaluateContext, p: Prepared, o: CandidateRequest) {
  const rankingPath = resolve(ctx.cwd, o.input);
  // The located loader (JSON is YAML) so a bad ranking points at its line and column like a bad suite.
  const loaded = loadYaml(rankingPath, rankingInput, 'ranking');
  const ranking = loaded.value;
  const rankingDir = dirname(rankingPath);
  const index = ranking.scored_candidates.findIndex((c) => c.id === o.candidateId);
  const candidate = ranking.scored_candidates[index];
  if (!candidate) {
    const ids = ranking.scored_candidates.map((c) => c.id).join(', ') || '(none)';
    throw new UsageError(`candidate "${o.candidateId}" is not in ${o.input}; its candidates: ${ids}`);
  }
  // Both paths in a ranking are relative to the ranking's folder (absolute ones stay as they are), so a
  // ranking means the same files whichever directory whet is started from.
  const target = readSkill(resolve(rankingDir, ranking.target.path));
  const source: CandidateSource = resolveCandidate(loaded, index, rankingDir, target);
  const candSkill = source.kind === 'variant' ? source.skill : skillFromText(source.text, target.name);

  const thresholdSettings = { evalThreshold: p.cfg.evalThreshold, evalThresholds: o.evalThresholds ?? p.cfg.evalThresholds };
  const { value: evalThreshold, from: evalThresholdFrom } = evalThresholdFor(candidate.category, thresholdSettings, o.evalThreshold, o.evalThresholdFrom);
  const iteration = ranking.iteration ?? 1;
  // A ranking inside the state dir keeps its iteration folder; one from elsewhere gets the standard one.
  const inState = basename(rankingDir).startsWith('iter-') && dirname(dirname(rankingDir)) === stateLayout.runsDir(p.stateDir);
  const runDir = inState ? dirname(rankingDir) : stateLayout.runDir(p.stateDir, ranking.run_id);
  const iterDir = inState ? rankingDir : stateLayout.iterDir(runDir, iteration);
  const bits = envelopeBits(ctx, p, { rankingPath, runId: ranking.run_id, iteration, target, candSkill });
  const score = candidate.score ?? null;
  return { ranking, candidate, target, source, candSkill, evalThreshold, evalThresholdFrom, iteration, runDir, iterDir, bits, score, rankingPath };
}

/** The envelope of a ranked candidate's evaluation: its run, iteration and the hashes of what it measured on. */
export function envelopeBits(
  ctx: EvaluateContext,
  p: Prepared,
  o: { rankingPath: string; runId: string; iteration: number; target: LoadedSkill; candSkill: LoadedSkill },
): EnvelopeBits {
  return {
    run_id: o.runId,
    iteration: o.iteration,
    created_at: ctx.now().toISOString(),
    inputs: { 'ranking.json': sha256File(o.rankingPath), suite: p.suite.contentHash, target: o.target.contentHash, candidate: o.candSkill.contentHash },
    task_suite: p.suite.path,
    ...(p.suiteCopy ? { suite_copy: p.suiteCopy.info } : {}),
    skill_id: measuredSkillId(p.suite, o.target.name),
    pass_k: p.passK,
    engine: engineInfo(p.engine)!,
    judge_engine: engineInfo(p.judgeEngine),
  };
}
