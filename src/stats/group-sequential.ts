// A group-sequential one-sided test with error spending (Lan & DeMets 1983), computed by the recursive
// numerical integration of Armitage, McPherson & Rowe (1969) as Jennison & Turnbull set it out ("Group
// Sequential Methods with Applications to Clinical Trials", 2000, ch. 7 and 19). The statistic at each look
// is a score S_k with information I_k; under the canonical joint distribution its increments are
// independent normals, S_k − S_{k−1} ~ N(θ·ΔI_k, ΔI_k). The upper (keep) boundary spends the type I error
// α(t) = α·(1 − e^{−γt})/(1 − e^{−γ}) (Hwang, Shih & DeCani 1990) over the information fraction t; the lower
// (stop: no evidence) boundary spends β(t) the same way under the alternative θ₁ and is non-binding: the
// upper boundaries are computed as if it were never used, so stopping early for futility can only lower
// the rate of keeping an edit that does nothing. Each look's boundary depends only on the looks so far,
// so a run that looks again (a gate re-checking an evaluation) gets the same numbers.
import { normalCdf, normalSurvival } from './normal.js';

export interface SpendingDesign {
  /** One-sided type I error: the most often an edit that does nothing may be kept. */
  alpha: number;
  /** Type II error spent by the futility boundary under θ₁ (the smallest effect worth finding). */
  beta: number;
  /** Hwang–Shih–DeCani γ for α and for β: negative spends late (O'Brien–Fleming-like), positive early. */
  gammaAlpha: number;
  gammaBeta: number;
}

export interface LookInfo {
  /** Information fraction of the planned maximum, in (0, 1]. */
  t: number;
  /** Statistical information (the score's null variance) at this look; non-decreasing. */
  info: number;
  /** Drift per unit information of the smallest effect worth finding, for the futility boundary (null: none). */
  theta1: number | null;
  /** The last look allowed: the boundaries meet and every remaining α is spent. */
  final: boolean;
}

export interface Boundary extends LookInfo {
  /** Keep when Z ≥ upper. */
  upper: number;
  /** Stop without keeping when Z ≤ lower (−Infinity: no futility stop at this look). */
  lower: number;
  /** α spent up to and including this look (actual crossing probability under the null). */
  alphaSpent: number;
}

interface Grid {
  s: number[];
  /** Density × quadrature weight: Σ w = probability of reaching this look still undecided. */
  w: number[];
}

const POINT: Grid = { s: [0], w: [1] };
const G = 61; // Simpson points per look (odd): boundaries agree with 241 points to 0.001
const Z_MAX = 12;
/** How close solve() closes in on a boundary, in z: far below any difference a decision can see. */
const Z_TOL = 1e-12;
/** Information below this is no new information: the look keeps the last boundaries. */
const EPS = 1e-12;

export function hsdSpend(total: number, gamma: number, t: number): number {
  const x = Math.min(1, Math.max(0, t));
  if (Math.abs(gamma) < 1e-9) return total * x;
  return (total * (1 - Math.exp(-gamma * x))) / (1 - Math.exp(-gamma));
}

/** Probability mass above (or below) score c at the next look, from the undecided mass of the last one. */
function tail(g: Grid, dI: number, theta: number, c: number, above: boolean): number {
  const sd = Math.sqrt(dI);
  let p = 0;
  for (let j = 0; j < g.s.length; j++) {
    const z = (c - g.s[j]! - theta * dI) / sd;
    p += g.w[j]! * (above ? normalSurvival(z) : normalCdf(z));
  }
  return p;
}

/** The undecided mass carried to the next look: the density on (lo, hi) on a Simpson grid. */
function propagate(g: Grid, dI: number, theta: number, lo: number, hi: number, mean: number, sdAll: number): Grid {
  const a = Math.max(lo, mean - 10 * sdAll);
  const b = Math.min(hi, mean + 10 * sdAll);
  if (!(b > a)) return { s: [], w: [] };
  const h = (b - a) / (G - 1);
  const sd = Math.sqrt(dI);
  const s: number[] = [];
  const w: number[] = [];
  for (let i = 0; i < G; i++) {
    const x = a + i * h;
    let d = 0;
    for (let j = 0; j < g.s.length; j++) {
      const z = (x - g.s[j]! - theta * dI) / sd;
      d += (g.w[j]! * Math.exp(-0.5 * z * z)) / (sd * Math.sqrt(2 * Math.PI));
    }
    const simpson = i === 0 || i === G - 1 ? 1 : i % 2 === 1 ? 4 : 2;
    s.push(x);
    w.push((d * simpson * h) / 3);
  }
  return { s, w };
}

