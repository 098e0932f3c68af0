// The gate stage: checks that what was evaluated is what is on disk and that the thresholds are the ones
// registered at run start, decides on the held-out evidence, and on `keep` applies the candidate (backup
// first, then atomic replacement). A crash after applying and before gate.json is written is recognised
// on the next run (the target already equals the candidate and the backup exists) and not refused.
import { envelopeOf, HANDOFF } from '../../src/artifacts/envelope.js';
import { sha256File } from '../../src/state/artifact-io.js';
import { writeRecordedArtifact } from '../../src/state/recorded.js';
import { registeredThresholds } from '../../src/config/thresholds.js';
import type { TriggerBars } from '../../src/measure/verdict.js';
import type { LoopContext, StageOutcome } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { readSkill } from '../../src/skill/read.js';
import { appendEvent } from '../../src/state/events.js';
import { applyVariant, readBackup } from '../../src/state/promote.js';
import { decide } from './decide.js';
import { gatherIntegrity, refuseEditedGateInputs } from '../../src/loop/integrity.js';
import { gateArtifact, type GateArtifact } from '../../src/artifacts/gate.js';

/** A trigger suite's bars as registered at run start (pipeline.yaml's for a run registered before them). */
function registeredTriggerBars(ctx: LoopContext): TriggerBars {
  const s = ctx.manifest.settings;
  const significance = registeredThresholds(ctx.manifest.thresholds as Record<string, unknown>).significance;
  return { minTriggerRate: s?.min_trigger_rate ?? ctx.config.minTriggerRate, maxFalseTriggerRate: s?.max_false_trigger_rate ?? ctx.config.maxFalseTriggerRate, significance };
}

/** As registered at run start; a run registered before the setting existed has pipeline.yaml's. */
function registeredMaxErrorShare(ctx: LoopContext): number {
  const s = ctx.manifest.settings;
  return s?.max_error_share ?? ctx.config.maxErrorShare;
}

export async function run(ctx: LoopContext): Promise<StageOutcome> {
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  // Also checked by the runner's preflight; here too for a gate driven any other way.
  refuseEditedGateInputs(ctx.runDir, ctx.iteration);
  const { evaluation, cand, variantDir, alreadyApplied, checks: integrity } = gatherIntegrity(ctx, ctx.iteration);
  const registered = registeredThresholds(ctx.manifest.thresholds as Record<string, unknown>);
  const d = decide({ evaluation, thresholds: registered, category: cand?.category ?? 'other', risk: cand?.risk ?? 'high', integrity, maxIterations: ctx.manifest.settings?.max_iterations ?? ctx.config.loop.maxIterations, maxErrorShare: registeredMaxErrorShare(ctx), trigger: registeredTriggerBars(ctx) });
  let applied: GateArtifact['applied'];
  if (d.decision === 'keep' && variantDir) {
    const manifest = alreadyApplied ? readBackup(ctx.stateDir, ctx.runId, ctx.iteration)! : await applyVariant({ stateDir: ctx.stateDir, runId: ctx.runId, iteration: ctx.iteration, targetDir: ctx.manifest.target.skill_dir, variantDir, now: ctx.now(), links: ctx.config.loop.skillLinks });
    applied = {
      target: ctx.manifest.target.skill_dir,
      backup: `backups/${ctx.runId}/iter-${String(ctx.iteration).padStart(3, '0')}`,
      sha256_before: evaluation.inputs.target!,
      sha256_after: readSkill(ctx.manifest.target.skill_dir).contentHash,
      files: manifest.files.map((f) => f.path),
    };
  }
  const handoff = d.decision === 'refused' ? { next_step: 'abort', next_owner: 'human' } : HANDOFF.gated;
  const artifact: GateArtifact = {
    ...envelopeOf('gated', { runId: ctx.runId, iteration: ctx.iteration, now: ctx.now() }, { 'evaluation.json': sha256File(paths.evaluation), 'ranking.json': sha256File(paths.ranking), 'candidates.json': sha256File(paths.candidates) }, d.decision, handoff),
    decision: d.decision,
    candidate_id: evaluation.candidate_id,
    reason: d.reason,
    checks: d.checks,
    thresholds: registered as unknown as Record<string, unknown>,
    ...(d.holdout ? { holdout: d.holdout } : {}),
    ...(d.sequential ? { sequential: d.sequential } : {}),
    ...(d.run_level ? { run_level: d.run_level } : {}),
    ...(applied ? { applied } : {}),
  };
  await writeRecordedArtifact(ctx.runDir, paths.gate, gateArtifact, artifact, ctx.now());
  appendEvent(ctx.runDir, { event: 'finished', stage: 'gate', iteration: ctx.iteration, decision: d.decision }, ctx.now());
  return { artifactPath: paths.gate, verdict: d.decision, ...handoff, summary: `gate ${evaluation.candidate_id}: ${d.decision} — ${d.reason}`, engineCalls: 0 };
}
