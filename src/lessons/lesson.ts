// The lesson one iteration teaches, as a pure function of its artifacts: what was tried on which
// target (category, action types, content hash), what the gate decided, the held-out delta with a
// paired bootstrap interval, and the gate's reason. An iteration with nothing evaluated still leaves a
// lesson ("no candidate evaluated"), so plateaus are visible in memory as well as in the run.
import { pairedBootstrapCI, type BootstrapPair } from '../stats/index.js';
import type { RankingArtifact } from '../artifacts/ranking.js';
import type { PipelineEvaluation, StandaloneEvaluation } from '../artifacts/evaluation.js';
import type { GateArtifact } from '../artifacts/gate.js';
import type { CandidatesArtifact } from '../artifacts/candidates.js';
import type { Lesson } from '../artifacts/learning.js';
import { round4 as r4 } from '../core/numbers.js';

export const BOOTSTRAP_SEED = 20261130;
export const BOOTSTRAP_ITERATIONS = 10_000;

export interface LessonFacts {
  runId: string;
  iteration: number;
  /** The target's skill folder, as run.json names it (lessons are looked up by it). */
  target: string;
  at: string;
  baseline: StandaloneEvaluation;
  candidates: CandidatesArtifact;
  ranking: RankingArtifact;
  evaluation?: PipelineEvaluation;
  gate?: GateArtifact;
}


/**
 * 95% paired cluster-bootstrap interval of the held-out pass-rate difference (candidate − baseline),
 * each task a cluster, pass = 1 and fail = 0, tasks with an error on either side left out. Pass/fail
 * rather than partial-credit scores, so the interval is about the same number as the gate's delta
 * (a pass-rate difference). Seeded, so the same run always reports the same interval. Null with fewer
 * than two held-out tasks: one task cannot give an interval.
 */
export function holdoutDeltaCI(e: PipelineEvaluation): { low: number; high: number } | null {
  const base = new Map(e.baseline_results.filter((r) => r.split === 'holdout').map((r) => [r.task_id, r]));
  const pairs: BootstrapPair[] = [];
  for (const c of e.candidate_results) {
    const b = base.get(c.task_id);
    if (c.split !== 'holdout' || !b || c.status === 'error' || b.status === 'error') continue;
    pairs.push({ cluster: c.task_id, baseline: b.passed ? 1 : 0, candidate: c.passed ? 1 : 0 });
  }
  if (pairs.length < 2) return null;
  const ci = pairedBootstrapCI(pairs, { seed: BOOTSTRAP_SEED, iterations: BOOTSTRAP_ITERATIONS });
  return Number.isFinite(ci.low) && Number.isFinite(ci.high) ? { low: r4(ci.low), high: r4(ci.high) } : null;
}

/** Why nothing was evaluated this iteration, from the ranking. */
export function nothingEvaluatedWhy(c: CandidatesArtifact, r: RankingArtifact): string {
  if (c.candidates.length === 0) {
    const errs = c.proposer_errors.length ? `; proposer errors: ${c.proposer_errors.map((e) => `${e.proposer}: ${e.message}`).join(' | ')}` : '';
    return `no candidate evaluated: no candidates were proposed (${c.skipped?.length ?? 0} skipped)${errs}`;
  }
  return `no candidate evaluated: ${r.reason ?? `none of ${c.candidates.length} candidate(s) was selected`}`;
}

/** The signal a candidate answers, as lessons and the discriminator compare it. */
export function addressesOf(answers: { kind: string; dimension?: string | undefined; detail?: string | undefined }): string {
  return `${answers.kind}:${answers.dimension ?? answers.detail ?? ''}`;
}

export function buildLesson(f: LessonFacts): Lesson {
  const targetSha = f.evaluation?.inputs.target ?? f.baseline.inputs.target ?? f.candidates.target.sha256;
  const base = { run_id: f.runId, iteration: f.iteration, target: f.target, target_sha256: targetSha, at: f.at };
  if (!f.gate) {
    return { ...base, candidate_id: null, category: null, actions: [], content_sha256: null, decision: 'none', delta: null, delta_ci95: null, why: nothingEvaluatedWhy(f.candidates, f.ranking) };
  }
  const cand = f.candidates.candidates.find((c) => c.id === f.gate!.candidate_id);
  return {
    ...base,
    candidate_id: f.gate.candidate_id,
    category: cand?.category ?? null,
    addresses: cand?.answers ? addressesOf(cand.answers) : null,
    actions: cand ? cand.actions.map((a) => a.type) : [],
    content_sha256: cand?.content_sha256 ?? null,
    decision: f.gate.decision,
    delta: f.gate.holdout?.delta ?? null,
    delta_ci95: f.evaluation && f.evaluation.candidate_id === f.gate.candidate_id ? holdoutDeltaCI(f.evaluation) : null,
    why: f.gate.reason,
  };
}
