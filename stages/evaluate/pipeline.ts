// Pipeline mode: evaluate one ranked candidate against the baseline (the target as it is now) on the
// same tasks. The candidate's own files are what reach the engine — its materialised variant folder, or
// the content carried in the ranking — and never the original in its place (the seed's fatal bug).
import { writeFileAtomically } from '../../src/state/atomic.js';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { sha256File, writeArtifact } from '../../src/artifacts/io.js';
import { loadYaml } from '../../src/config/load-yaml.js';
import { ConfigError, UsageError } from '../../src/errors.js';
import { summarizeVariant } from '../../src/evaluation/summary.js';
import { readSkill, skillFromText, type LoadedSkill } from '../../src/skill/read.js';
import { appendEvent } from '../../src/state/events.js';
import { stateLayout } from '../../src/state/layout.js';
import { acquireStateLock } from '../../src/state/lock.js';
import { supersedeFile } from '../../src/state/runs.js';
import { openPipelineRun } from './run-manifest.js';
import { measure } from './measure.js';
import { judgeCalibrations, withCorrectedRates } from '../../src/evaluation/judge-calibration.js';
import { pipelineEvaluation, rankingInput, type RankingInput } from './schema.js';
import { budgetFor, engineInfo, prepare, type EvaluateContext, type StageResult } from './setup.js';
import { pipelineArtifact, tooManyErrors, type EnvelopeBits } from './verdict.js';

type Candidate = RankingInput['scored_candidates'][number];

