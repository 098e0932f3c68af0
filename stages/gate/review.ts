// A person's decision on a candidate the gate held for review. Approval applies it under the same checks
// the gate makes (the target and the variant unchanged since evaluation, the thresholds the registered
// ones); the held gate.json moves to superseded/ and a new one records who decided and when.
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { readArtifact, writeArtifact } from '../../src/artifacts/io.js';
import { thresholdsHash } from '../../src/config/thresholds.js';
import { UsageError } from '../../src/errors.js';
import type { LoopContext } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { iterations } from '../../src/runner/next-step.js';
import { readSkill } from '../../src/skill/read.js';
import { appendEvent } from '../../src/state/events.js';
import { applyVariant } from '../../src/state/promote.js';
import { pipelineEvaluation } from '../evaluate/schema.js';
import { candidatesArtifact } from '../generate/schema.js';
import { gateArtifact, type GateArtifact } from './schema.js';

export function findPending(runDir: string, candidateId?: string): { iteration: number; gate: GateArtifact }[] {
  const out: { iteration: number; gate: GateArtifact }[] = [];
  for (const n of iterations(runDir)) {
    const p = iterationPaths(runDir, n).gate;
    if (!existsSync(p)) continue;
    const g = gateArtifact.safeParse(JSON.parse(readFileSync(p, 'utf8')));
    if (g.success && g.data.decision === 'pending_review' && (!candidateId || g.data.candidate_id === candidateId)) out.push({ iteration: n, gate: g.data });
  }
  return out;
}

export async function review(ctx: LoopContext, candidateId: string, verdict: 'approve' | 'reject', who: string): Promise<GateArtifact> {
  const [found] = findPending(ctx.runDir, candidateId);
  if (!found) throw new UsageError(`no candidate "${candidateId}" is waiting for review in run ${ctx.runId} (see whet review list)`);
  const paths = iterationPaths(ctx.runDir, found.iteration);
  const at = ctx.now().toISOString();
  let next: GateArtifact;
  if (verdict === 'reject') {
    next = { ...found.gate, created_at: at, decision: 'reject', verdict: 'reject', reason: `rejected in review by ${who}`, checks: [...found.gate.checks, { id: 'review', passed: false, detail: `rejected by ${who} at ${at}` }] };
  } else {
    const evaluation = readArtifact(paths.evaluation, pipelineEvaluation, 'evaluation');
    const cand = readArtifact(paths.candidates, candidatesArtifact, 'candidates').candidates.find((c) => c.id === candidateId)!;
    const variantDir = join(paths.dir, cand.variant_path);
    const problems: string[] = [];
    if (readSkill(ctx.manifest.target.skill_dir).contentHash !== evaluation.inputs.target) problems.push('the target changed since this candidate was evaluated; evaluate it again in a new run');
    if (readSkill(variantDir).contentHash !== evaluation.inputs.candidate) problems.push('the candidate’s variant changed since it was evaluated');
    if (ctx.manifest.thresholds_sha256 !== thresholdsHash(ctx.config.thresholds)) problems.push('pipeline.yaml’s thresholds differ from the ones registered for this run');
    if (problems.length) throw new UsageError(`cannot approve ${candidateId}: ${problems.join('; ')}`);
    const m = await applyVariant({ stateDir: ctx.stateDir, runId: ctx.runId, iteration: found.iteration, targetDir: ctx.manifest.target.skill_dir, variantDir, now: ctx.now() });
    next = {
      ...found.gate,
      created_at: at,
      decision: 'keep',
      verdict: 'keep',
      reason: `approved in review by ${who}; ${found.gate.reason}`,
      checks: [...found.gate.checks.filter((c) => c.id !== 'review'), { id: 'review', passed: true, detail: `approved by ${who} at ${at}` }],
      applied: {
        target: ctx.manifest.target.skill_dir,
        backup: `backups/${ctx.runId}/iter-${String(found.iteration).padStart(3, '0')}`,
        sha256_before: evaluation.inputs.target!,
        sha256_after: readSkill(ctx.manifest.target.skill_dir).contentHash,
        files: m.files.map((f) => f.path),
      },
    };
  }
  const dest = join(paths.dir, 'superseded', at.replace(/[:.]/g, '-'));
  mkdirSync(dest, { recursive: true });
  renameSync(paths.gate, join(dest, 'gate.json'));
  await writeArtifact(paths.gate, gateArtifact, next);
  appendEvent(ctx.runDir, { event: 'review', iteration: found.iteration, candidate: candidateId, decision: next.decision, by: who }, ctx.now());
  return next;
}
