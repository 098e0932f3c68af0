// A person's decision on a candidate the gate held for review. Approval applies it under the checks the
// gate makes (the same integrity list: artifacts, variant, target, registered thresholds); the held
// gate.json moves to superseded/ and a new one records who decided and when. The decision is also
// recorded as the iteration's lesson, because generate and discriminate learn only from
// memory/lessons.jsonl: a rejection left as "pending_review" there would be proposed again next run.
import { mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { readArtifact } from '../../src/state/artifact-io.js';
import { checkRecorded, writeRecordedArtifact } from '../../src/state/recorded.js';
import { UsageError } from '../../src/core/errors.js';
import type { LoopContext } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { readSkill } from '../../src/skill/read.js';
import { appendEvent } from '../../src/state/events.js';
import { stateLayout } from '../../src/state/layout.js';
import { applyVariant, readBackup } from '../../src/state/promote.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { pipelineEvaluation, standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { buildLesson } from '../../src/lessons/lesson.js';
import { recordLesson } from '../../src/lessons/store.js';
import { gatherIntegrity } from '../../src/loop/integrity.js';
import { gateArtifact, type GateArtifact } from '../../src/artifacts/gate.js';
import { findPending, type Pending } from '../../src/loop/pending.js';

export { findPending, type Pending } from '../../src/loop/pending.js';

/**
 * The one held candidate a review decides. Candidate ids restart at cand-01 in every iteration, so the
 * same id can wait in several iterations with different contents; guessing one would apply or reject
 * something the person did not look at.
 */
export function pickPending(ctx: LoopContext, candidateId: string, iteration?: number): Pending {
  const all = findPending(ctx.runDir, candidateId);
  const matches = iteration === undefined ? all : all.filter((p) => p.iteration === iteration);
  if (matches.length === 0) {
    const where = iteration === undefined ? '' : ` in iteration ${iteration}`;
    const elsewhere = all.length ? ` (it waits in iteration ${all.map((p) => p.iteration).join(', ')})` : '';
    throw new UsageError(`no candidate "${candidateId}" is waiting for review${where} in run ${ctx.runId}${elsewhere} (see whet review list)`);
  }
  if (matches.length > 1) {
    const list = matches.map((p) => `iteration ${p.iteration}: ${p.gate.reason}`).join('; ');
    throw new UsageError(`candidate "${candidateId}" waits for review in ${matches.length} iterations of run ${ctx.runId} — ${list}; choose one with --iteration N`);
  }
  return matches[0]!;
}

async function approved(ctx: LoopContext, found: Pending, who: string, at: string): Promise<GateArtifact> {
  const g = gatherIntegrity(ctx, found.iteration);
  const broken = g.checks.filter((c) => !c.passed);
  if (broken.length || !g.variantDir) {
    throw new UsageError(`cannot approve ${found.gate.candidate_id} (iteration ${found.iteration}): ${broken.map((c) => c.detail).join('; ')}`);
  }
  // A crash after applying and before the new gate.json: the backup is there and the target is the variant.
  const m = g.alreadyApplied
    ? readBackup(ctx.stateDir, ctx.runId, found.iteration)!
    : await applyVariant({ stateDir: ctx.stateDir, runId: ctx.runId, iteration: found.iteration, targetDir: ctx.manifest.target.skill_dir, variantDir: g.variantDir, now: ctx.now(), links: ctx.config.loop.skillLinks });
  return {
    ...found.gate,
    created_at: at,
    decision: 'keep',
    verdict: 'keep',
    reason: `approved in review by ${who}; ${found.gate.reason}`,
    checks: [...g.checks, ...found.gate.checks.filter((c) => c.id !== 'review' && !g.checks.some((x) => x.id === c.id)), { id: 'review', passed: true, detail: `approved by ${who} at ${at}` }],
    applied: {
      target: ctx.manifest.target.skill_dir,
      backup: `backups/${ctx.runId}/iter-${String(found.iteration).padStart(3, '0')}`,
      sha256_before: g.evaluation.inputs.target!,
      sha256_after: readSkill(ctx.manifest.target.skill_dir).contentHash,
      files: m.files.map((f) => f.path),
    },
  };
}

/** Replaces the iteration's lesson (recorded by learn as pending_review) with the person's decision. */
async function recordDecision(ctx: LoopContext, iteration: number, gate: GateArtifact, at: string): Promise<void> {
  const paths = iterationPaths(ctx.runDir, iteration);
  const lesson = buildLesson({
    runId: ctx.runId,
    iteration,
    target: ctx.manifest.target.skill_dir,
    at,
    baseline: readArtifact(paths.baseline, standaloneEvaluation, 'baseline'),
    candidates: readArtifact(paths.candidates, candidatesArtifact, 'candidates'),
    ranking: readArtifact(paths.ranking, rankingArtifact, 'ranking'),
    evaluation: readArtifact(paths.evaluation, pipelineEvaluation, 'evaluation'),
    gate,
  });
  await recordLesson(stateLayout.lessons(ctx.stateDir), lesson);
}

export async function review(ctx: LoopContext, candidateId: string, verdict: 'approve' | 'reject', who: string, iteration?: number): Promise<{ gate: GateArtifact; iteration: number }> {
  const found = pickPending(ctx, candidateId, iteration);
  const paths = iterationPaths(ctx.runDir, found.iteration);
  // The held decision and the evidence behind it as the gate wrote them: an edited gate.json ("reject" made
  // "pending_review") or evaluation.json is refused here, before anything is applied or moved.
  checkRecorded(
    ctx.runDir,
    [
      { file: paths.gate, what: 'gate.json' },
      { file: paths.evaluation, what: 'evaluation.json' },
    ],
    `${verdict} ${candidateId} (iteration ${found.iteration})`,
  );
  const at = ctx.now().toISOString();
  const next: GateArtifact =
    verdict === 'reject'
      ? { ...found.gate, created_at: at, decision: 'reject', verdict: 'reject', reason: `rejected in review by ${who}`, checks: [...found.gate.checks, { id: 'review', passed: false, detail: `rejected by ${who} at ${at}` }] }
      : await approved(ctx, found, who, at);
  const dest = join(paths.dir, 'superseded', at.replace(/[:.]/g, '-'));
  mkdirSync(dest, { recursive: true });
  renameSync(paths.gate, join(dest, 'gate.json'));
  await writeRecordedArtifact(ctx.runDir, paths.gate, gateArtifact, next, ctx.now());
  await recordDecision(ctx, found.iteration, next, at);
  appendEvent(ctx.runDir, { event: 'review', iteration: found.iteration, candidate: candidateId, decision: next.decision, by: who }, ctx.now());
  return { gate: next, iteration: found.iteration };
}
