// The generate stage: proposes edits to the target (feedback from train failures, generic structural
// fixes, a model's proposals), leaves out what lessons say was already rejected, and materialises each
// candidate as a variant folder with its diff. Writes iter-NNN/candidates.json; the discriminator acts next.
// The decisions live in the propose-*.ts and select.ts files; this file reads and writes.
import { envelopeOf, HANDOFF } from '../../src/artifacts/envelope.js';
import { readArtifact, sha256File } from '../../src/state/artifact-io.js';
import { writeRecordedArtifact } from '../../src/state/recorded.js';
import { StateError } from '../../src/core/errors.js';
import type { LoopContext, StageOutcome } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { diffStats, unifiedDiff } from '../../src/skill/diff.js';
import { readSkill } from '../../src/skill/read.js';
import { scoreStructure } from '../../src/skill/structure.js';
import { appendEvent } from '../../src/state/events.js';
import { stateLayout } from '../../src/state/layout.js';
import { standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { lessonsFor, pendingContents, readLessons, rejectedContents } from '../../src/lessons/store.js';
import { readFeedback, trainFeedback } from '../../src/lessons/feedback.js';
import { materialise, supersedeVariants } from '../../src/state/variant.js';
import { proposeFeedback } from './propose-feedback.js';
import { proposeStructural } from './propose-structural.js';
import { trainFailures, type Proposal, type ProposerError, type Skipped } from './proposal.js';
import { runLlmProposer, type GenerateDeps, type LlmRun } from './run-llm.js';
import { candidatesArtifact, type Candidate, type CandidatesArtifact } from '../../src/artifacts/candidates.js';
import { selectCandidates } from './select.js';
import { copiedMechanics, trainMechanics, writtenText } from '../../src/loop/mechanics.js';

export type { GenerateDeps } from './run-llm.js';

export async function run(ctx: LoopContext, deps: GenerateDeps = {}): Promise<StageOutcome | 'interrupted'> {
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  const loop = ctx.config.loop;
  const target = readSkill(ctx.manifest.target.skill_dir);
  const baseline = readArtifact(paths.baseline, standaloneEvaluation, 'baseline');
  if (baseline.inputs.target !== target.contentHash) {
    throw new StateError(
      `baseline.json measured other content than the target now has (${baseline.inputs.target?.slice(0, 19)}… vs ${target.contentHash.slice(0, 19)}…): ` +
        'the target changed after this iteration was measured; measure the baseline again before generating',
    );
  }
  const lessonsFile = stateLayout.lessons(ctx.stateDir);
  const lessonsRead = readLessons(lessonsFile);
  if (lessonsRead.invalid > 0) ctx.log(`warning: ${lessonsRead.invalid} line(s) of ${lessonsFile} are not valid lessons and were ignored`);
  const lessons = lessonsFor(lessonsRead.lessons, ctx.manifest.target.skill_dir);
  // A person's verdicts from `whet view`, on this target's train tasks only (src/lessons/feedback.ts).
  const feedbackFile = stateLayout.feedback(ctx.stateDir);
  const feedbackRead = readFeedback(feedbackFile);
  if (feedbackRead.invalid > 0) ctx.log(`warning: ${feedbackRead.invalid} line(s) of ${feedbackFile} are not valid feedback and were ignored`);
  const human = trainFeedback(feedbackRead.items, ctx.manifest.target.skill_dir, (await ctx.opened()).suite.tasks);

  const errors: ProposerError[] = [];
  const skipped: Skipped[] = [];
  let feedback: Proposal[] = [];
  let structural: Proposal[] = [];
  let llm: LlmRun = { proposals: [], errors: [], calls: 0, costUsd: 0 };
  if (loop.proposers.includes('feedback')) {
    const f = proposeFeedback({ skillText: target.text, skillName: target.name, results: baseline.task_results, human });
    feedback = f.proposals;
    skipped.push(...f.skipped);
  }
  if (loop.proposers.includes('structural')) structural = proposeStructural(target.text);
  if (loop.proposers.includes('llm')) llm = await runLlmProposer(ctx, target.text, baseline, lessons, deps, human);
  // A generator call refused by the budget: stop before writing candidates.json, so the resume asks again.
  if (ctx.budget?.exhausted) {
    appendEvent(ctx.runDir, { event: 'interrupted', stage: 'generate', iteration: ctx.iteration, engine_calls: llm.calls, cost_usd: llm.costUsd }, ctx.now());
    return 'interrupted';
  }
  errors.push(...llm.errors);

  // No proposal may write a train judge's mechanics into the skill, whoever proposed it.
  const mechanics = trainMechanics((await ctx.opened()).suite.tasks);
  const guidance = (group: Proposal[]) =>
    group.filter((p) => {
      const copied = copiedMechanics(`${p.title}\n${writtenText(p.actions)}`, mechanics);
      if (copied.length === 0) return true;
      skipped.push({ title: p.title, proposer: p.proposer, why: `it copies the judges' mechanics into the skill (${copied.join('; ')}): a proposal must be guidance for the kind of request, not the test` });
      return false;
    });
  const sel = selectCandidates({ groups: [guidance(feedback), guidance(llm.proposals), guidance(structural)], targetText: target.text, rejected: rejectedContents(lessons), pending: pendingContents(lessons, ctx.runId), cap: loop.candidatesPerIteration });
  errors.push(...sel.errors);
  skipped.push(...sel.skipped);

  supersedeVariants(paths.dir, paths.variants, ctx.now());
  const candidates: Candidate[] = [];
  for (const c of sel.chosen) {
    await materialise({ targetDir: target.dir, variantDir: paths.variant(c.id), skillText: c.text, exclude: [ctx.manifest.suite.path, ctx.stateDir] });
    const p = c.proposal;
    candidates.push({
      id: c.id,
      title: p.title,
      category: p.category,
      risk: p.risk,
      rationale: p.rationale,
      proposer: p.proposer,
      answers: p.answers,
      actions: p.actions,
      variant_path: `variants/${c.id}`,
      diff: unifiedDiff(target.text, c.text),
      diff_stats: diffStats(target.text, c.text),
      content_sha256: c.contentSha,
    });
  }

  const weakest = scoreStructure(target.text)
    .dimensions.map((d, i) => ({ d, i }))
    .filter(({ d }) => d.score < 1)
    .sort((a, b) => a.d.score - b.d.score || a.i - b.i)
    .map(({ d }) => d.id);
  const verdict = candidates.length > 0 ? 'proposed' : 'none';
  const artifact: CandidatesArtifact = {
    ...envelopeOf('generated', { runId: ctx.runId, iteration: ctx.iteration, now: ctx.now() }, { 'baseline.json': sha256File(paths.baseline), target: target.contentHash, lessons: lessonsRead.sha256, ...(human.length ? { feedback: feedbackRead.sha256 } : {}) }, verdict, HANDOFF.generated),
    target: { path: ctx.manifest.target.skill_dir, skill_file: target.file, sha256: target.contentHash },
    candidates,
    proposer_errors: errors,
    signals: { train_failures: trainFailures(baseline.task_results).map((r) => r.task_id), weakest_dimensions: weakest, lessons_considered: lessons.length, ...(human.length ? { human_feedback: human.map((f) => ({ id: f.id, task_id: f.task_id, variant: f.variant, rating: f.rating, comment: f.comment })) } : {}) },
    skipped,
    engine_calls: llm.calls,
    cost_usd: llm.costUsd,
  };
  await writeRecordedArtifact(ctx.runDir, paths.candidates, candidatesArtifact, artifact, ctx.now());
  appendEvent(ctx.runDir, { event: 'finished', stage: 'generate', iteration: ctx.iteration, verdict, candidates: candidates.length, skipped: skipped.length, proposer_errors: errors.length, engine_calls: llm.calls }, ctx.now());
  const by = (name: string) => candidates.filter((c) => c.proposer === name).length;
  return {
    artifactPath: paths.candidates,
    verdict,
    ...HANDOFF.generated,
    summary: `generate: ${candidates.length} candidate(s) (feedback ${by('feedback')}, llm ${by('llm')}, structural ${by('structural')}); ${skipped.length} skipped; ${errors.length} proposer error(s)`,
    engineCalls: llm.calls,
  };
}
