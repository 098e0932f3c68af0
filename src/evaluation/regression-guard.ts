// The regression guard on a noisy engine (issue 38 §5; docs/method.md: Deciding on a noisy agent): each
// held-out task is tested on its own attempts by Boschloo's exact test, one-sided at `alpha`. A false
// alarm here rejects a candidate, never keeps one, so each task is held to `alpha` rather than the family
// (Holm over every task, at one attempt per train task, flagged a task that fell from 0.9 to 0.3 in at most
// one run in five). The sequential test stops as soon as the candidate is decided, often after two or
// three attempts, where no fall can show; so a task that still looks worse when it stops is followed
// (`followed`): it gets attempts on both variants up to evaluate.max_attempts, while the chance that it
// would be flagged there stays worth the calls. The fall the guard could find is stated beside it.
import { binomialPmf } from '../stats/binomial.js';
import { boschlooLower } from '../stats/boschloo.js';
import type { TaskPair } from './sequential.js';
import { both, share } from './noisy-checks.js';

/** The power the regression guard is stated at, and the pass chance of the task it is stated for. */
export const GUARD_POWER = 0.8;
export const GUARD_FROM = 0.9;
/**
 * A task is followed while the chance that it would be flagged at max_attempts, at the chances its
 * attempts show so far, is at least this. After a keep the guard decides whether the keep stands; after a
 * stop the candidate is rejected already and the guard names what fell, so it follows nearly every task
 * the candidate is behind on. Chosen on the seeded trials of scripts/regression-trials.ts and the
 * half-extreme suite, 2,000 runs each, with the design's β = 0.3 and all-pass ties settled after three
 * attempts each (docs/method.md: Regressions with stated power): 0.25 and 0.07 named the fallen task in
 * 82.8% of runs at 124.7 calls for a no-effect candidate on the half-extreme suite (the bars: 80%, 128),
 * +25 kept in 92.3% there; 0.25 and 0.1: 81.3% at 120.9; 0.25 and 0.05: 83.0% at 125.4. With β = 0.2 and
 * ties settled after two, 0.3 and 0.6 (what shipped before): 69.5% at 121.5; following every task that
 * may have fallen cost more than 128 calls before it named 80%.
 */
export const FOLLOW_CHANCE = { keep: 0.25, stop: 0.07 };

export interface RegressionGuard {
  /** Held-out tasks whose own attempts show the candidate worse at `alpha`. */
  regressions: { task_id: string; p: number }[];
  tasks: number;
  /** Attempts per variant of the middle held-out task: what the power is stated at when none was followed. */
  attempts: number;
  /** Tasks followed past the decision, the attempts per variant at the decision, and those they could reach (max_attempts). */
  followed: { tasks: number; from: number; to: number } | null;
  /** Attempts per variant the power is stated at: `attempts`, or what followed tasks could reach. */
  statedAt: number;
  /** The pass chance a task that passed GUARD_FROM of the time must fall to for GUARD_POWER at `statedAt` (null: no fall can show). */
  detectable: number | null;
}

/** The one-sided p-value that the candidate is worse on this task, from its own attempts. */
const worseP = (x: TaskPair) => boschlooLower(x.candidate.passes, x.candidate.judged, x.baseline.passes, x.baseline.judged);

/** Boschloo's one-sided rejections at `alpha` for m attempts each: reject[xc][xb]. */
function rejections(m: number, alpha: number): boolean[][] {
  return Array.from({ length: m + 1 }, (_, xc) => Array.from({ length: m + 1 }, (_, xb) => boschlooLower(xc, m, xb, m) <= alpha));
}

const binomial = (m: number, p: number) => Array.from({ length: m + 1 }, (_, x) => binomialPmf(x, m, p));

/** The chance that the guard flags a task whose pass chance fell from `from` to `to`, at m attempts each. */
export function guardPower(m: number, from: number, to: number, alpha: number, reject = rejections(m, alpha)): number {
  const b = binomial(m, from);
  const c = binomial(m, to);
  let power = 0;
  for (let xc = 0; xc <= m; xc++) for (let xb = 0; xb <= m; xb++) if (reject[xc]![xb]) power += c[xc]! * b[xb]!;
  return power;
}

