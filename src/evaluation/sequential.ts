// Attempts as evidence on a noisy engine (docs/method.md: Deciding on a noisy agent). Each held-out task
// is a stratum: its candidate and baseline attempts form a 2×2 table, and the Cochran–Mantel–Haenszel
// score (Mantel & Haenszel 1959) sums, over tasks, the candidate's passes minus what equal pass chances
// would give, with the hypergeometric variance as its information. Under an edit that does nothing every
// task's attempts are exchangeable between the variants, whatever each task's own chance, so the score's
// null distribution needs no model of the tasks. Rounds add attempts, and the group-sequential design
// (src/stats/group-sequential.ts) says after each whether keep or stop is already decided at the
// registered significance. Pure: the evaluate stage calls it after each round, the gate replays it.
import { decideAt, nextBoundary, stagewisePValue, type Boundary, type SpendingDesign } from '../stats/group-sequential.js';
import { taskLevelTest } from './run-level.js';
import { round6 } from '../core/numbers.js';

export interface SequentialSettings {
  /** One-sided: the most often an edit that does nothing may be kept (thresholds.significance). */
  significance: number;
  /** The smallest held-out gain worth finding, in pass-rate points (thresholds.min_effect). */
  minEffect: number;
  /** Attempts per held-out task per variant at most (evaluate.max_attempts). */
  maxAttempts: number;
  /**
   * A gate's test (issue 38): `significance` is then the run's per-candidate level (run-level.ts), and a
   * keep also needs the task-level t test over per-task differences at the candidate's level (never above 0.025). Unset
   * for a nightly's drift test, which keeps nothing.
   */
  run?: { significance: number; maxIterations: number };
  /**
   * The spending constants a recorded test ran with (its artifact's `beta`, `gamma_alpha`, `gamma_beta`):
   * a gate or `whet verify` re-checks a record on the design it was made with, not today's DESIGN.
   */
  recorded?: { beta: number; gammaAlpha: number; gammaBeta: number };
}

/**
 * The fixed parts of the design, stated so anyone can recompute a boundary. The keep boundary spends α
 * early (Hwang–Shih–DeCani γ = 2, near Pocock's): a real gain is usually clear after two or three
 * attempts, and each attempt costs every held-out task two calls. The futility boundary spends β = 0.3
 * early too at the gate (γ = 4; issue 38 §7): most candidates of a real loop do nothing, and stopping one
 * by the second or third attempt is what a rejection costs. Linear spending (γ = 0) cost a no-effect edit
 * 181 calls on a suite whose half of the held-out tasks nearly always pass or fail (40 tasks, 20 held out,
 * 0.01 per candidate, 300 seeded runs), γ = 4 162. β = 0.3 rather than 0.2 (2,000 seeded runs each,
 * docs/method.md: Regressions with stated power): a no-effect candidate on that suite costs about 20
 * calls fewer, which is what lets the regression guard follow every task that may have fallen within
 * issue 38's 128; +25 points is kept in 92.3% instead of 92.7%, and +10 points on the ordinary suite, far
 * below what 20 held-out tasks can find at 0.01, in 18.5% instead of 18.8% (1,000 runs). The plan states
 * the power at min_effect this design has. A continuity correction of ½ keeps the normal
 * approximation of a discrete score on the safe side: without it an edit that does nothing was kept in
 * 5.6% of 2,000 simulated runs at α = 0.05, with it about 4% (20 held-out tasks, chances 0.3–0.8), and in
 * 0.6% of 3,000 at 0.01 (scripts/decision-trials.ts).
 */
export const DESIGN = { beta: 0.3, gammaAlpha: 2, gammaBeta: 4, continuity: 0.5 } as const;

/** A nightly's drift test keeps the futility spending it was measured with (scripts/drift-trials.ts), β = 0.2 spent linearly: its stop is "no drift", and spending more β, or early, would lower its power for a step. */
const NIGHTLY_BETA = 0.2;
const NIGHTLY_GAMMA_BETA = 0;
const gammaBetaOf = (s: SequentialSettings) => (s.run ? DESIGN.gammaBeta : NIGHTLY_GAMMA_BETA);
const betaOf = (s: SequentialSettings) => (s.run ? DESIGN.beta : NIGHTLY_BETA);

/** The settings record an artifact keeps beside its looks (evaluation.json and the night record alike). */
export const designSettings = (s: SequentialSettings) => ({
  significance: s.significance,
  min_effect: s.minEffect,
  max_attempts: s.maxAttempts,
  beta: betaOf(s),
  gamma_alpha: DESIGN.gammaAlpha,
  gamma_beta: gammaBetaOf(s),
  continuity: DESIGN.continuity,
  ...(s.run ? { run_significance: s.run.significance, max_iterations: s.run.maxIterations, task_level: true } : {}),
});

