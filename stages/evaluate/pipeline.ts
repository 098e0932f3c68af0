// Pipeline mode: evaluate one ranked candidate against the baseline (the target as it is now) on the
// same tasks. The candidate's own files are what reach the engine — its materialised variant folder, or
// the content carried in the ranking, or a seed edit plan applied to the target (candidate.ts) — and never
// the original in its place (the seed's fatal bug), nor a plan's fragment as if it were the skill.
import { mockJudged, weakMockBaseline } from '../../src/measure/mock-judges.js';
import { checkIdFlag } from '../../src/config/safe-id.js';
import { summarizeVariant } from '../../src/evaluation/summary.js';
import { appendEvent } from '../../src/state/events.js';
import { acquireStateLock } from '../../src/state/lock.js';
import { openPipelineRun } from '../../src/measure/run-manifest.js';
import { measure, storeInCache } from '../../src/measure/measure.js';
import { candidateSkill } from '../../src/measure/candidate.js';
import { countRoundsInTrigger, heldOutRounds } from '../../src/measure/held-out-rounds.js';
import { planLine, planReport } from '../../src/measure/plan-report.js';
import { envelopeBits, pipelineInputs, recordCandidateSource, writePipelineEvaluation } from '../../src/measure/pipeline-inputs.js';
import { budgetFor, engineNoise, prepare, type CandidateRequest, type EvaluateContext, type StageResult } from '../../src/measure/setup.js';
import { pipelineArtifact, tooManyErrors } from '../../src/measure/verdict.js';
import { baselineTrain, defersTrain, joinOutcomes, onlySplit } from '../../src/measure/train-after-keep.js';
import { keepUndoneBy } from '../../src/measure/guard-verdict.js';
import type { VariantOutcome } from '../../src/evaluation/run-variant.js';
import { watchRateLimits } from '../../src/evaluation/rate-limit-watch.js';