/** The highest chance a task at `from` may fall to and still be flagged with GUARD_POWER, to 0.01; null when even 0 is not. */
export function detectableFall(m: number, from: number, alpha: number): number | null {
  if (m < 1) return null;
  const reject = rejections(m, alpha);
  if (guardPower(m, from, 0, alpha, reject) < GUARD_POWER) return null;
  let lo = 0;
  let hi = from;
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (guardPower(m, from, mid, alpha, reject) >= GUARD_POWER) lo = mid;
    else hi = mid;
  }
  return Math.floor(lo * 100) / 100;
}

/**
 * A variant's pass chance on a task as its attempts show it, pulled toward the task's pooled share by two
 * pseudo-attempts: most tasks do not change under an edit, so one or two attempts that disagree are not
 * read as a fall (following after a stop at 0.3, 200 runs: 130 calls and 75% found, where each side's own
 * share pulled toward ½ cost 133 calls for 76.5%).
 */
function estimate(x: TaskPair['baseline'], p: TaskPair): number {
  const pooled = (p.candidate.passes + p.baseline.passes + 1) / (p.candidate.judged + p.baseline.judged + 2);
  return (x.passes + 2 * pooled) / (x.judged + 2);
}

/**
 * The chance that a task would be flagged after `more` attempts on each variant, if its chances are what
 * its attempts show so far (the other tasks' and the decision's data play no part).
 */
export function flagChance(p: TaskPair, more: { candidate: number; baseline: number }, alpha: number): number {
  const { candidate: c, baseline: b } = p;
  const mc = Math.max(0, more.candidate);
  const mb = Math.max(0, more.baseline);
  const fc = binomial(mc, estimate(c, p));
  const fb = binomial(mb, estimate(b, p));
  let chance = 0;
  for (let a = 0; a <= mc; a++) for (let d = 0; d <= mb; d++) if (boschlooLower(c.passes + a, c.judged + mc, b.passes + d, b.judged + mb) <= alpha) chance += fc[a]! * fb[d]!;
  return chance;
}

/**
 * The held-out tasks worth more attempts for the guard, `left(task)` attempts per variant short of
 * max_attempts: the candidate behind on them, and a chance of at least FOLLOW_CHANCE to be flagged by
 * max_attempts. At the decision (`atDecision`) a task already flagged is not followed; once followed, a
 * task is followed while it stays worth it, flagged or not, so it is tested once, where it stops.
 */
export function toFollow(pairs: readonly TaskPair[], left: (task: string) => { candidate: number; baseline: number }, alpha: number, atDecision: boolean, decision: 'keep' | 'stop'): string[] {
  return both(pairs)
    .filter((x) => share(x.candidate) < share(x.baseline) && !(atDecision && worseP(x) <= alpha))
    .filter((x) => {
      const more = left(x.task_id);
      return (more.candidate > 0 || more.baseline > 0) && flagChance(x, more, alpha) >= FOLLOW_CHANCE[decision];
    })
    .map((x) => x.task_id);
}

/**
 * The guard's verdict over every held-out attempt, the followed ones included. `followed`: how many tasks
 * its rounds followed, from the decision's attempts per variant toward `to` (max_attempts).
 */
export function regressionGuard(heldOut: readonly TaskPair[], alpha: number, followed?: { tasks: number; from: number; to: number }): RegressionGuard {
  const ps = both(heldOut);
  const regressions = ps.flatMap((x) => {
    const p = worseP(x);
    return p <= alpha && share(x.candidate) < share(x.baseline) ? [{ task_id: x.task_id, p: Number(p.toPrecision(4)) }] : [];
  });
  const sizes = ps.map((x) => Math.min(x.candidate.judged, x.baseline.judged)).sort((a, b) => a - b);
  const attempts = sizes.length ? sizes[Math.floor((sizes.length - 1) / 2)]! : 0;
  const f = followed && followed.tasks > 0 ? followed : null;
  const statedAt = f ? Math.max(f.to, attempts) : attempts;
  return { regressions, tasks: ps.length, attempts, followed: f, statedAt, detectable: detectableFall(statedAt, GUARD_FROM, alpha) };
}
