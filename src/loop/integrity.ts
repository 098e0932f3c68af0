// The checks that what is about to be decided is what was measured: the artifacts the evaluation read,
// the variant it ran, the target it compared against and the thresholds registered at run start. The
// gate and `whet review approve` both apply a candidate, so both run this one list: a check added here
// cannot be forgotten by one of them. Each check states what failed, not only what it looks for, because
// a refusal's reason is made of these details.
import { existsSync } from 'node:fs';
import { readArtifact, sha256File } from '../state/artifact-io.js';
import { thresholdsDiff, thresholdsHash, type Thresholds } from '../config/thresholds.js';
import type { LoopContext } from './context.js';
import { iterationPaths } from './paths.js';
import { readSkill } from '../skill/read.js';
import { readBackup } from '../state/promote.js';
import { checkRecorded } from '../state/recorded.js';
import { readLenient } from '../state/read-lenient.js';
import { rankingArtifact, type RankingArtifact } from '../artifacts/ranking.js';
import { pipelineEvaluation, type PipelineEvaluation } from '../artifacts/evaluation.js';
import { candidatesArtifact, type CandidatesArtifact } from '../artifacts/candidates.js';
import type { Check } from '../artifacts/gate.js';

type Candidate = CandidatesArtifact['candidates'][number];

/** What the checks compare, read from the files; kept apart so the checks themselves stay pure. */
export interface IntegrityFacts {
  evaluation: PipelineEvaluation;
  ranking: RankingArtifact;
  rankingSha: string;
  candidatesSha: string;
  cand: Candidate | undefined;
  variantHash: string | undefined;
  targetNow: string;
  /** The target already equals the variant and this iteration's backup exists: a crash after applying. */
  alreadyApplied: boolean;
  registered: Thresholds;
  registeredSha: string;
  current: Thresholds;
}

const short = (h: string | undefined) => (h ? `${h.slice(0, 19)}…` : 'missing');

const check = (id: string, passed: boolean, ok: string, failed: string): Check => ({ id, passed, detail: passed ? ok : failed });

export function integrityChecks(f: IntegrityFacts): Check[] {
  const e = f.evaluation;
  const rankingRead = e.inputs['ranking.json'];
  const candidatesRead = f.ranking.inputs['candidates.json'];
  const targetOk = f.targetNow === e.inputs.target || f.alreadyApplied;
  const diff = thresholdsDiff(f.registered, f.current);
  return [
    check('ranking_unchanged', rankingRead === f.rankingSha, 'ranking.json is the one the evaluation read', `ranking.json changed after the evaluation read it (now ${short(f.rankingSha)}, read ${short(rankingRead)})`),
    check('candidates_unchanged', candidatesRead === f.candidatesSha, 'candidates.json is the one the ranking read', `candidates.json changed after the ranking read it (now ${short(f.candidatesSha)}, read ${short(candidatesRead)})`),
    check('candidate_known', f.cand !== undefined, `candidate ${e.candidate_id} is in candidates.json`, `candidate ${e.candidate_id} is not in candidates.json`),
    check(
      'variant_unchanged',
      f.variantHash !== undefined && f.variantHash === e.inputs.candidate,
      `the variant on disk is the one evaluated (${f.variantHash})`,
      f.variantHash === undefined ? `the variant of ${e.candidate_id} is missing from disk` : `the variant on disk is not the one evaluated (now ${short(f.variantHash)}, evaluated ${short(e.inputs.candidate)})`,
    ),
    check('target_unchanged', targetOk, 'the target is byte-identical to what was evaluated', `the target was edited after it was evaluated (now ${short(f.targetNow)}, evaluated ${short(e.inputs.target)})`),
    check(
      'thresholds_registered',
      f.registeredSha === thresholdsHash(f.current),
      'thresholds are the ones set before results',
      `thresholds changed since the run started: ${diff.length ? diff.join('; ') : 'pipeline.yaml’s thresholds hash differently from the registered ones'} — start a new run to use new thresholds`,
    ),
  ];
}

export interface Gathered {
  evaluation: PipelineEvaluation;
  cand: Candidate | undefined;
  variantDir: string | undefined;
  alreadyApplied: boolean;
  checks: Check[];
}

/**
 * Refuses (exit 2) a gate on artifacts edited since they were written (src/state/recorded.ts): the
 * evaluation decided on (ranking and candidates are held to it by hash), and the earlier gates whose
 * p-values the significance check corrects for — one that no longer reads at all is left out of that
 * family, as before. Run by the runner's preflight, before anything is moved, and by the gate itself.
 */
export function refuseEditedGateInputs(runDir: string, iteration: number): void {
  const evaluation = iterationPaths(runDir, iteration).evaluation;
  if (!existsSync(evaluation)) return;
  const earlier = Array.from({ length: iteration - 1 }, (_, i) => iterationPaths(runDir, i + 1).gate).filter((f) => readLenient(f) !== undefined);
  checkRecorded(runDir, [{ file: evaluation, what: 'evaluation.json' }, ...earlier.map((file) => ({ file, what: 'an earlier gate.json' }))], `gate iteration ${iteration}`);
}

/** Reads iteration `iteration`'s artifacts and the files on disk, and runs the checks on them. */
export function gatherIntegrity(ctx: LoopContext, iteration: number): Gathered {
  const paths = iterationPaths(ctx.runDir, iteration);
  const evaluation = readArtifact(paths.evaluation, pipelineEvaluation, 'evaluation');
  const ranking = readArtifact(paths.ranking, rankingArtifact, 'ranking');
  const candidates = readArtifact(paths.candidates, candidatesArtifact, 'candidates');
  const cand = candidates.candidates.find((c) => c.id === evaluation.candidate_id);
  const variantDir = cand ? `${paths.dir}/${cand.variant_path}` : undefined;
  const targetNow = readSkill(ctx.manifest.target.skill_dir).contentHash;
  const variantHash = variantDir && existsSync(variantDir) ? readSkill(variantDir).contentHash : undefined;
  const alreadyApplied = readBackup(ctx.stateDir, ctx.runId, iteration) !== undefined && targetNow === variantHash;
  const checks = integrityChecks({
    evaluation,
    ranking,
    rankingSha: sha256File(paths.ranking),
    candidatesSha: sha256File(paths.candidates),
    cand,
    variantHash,
    targetNow,
    alreadyApplied,
    registered: ctx.manifest.thresholds as unknown as Thresholds,
    registeredSha: ctx.manifest.thresholds_sha256,
    current: ctx.config.thresholds,
  });
  return { evaluation, cand, variantDir, alreadyApplied, checks };
}