/** The settings a recorded design ran with, as the test takes them. */
export function settingsOfRecord(r: { significance: number; min_effect: number; max_attempts: number; run_significance?: number; max_iterations?: number; beta?: number; gamma_alpha?: number; gamma_beta?: number }): SequentialSettings {
  return {
    significance: r.significance,
    minEffect: r.min_effect,
    maxAttempts: r.max_attempts,
    ...(r.run_significance !== undefined && r.max_iterations !== undefined ? { run: { significance: r.run_significance, maxIterations: r.max_iterations } } : {}),
    ...(r.beta !== undefined && r.gamma_alpha !== undefined && r.gamma_beta !== undefined ? { recorded: { beta: r.beta, gammaAlpha: r.gamma_alpha, gammaBeta: r.gamma_beta } } : {}),
  };
}

export const spendingDesign = (s: SequentialSettings): SpendingDesign => ({ alpha: s.significance, ...(s.recorded ?? { beta: betaOf(s), gammaAlpha: DESIGN.gammaAlpha, gammaBeta: gammaBetaOf(s) }) });

export interface Counts {
  passes: number;
  judged: number;
}

export interface TaskPair {
  task_id: string;
  candidate: Counts;
  baseline: Counts;
}

/** One look, as evaluation.json records it: enough to recompute its boundaries from the looks before it. */
export interface Look {
  round: number;
  /** Attempts per held-out task per variant asked for by this look. */
  attempts: number;
  tasks: number;
  score: number;
  info: number;
  theta1: number | null;
  z: number | null;
  t: number;
  final: boolean;
  /** null for "no boundary" (±∞ does not survive JSON). */
  upper: number | null;
  lower: number | null;
  alpha_spent: number;
  decision: 'keep' | 'stop' | 'continue';
  /** A gate's test: the task-level t statistic at this look and the critical value it had to reach (run-level.ts). */
  task_t?: number | null;
  task_critical?: number | null;
}

export interface Cmh {
  score: number;
  info: number;
  /** Σ m_c·m_b/(m_c+m_b): the score's mean per unit of true gain on every task. */
  weight: number;
}

export function cmh(pairs: readonly TaskPair[]): Cmh {
  let score = 0;
  let info = 0;
  let weight = 0;
  for (const p of pairs) {
    const mc = p.candidate.judged;
    const mb = p.baseline.judged;
    const n = mc + mb;
    if (mc === 0 || mb === 0) continue;
    const s = p.candidate.passes + p.baseline.passes;
    score += p.candidate.passes - (mc * s) / n;
    if (n > 1) info += (mc * mb * s * (n - s)) / (n * n * (n - 1));
    weight += (mc * mb) / n;
  }
  return { score, info, weight };
}

const finite = (x: number): number | null => (Number.isFinite(x) ? x : null);
const unfinite = (x: number | null, sign: 1 | -1): number => (x === null ? sign * Infinity : x);

/** Recorded looks as the boundaries they set (information never falls: a look that learned nothing keeps the last). */
function asBoundaries(history: readonly Look[]): Boundary[] {
  let last = 0;
  return history.map((l) => {
    last = Math.max(last, l.info);
    return { t: l.t, info: last, theta1: l.theta1, final: l.final, upper: unfinite(l.upper, 1), lower: unfinite(l.lower, -1), alphaSpent: l.alpha_spent };
  });
}

/** The z a look reports: the score less the continuity correction, on its own information. */
export function zOf(c: Cmh): number | null {
  if (!(c.info > 0)) return null;
  const shrunk = Math.sign(c.score) * Math.max(0, Math.abs(c.score) - DESIGN.continuity);
  return shrunk / Math.sqrt(c.info);
}

/** The look after `history`, at `attempts` per task per variant, from the tasks' counts so far. */
export function lookAt(history: readonly Look[], pairs: readonly TaskPair[], at: { round: number; attempts: number }, s: SequentialSettings): Look {
  const c = cmh(pairs);
  const t = Math.min(1, at.attempts / s.maxAttempts);
  const final = at.attempts >= s.maxAttempts;
  const theta1 = c.info > 0 ? (s.minEffect * c.weight) / c.info : null;
  const earlier = asBoundaries(history);
  const b = nextBoundary(earlier, { t, info: Math.max(c.info, earlier.at(-1)?.info ?? 0), theta1, final }, spendingDesign(s));
  const z = zOf(c);
  const compared = pairs.filter((p) => p.candidate.judged > 0 && p.baseline.judged > 0);
  // No task to compare, or a baseline that passed every attempt: no candidate can show a gain here.
  const nothingToGain = compared.length === 0 || compared.every((p) => p.baseline.passes === p.baseline.judged);
  let decision = nothingToGain ? 'stop' : z === null || !(c.info > (history.at(-1)?.info ?? 0) - 1e-12) ? (final ? 'stop' : 'continue') : decideAt(b, z);
  // Tasks like these: the CMH score asks whether these tasks changed; a keep must also show the mean
  // per-task difference above 0 over tasks (the intersection of two tests only lowers false keeps). When
  // it does not, the rounds go on: a keep still needs the CMH boundary crossed at some look, so its error
  // stays what the design spends.
  let task: { task_t: number | null; task_critical: number | null } | undefined;
  if (s.run) {
    const tl = taskLevelTest(taskDiffs(compared), s.significance);
    task = { task_t: tl.t, task_critical: tl.critical };
    if (decision === 'keep' && !tl.passed) decision = final ? 'stop' : 'continue';
  }
  return {
    round: at.round,
    attempts: at.attempts,
    tasks: compared.length,
    score: round6(c.score),
    info: round6(c.info),
    theta1: theta1 === null ? null : round6(theta1),
    z: z === null ? null : round6(z),
    t: round6(t),
    final,
    upper: finite(round6(b.upper)),
    lower: finite(round6(b.lower)),
    alpha_spent: round6(b.alphaSpent),
    decision,
    ...task,
  };
}