export async function runPipeline(ctx: EvaluateContext): Promise<StageResult> {
  const o = ctx.options;
  if (!o.input || !o.candidateId) throw new UsageError('pipeline mode needs --input RANKING.json and --candidate-id ID (or use --standalone)');
  if (o.skillPath) throw new UsageError('--skill-path belongs to --standalone; in pipeline mode the target comes from the ranking');
  const p = await prepare(ctx);
  const rankingPath = resolve(ctx.cwd, o.input);
  // The located loader (JSON is YAML) so a bad ranking points at its line and column like a bad suite.
  const ranking = loadYaml(rankingPath, rankingInput, 'ranking').value;
  const rankingDir = dirname(rankingPath);
  const candidate = ranking.scored_candidates.find((c) => c.id === o.candidateId);
  if (!candidate) {
    const ids = ranking.scored_candidates.map((c) => c.id).join(', ') || '(none)';
    throw new UsageError(`candidate "${o.candidateId}" is not in ${o.input}; its candidates: ${ids}`);
  }
  // Both paths in a ranking are relative to the ranking's folder (absolute ones stay as they are), so a
  // ranking means the same files whichever directory whet is started from.
  const target = readSkill(resolve(rankingDir, ranking.target.path));
  const candSkill = candidateSkill(candidate, rankingDir, target);
  if (candSkill.contentHash === target.contentHash) ctx.log(`warning: candidate ${candidate.id} is byte-identical to the target`);

  const evalThreshold = o.evalThreshold ?? p.cfg.evalThreshold;
  const iteration = ranking.iteration ?? 1;
  // A ranking inside the state dir keeps its iteration folder; one from elsewhere gets the standard one.
  const inState = basename(rankingDir).startsWith('iter-') && dirname(dirname(rankingDir)) === stateLayout.runsDir(p.stateDir);
  const runDir = inState ? dirname(rankingDir) : stateLayout.runDir(p.stateDir, ranking.run_id);
  const iterDir = inState ? rankingDir : stateLayout.iterDir(runDir, iteration);
  const bits: EnvelopeBits = {
    run_id: ranking.run_id,
    iteration,
    created_at: ctx.now().toISOString(),
    inputs: { 'ranking.json': sha256File(rankingPath), suite: p.suite.contentHash, target: target.contentHash, candidate: candSkill.contentHash },
    task_suite: p.suite.path,
    skill_id: p.suite.skillId,
    pass_k: p.passK,
    engine: engineInfo(p.engine)!,
    judge_engine: engineInfo(p.judgeEngine),
  };
  const score = candidate.score ?? null;

  const lock = ctx.lockHeld ? { release: async () => undefined } : await acquireStateLock(p.stateDir, 'whet evaluate');
  let run: Awaited<ReturnType<typeof openPipelineRun>> | undefined;
  try {
    run = await openPipelineRun(runDir, ranking.run_id, p, target, ctx.now());
    appendEvent(runDir, { event: 'started', stage: 'evaluate', iteration, candidate: candidate.id }, ctx.now());
    let artifact;
    if (score !== null && score < evalThreshold) {
      ctx.log(`candidate ${candidate.id}: score ${score} < eval threshold ${evalThreshold}, skipped`);
      artifact = pipelineArtifact({ bits, candidateId: candidate.id, candidateScore: score, evalThreshold, baselineMinPassRate: p.cfg.baselineMinPassRate, maxErrorShare: p.cfg.maxErrorShare, skippedReason: `score ${score} < threshold ${evalThreshold}` });
    } else {
      // The baseline first: a broken suite is found before any candidate call is spent.
      const budget = budgetFor(ctx, p, runDir);
      const base = await measure(p, ctx, { skill: target, variant: 'baseline', dir: iterDir, cacheable: true, budget });
      const baseSummary = summarizeVariant(base.outcome, p.passK);
      const baseBroken = base.outcome.interrupted || baseSummary.passed + baseSummary.failed === 0 || baseSummary.pass_rate < p.cfg.baselineMinPassRate || tooManyErrors(baseSummary, p.cfg.maxErrorShare) !== undefined;
      const cand = baseBroken ? undefined : await measure(p, ctx, { skill: candSkill, variant: candidate.id, dir: iterDir, cacheable: true, budget });
      if (base.outcome.interrupted || cand?.outcome.interrupted) {
        const exhausted = base.outcome.budgetExhausted ?? cand?.outcome.budgetExhausted;
        appendEvent(runDir, { event: exhausted ? 'budget_exhausted' : 'interrupted', stage: 'evaluate', iteration }, ctx.now());
        await run.finish(exhausted ? 'budget_exhausted' : 'interrupted', ctx.now());
        return { interrupted: true, runDir, ...(exhausted ? { budgetExhausted: exhausted } : {}) };
      }
      const candMeasured = cand ? { summary: summarizeVariant(cand.outcome, p.passK), tallies: cand.outcome.tallies } : undefined;
      artifact = pipelineArtifact({
        bits,
        candidateId: candidate.id,
        candidateScore: score,
        evalThreshold,
        baselineMinPassRate: p.cfg.baselineMinPassRate,
        maxErrorShare: p.cfg.maxErrorShare,
        cache: base.cache,
        candidateCache: cand?.cache,
        measured: { candidate: candMeasured, baseline: { summary: baseSummary, tallies: base.outcome.tallies } },
      });
    }
    const cals = judgeCalibrations(p.suite, p.stateDir, p.judgeEngine);
    if (cals.length) artifact.judge_calibration = withCorrectedRates(cals, artifact.candidate_results, p.suite);
    const inIter = join(iterDir, 'evaluation.json');
    // A second evaluation of the same run and iteration (another candidate, a re-run) must not erase the
    // first one's verdict: it goes to superseded/ like the results it was computed from.
    const moved = supersedeFile(iterDir, inIter, ctx.now());
    if (moved) ctx.log(`previous evaluation.json moved to ${moved}`);
    await writeArtifact(inIter, pipelineEvaluation, artifact);
    const artifactPath = o.output ? resolve(ctx.cwd, o.output) : inIter;
    // The same validated bytes, not a second validation and serialisation of a possibly large artifact.
    if (o.output) await writeFileAtomically(artifactPath, readFileSync(inIter));
    appendEvent(runDir, { event: 'finished', stage: 'evaluate', iteration, verdict: artifact.verdict, engine_calls: p.engine.calls() }, ctx.now());
    await run.finish('completed', ctx.now());
    return { interrupted: false, artifactPath, artifact };
  } catch (err) {
    await run?.finish('failed', ctx.now()).catch(() => undefined);
    throw err;
  } finally {
    await lock.release();
  }
}

/** The candidate's own skill: its variant folder, else the content the ranking carries. Never the target. */
function candidateSkill(c: Candidate, rankingDir: string, target: LoadedSkill): LoadedSkill {
  if (c.variant_path) return readSkill(resolve(rankingDir, c.variant_path));
  const conventional = join(rankingDir, 'variants', c.id);
  if (existsSync(join(conventional, 'SKILL.md'))) return readSkill(conventional);
  const inline = c.skill_content ?? c.content ?? c.body;
  if (inline) return skillFromText(inline, target.name);
  throw new ConfigError(
    `candidate "${c.id}" has no content: no variant_path, no variants/${c.id}/SKILL.md beside the ranking, and no skill_content; refusing to evaluate the original in its place`,
  );
}