export async function runPipeline(ctx: EvaluateContext, req: CandidateRequest): Promise<StageResult> {
  checkIdFlag(req.candidateId, '--candidate-id');
  const p = await prepare(ctx);
  const pi = pipelineInputs(ctx, p, req);
  const { candidate, target, source, evalThreshold, evalThresholdFrom, iteration, runDir, iterDir, score, ranking } = pi;
  // A loop run printed its plan when it started; a direct `whet evaluate` prints it here.
  if (!ctx.lockHeld) ctx.log(planLine(planReport(p, target, ctx.now(), false)));

  const lock = ctx.lockHeld ? { release: async () => undefined } : await acquireStateLock(p.stateDir, 'whet evaluate', { report: ctx.log });
  let run: Awaited<ReturnType<typeof openPipelineRun>> | undefined;
  const unwatch = watchRateLimits(runDir, ctx.log, ctx.now);
  try {
    run = await openPipelineRun(runDir, ranking.run_id, p, target, ctx.now());
    const cand = await candidateSkill(source, { id: candidate.id, iterDir, target, exclude: [p.suite.path, p.stateDir], now: ctx.now(), log: ctx.log });
    const candSkill = cand.skill;
    if (candSkill.contentHash === target.contentHash) ctx.log(`warning: candidate ${candidate.id} is byte-identical to the target`);
    const bits = envelopeBits(ctx, p, { rankingPath: pi.rankingPath, runId: ranking.run_id, iteration, target, candSkill });
    // A budget, a subscription limit or Ctrl-C stopped a measurement: said in events.jsonl, resumable.
    const stopped = async (exhausted: string | undefined, rateLimited: string | undefined): Promise<StageResult> => {
      const limited = exhausted ? undefined : rateLimited;
      const status = exhausted ? 'budget_exhausted' : limited ? 'rate_limited' : 'interrupted';
      appendEvent(runDir, { event: status, stage: 'evaluate', iteration, ...(limited ? { reason: limited } : {}) }, ctx.now());
      await run!.finish(status, ctx.now());
      return { interrupted: true, runDir, ...(exhausted ? { budgetExhausted: exhausted } : {}), ...(limited ? { rateLimited: limited } : {}) };
    };
    appendEvent(runDir, { event: 'started', stage: 'evaluate', iteration, candidate: candidate.id }, ctx.now());
    let artifact;
    if (score !== null && score < evalThreshold) {
      ctx.log(`candidate ${candidate.id}: score ${score} < eval threshold ${evalThreshold} (${evalThresholdFrom}), skipped`);
      artifact = pipelineArtifact({ bits, candidateId: candidate.id, candidateScore: score, evalThreshold, baselineMinPassRate: p.cfg.baselineMinPassRate, maxErrorShare: p.cfg.maxErrorShare, skippedReason: `score ${score} < threshold ${evalThreshold} (${evalThresholdFrom})` });
    } else {
      // The baseline first: a broken suite is found before any candidate call is spent.
      const budget = budgetFor(ctx, p, runDir);
      // On a noisy engine the baseline is measured in this evaluation, beside the candidate, never read
      // from another run's cache (issue 38): a model that changed since is not credited to the edit. (Its
      // results file is the iteration's own: attempts this run's baseline stage made here are resumed.)
      // The cache still serves the loop's baseline stage (what generate reads), standalone runs and nightly.
      const noise = engineNoise(p);
      // On a noisy engine the keep rests on the held-out tasks: the candidate's train tasks wait for a keep,
      // the baseline's come from its baseline stage (train-after-keep.ts).
      const defer = defersTrain(p, noise.deterministic);
      const heldP = defer ? onlySplit(p, 'holdout') : p;
      const baseTrain = defer ? await baselineTrain(p, ctx, { target, dir: iterDir, budget }) : undefined;
      const base = baseTrain?.outcome.interrupted ? { outcome: baseTrain.outcome, cache: undefined } : await measure(heldP, ctx, { skill: target, variant: 'baseline', dir: iterDir, cacheable: noise.deterministic, budget });
      const wholeBase = baseTrain && !base.outcome.interrupted ? joinOutcomes(p, base.outcome, baseTrain.outcome) : base.outcome;
      const baseSummary = summarizeVariant(wholeBase, p.passK);
      const heldSummary = baseTrain ? summarizeVariant(base.outcome, p.passK) : baseSummary;
      const baseBroken = base.outcome.interrupted || baseSummary.passed + baseSummary.failed === 0 || (baseSummary.pass_rate ?? 0) < p.cfg.baselineMinPassRate || (tooManyErrors(baseSummary, p.cfg.maxErrorShare) ?? tooManyErrors(heldSummary, p.cfg.maxErrorShare)) !== undefined;
      const measured = baseBroken ? undefined : await measure(heldP, ctx, { skill: candSkill, variant: candidate.id, dir: iterDir, cacheable: !defer, budget });
      if (base.outcome.interrupted || measured?.outcome.interrupted) return await stopped(base.outcome.budgetExhausted ?? measured?.outcome.budgetExhausted, base.outcome.rateLimited ?? measured?.outcome.rateLimited);
      const artifactOf = (b: VariantOutcome, c: VariantOutcome | undefined) => {
        const e = pipelineArtifact({
          bits,
          candidateId: candidate.id,
          candidateScore: score,
          evalThreshold,
          baselineMinPassRate: p.cfg.baselineMinPassRate,
          maxErrorShare: p.cfg.maxErrorShare,
          cache: base.cache,
          candidateCache: measured?.cache,
          measured: { candidate: c ? { summary: summarizeVariant(c, p.passK), tallies: c.tallies } : undefined, baseline: { summary: b === wholeBase ? baseSummary : summarizeVariant(b, p.passK), tallies: b.tallies } },
          ...(b === wholeBase ? {} : { baselineWhole: { summary: baseSummary, tallies: wholeBase.tallies } }),
          ...weakBaselineWhy(p),
        });
        e.evaluation.engine_noise = noise;
        return e;
      };
      let built = artifactOf(base.outcome, measured?.outcome);
      const trainTasks = defer ? onlySplit(p, 'train').suite.tasks.length : 0;
      const baseFrom = baseTrain?.from === 'cache' ? 'the baseline\'s read from the cache' : `the baseline's measured (${baseTrain?.outcome.engineCalls ?? 0} engine calls)`;
      if (baseTrain) built.evaluation.train = { measured: false, why: `not run: the evaluation ended ${built.verdict} before the held-out test` };
      if (!noise.deterministic && measured && (built.verdict === 'pass' || built.verdict === 'fail')) {
        // A noisy engine: the held-out tasks get rounds of attempts until the gate's test is decided.
        const c = built.evaluation.candidate!;
        const callsPerAttempt = c.attempts.total > 0 && c.engine_calls > 0 ? (c.engine_calls + c.judge_calls) / c.attempts.total : 1 + (p.judgeEngine ? 1 : 0);
        const r = await heldOutRounds(p, ctx, { target, candidate: candSkill, candidateId: candidate.id, dir: iterDir, budget, baseline: base.outcome.tallies, candidateTallies: measured.outcome.tallies, callsPerAttempt });
        if (r.interrupted) return await stopped(r.budgetExhausted, r.rateLimited);
        let first = { baseline: base.outcome.tallies, candidate: measured.outcome.tallies };
        // A keep the regression guard will undo at the gate (more tasks it names than
        // thresholds.max_new_failures) is not paid for with the train tasks (src/measure/guard-verdict.ts).
        const fell = keepUndoneBy(r.record, p.cfg.thresholds);
        const undone = fell.length > 0;
        if (baseTrain && r.record.decision === 'keep' && !undone) {
          const t = await measure(onlySplit(p, 'train'), ctx, { skill: candSkill, variant: candidate.id, dir: iterDir, cacheable: false, budget });
          if (t.outcome.interrupted) return await stopped(t.outcome.budgetExhausted, t.outcome.rateLimited);
          const whole = joinOutcomes(p, measured.outcome, t.outcome);
          built = artifactOf(wholeBase, whole);
          first = { baseline: wholeBase.tallies, candidate: whole.tallies };
          const stored = await storeInCache(p, candSkill, whole, ctx.now());
          built.evaluation.train = { measured: true, why: `the held-out test kept the candidate: its ${trainTasks} train task(s) measured for what the run does next, ${baseFrom}${stored ? '; stored as the next baseline' : ''}` };
        } else if (baseTrain && undone) {
          const named = fell.slice(0, 5).map((x) => x.task_id).join(', ');
          built.evaluation.train = { measured: false, why: `not run: the held-out test kept the candidate, but the regression guard names ${fell.length} held-out task(s) that got worse (${named}${fell.length > 5 ? ', …' : ''}), more than thresholds.max_new_failures ${p.cfg.thresholds.max_new_failures}, so the gate will reject it, and train tasks decide nothing (${trainTasks} task(s); evaluate.measure_train: always runs them); ${baseFrom}` };
        } else if (baseTrain) {
          built.evaluation.train = { measured: false, why: `not run: the held-out test did not keep the candidate, and train tasks decide nothing (${trainTasks} task(s); evaluate.measure_train: always runs them); ${baseFrom}` };
        }
        // Never the deterministic path because attempts happened to agree (issue 38): every keep is tested.
        built.evaluation.sequential = r.record;
        countRoundsInTrigger(built, first, r.rounds);
      }
      artifact = built;
    }
    recordCandidateSource(artifact, pi, cand.variantPath);
    const artifactPath = await writePipelineEvaluation(ctx, p, iterDir, artifact);
    appendEvent(runDir, { event: 'finished', stage: 'evaluate', iteration, verdict: artifact.verdict, engine_calls: p.engine.calls() }, ctx.now());
    await run.finish('completed', ctx.now());
    return { interrupted: false, artifactPath, artifact };
  } catch (err) {
    await run?.finish('failed', ctx.now()).catch(() => undefined);
    throw err;
  } finally {
    unwatch();
    await lock.release();
  }
}

/** A mock judge's word overlap, not a broken suite, when it graded the rubrics (src/measure/mock-judges.ts). */
export function weakBaselineWhy(p: { suite: Parameters<typeof mockJudged>[0]; judgeEngine?: { type: string } }): { weakBaselineWhy?: string } {
  const m = mockJudged(p.suite, p.judgeEngine?.type);
  return m ? { weakBaselineWhy: weakMockBaseline(m) } : {};
}