/**
 * The per-task differences of attempt shares the task-level test and the effect's interval are taken over:
 * the held-out tasks compared on both sides whose attempts did not all agree. A task that passed (or
 * failed) every attempt on both sides carries no information about the difference — its CMH variance is
 * 0, its difference exactly 0 — and whether a task ends that way depends on its margins alone, which under
 * an edit that does nothing say nothing of the sign of its difference. Counting such tasks as data put
 * zeros with no attempt noise into the t test's spread: on a suite whose half of the held-out tasks nearly
 * always pass or fail, a +25-point edit was kept in 88% of 200 seeded runs against 91.5% without them.
 */
export function taskDiffs(pairs: readonly TaskPair[]): number[] {
  const compared = pairs.filter((p) => p.candidate.judged > 0 && p.baseline.judged > 0);
  const diff = (p: TaskPair) => p.candidate.passes / p.candidate.judged - p.baseline.passes / p.baseline.judged;
  const d = compared.filter(informative).map(diff);
  // Every informative task moved by the same amount (an engine whose attempts agree, say): their spread
  // says nothing of how the effect varies over tasks, and a test or interval on it would claim no
  // variation at all. Then every compared task counts, the agreeing ones' 0 included.
  return d.length >= 2 && d.every((x) => x === d[0]) ? compared.map(diff) : d;
}

/** Some attempt of the task passed and some failed, on either side: its 2×2 table has information. */
export function informative(p: TaskPair): boolean {
  const passes = p.candidate.passes + p.baseline.passes;
  return passes > 0 && passes < p.candidate.judged + p.baseline.judged;
}

/**
 * The boundaries of recorded looks recomputed from their information alone, and whether each recorded
 * boundary and decision is what the design gives: what the gate checks before it trusts an evaluation.
 */
export function replay(looks: readonly Look[], s: SequentialSettings): { ok: boolean; problems: string[] } {
  const problems: string[] = [];
  const all = asBoundaries(looks);
  for (let k = 0; k < looks.length; k++) {
    const l = looks[k]!;
    const b = nextBoundary(all.slice(0, k), all[k]!, spendingDesign(s));
    const near = (x: number | null, y: number) => (x === null ? !Number.isFinite(y) : Math.abs(x - y) < 1e-4);
    if (!near(l.upper, b.upper) || !near(l.lower, b.lower) || Math.abs(l.alpha_spent - b.alphaSpent) > 1e-4) {
      problems.push(`round ${l.round}: recorded boundaries [${l.lower}, ${l.upper}] are not the design's [${round6(b.lower)}, ${round6(b.upper)}]`);
    }
    const want = l.z === null ? (l.final ? 'stop' : 'continue') : decideAt(b, l.z);
    // A look with nothing to compare (or nothing to gain, or no uncertain task left) may stop before its boundaries say so.
    const early = l.decision === 'stop' && (l.tasks === 0 || want === 'continue');
    // A crossing the task-level test did not confirm goes on (or stops at the last look): never a keep.
    const taskHeld = s.run !== undefined && want === 'keep' && l.decision !== 'keep' && (l.decision === 'continue' ? !l.final : true) && !(l.task_t != null && l.task_critical != null && l.task_t >= l.task_critical);
    if (want !== l.decision && !early && !taskHeld) problems.push(`round ${l.round}: decision ${l.decision} where z ${l.z} gives ${want}`);
    if (s.run && l.decision === 'keep' && !(l.task_t != null && l.task_critical != null && l.task_t >= l.task_critical)) problems.push(`round ${l.round}: kept without the task-level test (t ${l.task_t ?? '—'}, needs ${l.task_critical ?? '—'})`);
    if (l.decision !== 'continue' && k < looks.length - 1) problems.push(`round ${l.round} decided ${l.decision} but more rounds were run`);
  }
  return { ok: problems.length === 0, problems };
}

/** The stage-wise p-value of a finished sequence of looks (what Holm adjusts across a run's candidates). */
export function sequentialPValue(looks: readonly Look[], s: SequentialSettings): number {
  const last = looks.at(-1);
  if (!last || last.z === null) return 1;
  return Number(stagewisePValue(asBoundaries(looks), last.z).toPrecision(6));
}