/**
 * Where a monotone mass crosses `target`: for the mass above z (`falling`), the smallest z whose mass is at
 * most `target`; for the mass below z, the largest such z. The Illinois variant of regula falsi (Dowell &
 * Jarratt 1971) on a bracket kept as bisection would keep it (the mass above the target on one side, not
 * on the other), so the answer is bisection's to within Z_TOL, in about a fifth of the mass evaluations
 * (each a sum over the grid). Every fourth step bisects if the bracket has not halved since the last.
 */
function solve(mass: (z: number) => number, target: number, falling: boolean): number {
  const onLow = (m: number) => m > target === falling;
  let lo = -Z_MAX;
  let hi = Z_MAX;
  const mLo = mass(lo);
  const mHi = mass(hi);
  // No crossing inside the range: the end bisection would close in on.
  if (!onLow(mLo)) return -Z_MAX;
  if (onLow(mHi)) return Z_MAX;
  let fLo = mLo - target;
  let fHi = mHi - target;
  let side = 0;
  let checked = hi - lo;
  for (let i = 1; i <= 240 && hi - lo > Z_TOL; i++) {
    let z = (lo * fHi - hi * fLo) / (fHi - fLo);
    if (i % 4 === 0) {
      if (hi - lo > checked / 2) z = (lo + hi) / 2;
      checked = hi - lo;
    }
    if (!(z > lo && z < hi)) z = (lo + hi) / 2;
    const m = mass(z);
    if (onLow(m)) {
      lo = z;
      fLo = m - target;
      if (side === -1) fHi /= 2;
      side = -1;
    } else {
      hi = z;
      fHi = m - target;
      if (side === 1) fLo /= 2;
      side = 1;
    }
  }
  return falling ? hi : lo;
}

/**
 * The boundaries of every look so far, each computed from the looks before it alone. `looks` must have
 * non-decreasing information; a look with no new information keeps the last boundaries.
 */
export function boundaries(looks: readonly LookInfo[], d: SpendingDesign): Boundary[] {
  const out: Boundary[] = [];
  for (const look of looks) out.push(nextBoundary(out, look, d));
  return out;
}

/**
 * The boundaries of `look` given the earlier looks' boundaries as they were set (a run records them, so
 * each look costs the looks before it once, not again for every earlier look).
 */
export function nextBoundary(earlier: readonly Boundary[], look: LookInfo, d: SpendingDesign): Boundary {
  const prev = earlier[earlier.length - 1];
  const lastInfo = prev?.info ?? 0;
  const spentBefore = prev?.alphaSpent ?? 0;
  const dI = look.info - lastInfo;
  if (!(dI > EPS)) {
    // Nothing new was learned: no α is spent, and only the final look decides (keep needs a crossing).
    const upper = prev?.upper ?? Infinity;
    return { ...look, upper, lower: look.final ? upper : -Infinity, alphaSpent: spentBefore };
  }
  // The keep boundaries ignore the non-binding futility stops: the null's mass is stopped by the upper ones alone.
  const nullGrid = walk(earlier, 0, false).grid;
  const sqrtI = Math.sqrt(look.info);
  const target = look.final ? d.alpha : hsdSpend(d.alpha, d.gammaAlpha, look.t);
  const inc = Math.max(0, target - spentBefore);
  const cross = (z: number) => tail(nullGrid, dI, 0, z * sqrtI, true);
  const upper = inc <= 1e-15 ? Infinity : solve(cross, inc, true);
  const alphaSpent = spentBefore + (Number.isFinite(upper) ? cross(upper) : 0);
  const lower = look.final ? upper : futilityBound(earlier, look, d, upper);
  return { ...look, upper, lower: Math.min(lower, upper), alphaSpent };
}

/** A boundary on the score scale (z·√I); ±∞ stays ±∞. */
const scaled = (z: number, sqrtI: number) => (Number.isFinite(z) ? z * sqrtI : z);

/**
 * The one walk over looks: under drift θ, the mass still undecided reaching each look with new
 * information is handed to `atLook` (with the information the look adds), then carried past the look:
 * below its upper boundary and, when `binding`, above its lower one. Looks that add no information are
 * passed over; the walk ends after a final look. Returns the mass undecided after the last look walked,
 * and the index after it.
 */
