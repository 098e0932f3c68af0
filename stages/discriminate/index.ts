// The discriminate stage: scores every candidate cheaply (score.ts), optionally moves the scores by an llm
// judge's rating (judge.ts), recommends one for evaluation, and optionally pre-checks it on a few train
// tasks (minibatch.ts). Writes iter-NNN/ranking.json; the
// evaluator acts next, or the learner when nothing is worth evaluating. Returns 'interrupted' (writing
// nothing) when Ctrl-C stops the judge or the pre-check; pre-check results are resumed on the next run.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { envelopeOf, HANDOFF } from '../../src/artifacts/envelope.js';
import { readArtifact, sha256, sha256File } from '../../src/state/artifact-io.js';
import { writeRecordedArtifact } from '../../src/state/recorded.js';
import { describeEvalThresholds, evalThresholdFor, singleThresholdFrom } from '../../src/config/eval-thresholds.js';
import { StateError } from '../../src/core/errors.js';
import type { LoopContext, StageOutcome } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { readSkill } from '../../src/skill/read.js';
import { scoreStructure } from '../../src/skill/structure.js';
import { appendEvent } from '../../src/state/events.js';
import { stateLayout } from '../../src/state/layout.js';
import { standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { lessonsFor, readLessons } from '../../src/lessons/store.js';
import { minibatchTasks, minibatchVerdict, prepareMinibatch, runOnTasks, type MinibatchResult } from './minibatch.js';
import { rankingArtifact, type RankingArtifact, type ScoredCandidate } from '../../src/artifacts/ranking.js';
import { runLlmJudge, type DiscriminateDeps, type JudgeRun } from './run-judge.js';
import { applyJudge, countPlaceholders, pickNext, rankOrder, recommendation, scoreCandidate } from './score.js';

export type { DiscriminateDeps } from './run-judge.js';

export const HANDOFF_TO_LEARN = { next_step: 'learn', next_owner: 'learner' } as const;

export async function run(ctx: LoopContext, deps: DiscriminateDeps = {}): Promise<StageOutcome | 'interrupted'> {
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  const candidates = readArtifact(paths.candidates, candidatesArtifact, 'candidates');
  const target = readSkill(ctx.manifest.target.skill_dir);
  if (candidates.target.sha256 !== target.contentHash) {
    throw new StateError('the target changed after candidates.json was generated, so its diffs no longer describe the variants; generate again');
  }
  const lessonsRead = readLessons(stateLayout.lessons(ctx.stateDir));
  const lessons = lessonsFor(lessonsRead.lessons, ctx.manifest.target.skill_dir);
  const targetStructure = scoreStructure(target.text).total;
  const targetPlaceholders = countPlaceholders(target.text);

  const cheap = candidates.candidates.map((c) => {
    const file = join(paths.dir, c.variant_path, 'SKILL.md');
    const text = existsSync(file) ? readFileSync(file, 'utf8') : null;
    const intact = text !== null && sha256(text) === c.content_sha256;
    const s = scoreCandidate({
      candidate: c,
      targetStructure,
      variantStructure: text === null ? null : scoreStructure(text).total,
      targetPlaceholders,
      variantPlaceholders: text === null ? 0 : countPlaceholders(text),
      variantIntact: intact,
      lessons,
    });
    return { candidate: c, intact, scored: s };
  });
  // A broken variant has nothing trustworthy to rate: it keeps its score 0 and costs no call.
  let judge: JudgeRun | undefined;
  let baselineSha: string | undefined;
  if (ctx.config.loop.llmJudge) {
    const baseline = readArtifact(paths.baseline, standaloneEvaluation, 'baseline');
    baselineSha = sha256File(paths.baseline);
    judge = await runLlmJudge(ctx, baseline, cheap.filter((x) => x.intact).map((x) => x.candidate), deps);
    if (judge.interrupted) {
      appendEvent(ctx.runDir, { event: 'interrupted', stage: 'discriminate', iteration: ctx.iteration, engine_calls: judge.calls, llm_judge_calls: judge.calls, llm_judge_cost_usd: judge.costUsd }, ctx.now());
      return 'interrupted';
    }
  }
  const scored = cheap.map(({ candidate: c, scored: cs }, order) => {
    const j = judge?.judgements.get(c.id);
    const s = j ? applyJudge(cs, j) : cs;
    return { id: c.id, score: s.score, order, candidate: c, scored: s, judgement: j };
  });
  const ranked = rankOrder(scored);
  const threshold = ctx.config.evalThreshold;
  // A category with its own threshold (evaluate.eval_thresholds, registered with the run) uses it.
  const singleFrom = singleThresholdFrom(ctx.flags?.evalThreshold !== undefined || ctx.manifest.flags?.eval_threshold !== undefined);
  const barOf = (r: (typeof ranked)[number]) => evalThresholdFor(r.candidate.category, ctx.config, threshold, singleFrom);
  const thresholdOf = (r: (typeof ranked)[number]) => barOf(r).value;
  const vetoed = new Map<string, string>();
  const minibatch = new Map<string, MinibatchResult>();
  const notes = new Map<string, string>();
  let selected = pickNext(ranked, thresholdOf, new Set());
  let engineCalls = judge?.calls ?? 0;
  let costUsd = judge?.costUsd ?? 0;

  const n = ctx.config.loop.minibatch;
  if (selected && n > 0) {
    const p = await prepareMinibatch(ctx);
    const dir = join(paths.dir, 'minibatch');
    while (selected) {
      const pick = ranked.find((r) => r.id === selected)!;
      const tasks = minibatchTasks(p.suite.tasks, pick.candidate.answers.tasks ?? [], n);
      if (tasks.length === 0) {
        notes.set(pick.id, 'minibatch pre-check skipped: the suite has no train tasks');
        break;
      }
      const base = await runOnTasks(ctx, p, { variant: 'baseline', skill: target, tasks, dir });
      const cand = base.interrupted ? undefined : await runOnTasks(ctx, p, { variant: pick.id, skill: readSkill(join(paths.dir, pick.candidate.variant_path)), tasks, dir });
      engineCalls += base.engineCalls + (cand?.engineCalls ?? 0);
      costUsd += base.costUsd + (cand?.costUsd ?? 0);
      if (!cand || cand.interrupted) {
        // The minibatch's calls are in its results logs; the model judge's are counted from this event (run-usage.ts).
        appendEvent(ctx.runDir, { event: 'interrupted', stage: 'discriminate', iteration: ctx.iteration, engine_calls: engineCalls, llm_judge_calls: judge?.calls ?? 0, llm_judge_cost_usd: judge?.costUsd ?? 0 }, ctx.now());
        return 'interrupted';
      }
      const v = minibatchVerdict(cand.tallies, base.tallies);
      minibatch.set(pick.id, v);
      const excluded = v.excluded.length ? ` (${v.excluded.length} task(s) with errors left out: ${v.excluded.join(', ')})` : '';
      const line = `minibatch pre-check on ${v.tasks.length} train task(s): candidate passed ${v.candidate_passed}, baseline ${v.baseline_passed}${excluded}`;
      if (v.passed) {
        notes.set(pick.id, line);
        break;
      }
      vetoed.set(pick.id, `${line}: passes fewer than the baseline, rejected before a full evaluation`);
      selected = pickNext(ranked, thresholdOf, new Set(vetoed.keys()));
    }
  }

  const scoredCandidates: ScoredCandidate[] = ranked.map((r) => {
    const rec = recommendation(r, thresholdOf, selected, vetoed);
    const own = barOf(r);
    const mb = minibatch.get(r.id);
    const note = notes.get(r.id);
    return {
      id: r.id,
      score: r.score,
      recommendation: rec.recommendation,
      reasons: [rec.reason, ...(note ? [note] : []), ...r.scored.reasons],
      category: r.candidate.category,
      risk: r.candidate.risk,
      variant_path: r.candidate.variant_path,
      ...(own.from.startsWith('evaluate.eval_thresholds.') ? { eval_threshold: own.value, eval_threshold_from: own.from } : {}),
      ...(r.judgement ? { llm_judge: r.judgement.ok ? { rating: r.judgement.rating, reason: r.judgement.reason, adjustment: r.scored.parts.llm_judge ?? 0 } : { error: r.judgement.error } } : {}),
      ...(mb ? { minibatch: { tasks: mb.tasks, candidate_passed: mb.candidate_passed, baseline_passed: mb.baseline_passed } } : {}),
      parts: r.scored.parts,
    };
  });
  const best = ranked[0];
  const perCategory = describeEvalThresholds(ctx.config.evalThresholds);
  const reason = selected
    ? undefined
    : ranked.length === 0
      ? 'no candidates were proposed'
      : vetoed.size > 0
        ? `every candidate at or above the eval threshold ${threshold} failed the minibatch pre-check`
        : perCategory
          ? `no candidate reached its eval threshold (${perCategory}; any other category ${threshold}) (best: ${best!.id} at ${best!.score}, needs ${thresholdOf(best!)})`
          : `no candidate reached the eval threshold ${threshold} (best: ${best!.id} at ${best!.score})`;
  const verdict = selected ? 'selected' : 'none';
  const handoff = selected ? HANDOFF.ranked : HANDOFF_TO_LEARN;
  const artifact: RankingArtifact = {
    ...envelopeOf('ranked', { runId: ctx.runId, iteration: ctx.iteration, now: ctx.now() }, { 'candidates.json': sha256File(paths.candidates), target: target.contentHash, lessons: lessonsRead.sha256, ...(baselineSha ? { 'baseline.json': baselineSha } : {}) }, verdict, handoff),
    target: { path: ctx.manifest.target.skill_dir },
    eval_threshold: threshold,
    ...(Object.keys(ctx.config.evalThresholds).length ? { eval_thresholds: { ...ctx.config.evalThresholds } } : {}),
    scored_candidates: scoredCandidates,
    selected,
    ...(reason ? { reason } : {}),
    target_structure: Math.round(targetStructure * 10_000) / 10_000,
    ...(judge ? { llm_judge: { engine: judge.engine, engine_calls: judge.calls, cost_usd: judge.costUsd, errors: [...judge.judgements].flatMap(([id, j]) => (j.ok ? [] : [{ candidate: id, error: j.error }])) } } : {}),
    engine_calls: engineCalls,
    cost_usd: costUsd,
  };
  await writeRecordedArtifact(ctx.runDir, paths.ranking, rankingArtifact, artifact, ctx.now());
  const judgeErrors = artifact.llm_judge?.errors ?? [];
  for (const e of judgeErrors) ctx.log(`warning: llm judge gave no rating for ${e.candidate} (${e.error}); its cheap score stands`);
  appendEvent(ctx.runDir, { event: 'finished', stage: 'discriminate', iteration: ctx.iteration, verdict, selected, engine_calls: engineCalls }, ctx.now());
  const top = scoredCandidates.map((c) => `${c.id} ${c.score} ${c.recommendation}`).join(', ');
  return {
    artifactPath: paths.ranking,
    verdict,
    ...handoff,
    summary: `${selected ? `discriminate: selected ${selected} (${top})` : `discriminate: nothing to evaluate — ${reason}`}${judgeErrors.length ? `; llm judge error(s) on ${judgeErrors.map((e) => e.candidate).join(', ')}` : ''}`,
    engineCalls,
  };
}
