// The learn stage: records what this iteration taught (one lesson in memory/lessons.jsonl, once per
// iteration however often it runs), scores the target's structure as it is now, writes new eval cases
// proposed from the failures for a person to review, and decides by the stop rules whether the loop goes
// on. Writes iter-NNN/learning.json; the generator acts next, or nobody (done).
import { existsSync } from 'node:fs';
import { envelopeOf, HANDOFF, HANDOFF_END } from '../../src/artifacts/envelope.js';
import { readArtifact, sha256File } from '../../src/state/artifact-io.js';
import { writeRecordedArtifact } from '../../src/state/recorded.js';
import { StateError } from '../../src/core/errors.js';
import type { LoopContext, StageOutcome } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { readSkill } from '../../src/skill/read.js';
import { scoreStructure } from '../../src/skill/structure.js';
import { writeFileAtomically } from '../../src/core/atomic.js';
import { appendEvent } from '../../src/state/events.js';
import { stateLayout } from '../../src/state/layout.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { pipelineEvaluation, standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { gateArtifact } from '../../src/artifacts/gate.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { runHistory } from './history.js';
import { runTotals } from '../../src/evaluation/run-usage.js';
import { buildLesson } from '../../src/lessons/lesson.js';
import { recordLesson } from '../../src/lessons/store.js';
import { observedFailures, proposedCases } from './proposed-cases.js';
import { learningArtifact, type LearningArtifact } from '../../src/artifacts/learning.js';
import { decideStop } from './stop-rules.js';

export async function run(ctx: LoopContext): Promise<StageOutcome> {
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  const baseline = readArtifact(paths.baseline, standaloneEvaluation, 'baseline');
  const candidates = readArtifact(paths.candidates, candidatesArtifact, 'candidates');
  const ranking = readArtifact(paths.ranking, rankingArtifact, 'ranking');
  const gate = existsSync(paths.gate) ? readArtifact(paths.gate, gateArtifact, 'gate decision') : undefined;
  const evaluation = existsSync(paths.evaluation) ? readArtifact(paths.evaluation, pipelineEvaluation, 'evaluation') : undefined;
  if (!gate && ranking.selected !== null) {
    throw new StateError(`ranking.json selected ${ranking.selected} but there is no gate.json in ${paths.dir}: evaluate and gate the candidate before learning from it`);
  }

  const now = ctx.now();
  const lesson = buildLesson({ runId: ctx.runId, iteration: ctx.iteration, target: ctx.manifest.target.skill_dir, at: now.toISOString(), baseline, candidates, ranking, evaluation, gate });
  const lessonRecord = await recordLesson(stateLayout.lessons(ctx.stateDir), lesson);

  const targetNow = readSkill(ctx.manifest.target.skill_dir);
  const structure = scoreStructure(targetNow.text);

  const { suite } = await ctx.opened();
  const proposed = proposedCases({ runId: ctx.runId, iteration: ctx.iteration, skillId: suite.skillId, failures: observedFailures(baseline, evaluation), tasks: suite.tasks });
  if (proposed.count > 0) await writeFileAtomically(paths.proposedCases, proposed.text);

  const history = runHistory(ctx.runDir, ctx.manifest, ctx.iteration);
  // Under a budget, the totals are what the budget counts (judge calls, superseded work and active time
  // included), so the budget stop rule and the budget itself agree.
  const b = ctx.budget;
  // The calls are the run's one count (run-usage.ts: what status, show and the reports say), split by kind.
  const spent = runTotals(ctx.runDir);
  const totals = b
    ? { engine_calls: b.used.calls, calls: spent.calls, cost_usd: Math.round(b.used.cost * 1e6) / 1e6, wall_ms: b.activeMs }
    : { engine_calls: spent.engine_calls, calls: spent.calls, cost_usd: spent.cost_usd, wall_ms: Math.max(0, now.getTime() - Date.parse(ctx.manifest.created_at)) };
  const evaluated = gate && evaluation && evaluation.candidate_id === gate.candidate_id ? (evaluation.inputs.candidate ?? null) : null;
  const stop = decideStop({
    iteration: ctx.iteration,
    loop: ctx.config.loop,
    budgets: ctx.config.budgets,
    totals,
    decisions: history.decisions,
    evaluatedContent: evaluated,
    targetHistory: history.targetHistory,
    selected: ranking.selected,
    candidateCount: candidates.candidates.length,
  });

  const inputs: Record<string, string> = {
    'baseline.json': sha256File(paths.baseline),
    'candidates.json': sha256File(paths.candidates),
    'ranking.json': sha256File(paths.ranking),
    target: targetNow.contentHash,
  };
  if (evaluation) inputs['evaluation.json'] = sha256File(paths.evaluation);
  if (gate) inputs['gate.json'] = sha256File(paths.gate);
  const verdict = stop.stop ? 'stop' : 'continue';
  const handoff = stop.stop ? HANDOFF_END.done : HANDOFF.learned;
  const artifact: LearningArtifact = {
    ...envelopeOf('learned', { runId: ctx.runId, iteration: ctx.iteration, now }, inputs, verdict, handoff),
    lesson,
    structure: { total: Math.round(structure.total * 10_000) / 10_000, dimensions: structure.dimensions.map((d) => ({ id: d.id, score: d.score, finding: d.finding })) },
    proposed_cases: { file: proposed.count > 0 ? 'proposed-cases.yaml' : null, count: proposed.count },
    stop,
    totals,
    lesson_record: lessonRecord,
    reason: stop.stop ? `stopped by ${stop.rule}: ${stop.reason}` : stop.reason,
  };
  await writeRecordedArtifact(ctx.runDir, paths.learning, learningArtifact, artifact, ctx.now());
  appendEvent(ctx.runDir, { event: 'finished', stage: 'learn', iteration: ctx.iteration, verdict, rule: stop.rule, decision: lesson.decision, lesson: lessonRecord }, now);
  return {
    artifactPath: paths.learning,
    verdict,
    ...handoff,
    summary: `learn: ${lesson.decision}${lesson.candidate_id ? ` ${lesson.candidate_id}` : ''}; ${proposed.count} case(s) proposed; ${stop.stop ? `stop (${stop.rule}): ${stop.reason}` : 'continue'}`,
    engineCalls: 0,
  };
}