function walk(looks: readonly Boundary[], theta: number, binding: boolean, atLook?: (grid: Grid, dI: number, b: Boundary, k: number) => void): { grid: Grid; lastInfo: number; end: number } {
  let grid = POINT;
  let lastInfo = 0;
  let k = 0;
  for (; k < looks.length; k++) {
    const b = looks[k]!;
    const dI = b.info - lastInfo;
    if (!(dI > EPS)) continue;
    atLook?.(grid, dI, b, k);
    if (b.final) return { grid, lastInfo, end: k + 1 };
    const sq = Math.sqrt(b.info);
    grid = propagate(grid, dI, theta, binding ? scaled(b.lower, sq) : -Infinity, scaled(b.upper, sq), theta * b.info, sq);
    lastInfo = b.info;
  }
  return { grid, lastInfo, end: k };
}

/**
 * The futility boundary of `look` under θ₁, the earlier looks' futility boundaries recomputed under the
 * same θ₁ in one forward pass (both binding there). θ₁ is this look's drift of the smallest effect worth
 * finding, estimated from the counts so far, so it moves from look to look; walking the earlier looks'
 * recorded bounds under a θ₁ they were not set for could find more β spent than the schedule allows, and
 * the futility boundary then vanished (−∞) for the rest of the run, so an edit that does nothing ran to
 * max_attempts. The keep boundaries never depend on these (non-binding), so α is untouched.
 */
function futilityBound(earlier: readonly Boundary[], look: LookInfo, d: SpendingDesign, upper: number): number {
  const theta = look.theta1;
  if (theta === null || !(theta > 0) || d.beta <= 0) return -Infinity;
  let betaSpent = 0;
  const at = (g: Grid, dI: number, b: LookInfo, up: number): number => {
    const sqrtI = Math.sqrt(b.info);
    const inc = hsdSpend(d.beta, d.gammaBeta, b.t) - betaSpent;
    if (!(inc > 1e-15)) return -Infinity;
    const below = (z: number) => tail(g, dI, theta, z * sqrtI, false);
    const lower = Math.min(solve(below, inc, false), up);
    betaSpent += below(lower);
    return lower;
  };
  // The walk carries the mass past each earlier look between the bound set here and its keep boundary.
  const redone = earlier.map((b) => ({ ...b }));
  const { grid, lastInfo } = walk(redone, theta, true, (g, dI, b) => {
    // A look set under this same θ₁ was set by this same pass: its bound stands, only its β is counted
    // (what keeps planning, where θ₁ never moves, as cheap as one walk).
    if (b.theta1 !== theta) b.lower = at(g, dI, b, b.upper);
    else if (Number.isFinite(b.lower)) betaSpent += tail(g, dI, theta, b.lower * Math.sqrt(b.info), false);
  });
  return at(grid, look.info - lastInfo, look, upper);
}

export type LookDecision = 'keep' | 'stop' | 'continue';

export function decideAt(b: Boundary, z: number): LookDecision {
  if (z >= b.upper) return 'keep';
  if (b.final || z <= b.lower) return 'stop';
  return 'continue';
}

/**
 * The stage-wise ordering p-value (Jennison & Turnbull §8.4) of a test that stopped at the last of
 * `bounds` with statistic z: the null chance of keeping at an earlier look, plus of reaching this look
 * undecided and seeing a score at least as large. Futility stops are ignored (non-binding), so p ≤ α
 * exactly when the upper boundary was crossed. What Holm adjusts when a run gates several candidates.
 */
export function stagewisePValue(bounds: readonly Boundary[], z: number): number {
  const last = bounds.length - 1;
  let p = 0;
  walk(bounds, 0, false, (g, dI, b, k) => {
    const sq = Math.sqrt(b.info);
    if (k === last) p += tail(g, dI, 0, z * sq, true);
    else if (Number.isFinite(b.upper)) p += tail(g, dI, 0, b.upper * sq, true);
  });
  return Math.min(1, p);
}

/**
 * Operating characteristics of a planned design at drift θ: the chance of keeping, and the chance of
 * stopping at each look (what the expected cost is made of). Boundaries as given (both binding).
 */
export function operatingCharacteristics(bounds: readonly Boundary[], theta: number): { keep: number; stopAt: number[] } {
  let keep = 0;
  const stops = new Map<number, number>();
  const { end } = walk(bounds, theta, true, (g, dI, b, k) => {
    const sq = Math.sqrt(b.info);
    const up = Number.isFinite(b.upper) ? tail(g, dI, theta, b.upper * sq, true) : 0;
    const down = b.final ? Math.max(0, g.w.reduce((x, y) => x + y, 0) - up) : Number.isFinite(b.lower) ? tail(g, dI, theta, b.lower * sq, false) : 0;
    keep += up;
    stops.set(k, up + down);
  });
  return { keep, stopAt: Array.from({ length: end }, (_, k) => stops.get(k) ?? 0) };
}
