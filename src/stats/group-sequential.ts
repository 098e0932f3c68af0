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
import { POINT, propagate, scaled, solve, tail, type Grid } from './sequential-grid.js';

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

/** Information below this is no new information: the look keeps the last boundaries. */
const EPS = 1e-12;

export function hsdSpend(total: number, gamma: number, t: number): number {
  const x = Math.min(1, Math.max(0, t));
  if (Math.abs(gamma) < 1e-9) return total * x;
  return (total * (1 - Math.exp(-gamma * x))) / (1 - Math.exp(-gamma));
}

/**
 * A design's keep boundaries on the z scale, for designs with the same looks' information fractions and
 * the same α spending: under the null the z statistics' joint law depends on the fractions alone
 * (corr(Z_j, Z_k) = √(t_j/t_k)), so these boundaries are every such design's, whatever its information.
 */
export interface KeepBoundaries {
  alpha: number;
  gammaAlpha: number;
  looks: readonly { t: number; final: boolean; upper: number; alphaSpent: number }[];
}

/**
 * The boundaries of every look so far, each computed from the looks before it alone. `looks` must have
 * non-decreasing information; a look with no new information keeps the last boundaries. A plan's design
 * (every look new information, one θ₁) carries the null's and θ₁'s undecided mass from look to look: the
 * same sums nextBoundary's walks make from the first look, in the same order, once per look rather than
 * once per earlier look (a plan line before every run asks for four designs of ten looks). Given `keep`
 * (KeepBoundaries of the same fractions and α spending), it takes those keep boundaries rather than
 * solving for them again: the same to within the solver's 1e-12, and a plan's search asks for several.
 */
export function boundaries(looks: readonly LookInfo[], d: SpendingDesign, keep?: KeepBoundaries): Boundary[] {
  const out: Boundary[] = [];
  const theta = looks[0]?.theta1 ?? null;
  const carried = looks.every((l, k) => l.theta1 === theta && l.info - (looks[k - 1]?.info ?? 0) > EPS && (!l.final || k === looks.length - 1));
  const given = keep && keep.alpha === d.alpha && keep.gammaAlpha === d.gammaAlpha && keep.looks.length === looks.length && keep.looks.every((k, i) => k.t === looks[i]!.t && k.final === looks[i]!.final) ? keep.looks : undefined;
  if (!carried) {
    for (const look of looks) out.push(nextBoundary(out, look, d));
    return out;
  }
  const futile = theta !== null && theta > 0 && d.beta > 0;
  let nullGrid = POINT;
  let thetaGrid = POINT;
  let lastInfo = 0;
  let alphaSpent = 0;
  let betaSpent = 0;
  for (const look of looks) {
    const dI = look.info - lastInfo;
    const { upper, alphaSpent: spent } = given?.[out.length] ?? keepBoundary(nullGrid, dI, look, d, alphaSpent);
    let lower = look.final ? upper : -Infinity;
    if (!look.final && futile) {
      const f = futilityAt(thetaGrid, dI, look, upper, theta, d, betaSpent);
      betaSpent += f.spent;
      lower = f.lower;
    }
    const b: Boundary = { ...look, upper, lower: Math.min(lower, upper), alphaSpent: spent };
    out.push(b);
    const sq = Math.sqrt(b.info);
    if (!given) nullGrid = propagate(nullGrid, dI, 0, -Infinity, scaled(b.upper, sq), 0, sq);
    if (futile) thetaGrid = propagate(thetaGrid, dI, theta, scaled(b.lower, sq), scaled(b.upper, sq), theta * b.info, sq);
    lastInfo = b.info;
    alphaSpent = b.alphaSpent;
  }
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
  const { upper, alphaSpent } = keepBoundary(walk(earlier, 0, false).grid, dI, look, d, spentBefore);
  const lower = look.final ? upper : futilityBound(earlier, look, d, upper);
  return { ...look, upper, lower: Math.min(lower, upper), alphaSpent };
}

/** The keep boundary of a look the null's undecided mass reaches as `nullGrid`, and the α spent through it. */
function keepBoundary(nullGrid: Grid, dI: number, look: LookInfo, d: SpendingDesign, spentBefore: number): { upper: number; alphaSpent: number } {
  const sqrtI = Math.sqrt(look.info);
  const target = look.final ? d.alpha : hsdSpend(d.alpha, d.gammaAlpha, look.t);
  const inc = Math.max(0, target - spentBefore);
  const cross = (z: number) => tail(nullGrid, dI, 0, z * sqrtI, true);
  const upper = inc <= 1e-15 ? Infinity : solve(cross, inc, true);
  return { upper, alphaSpent: spentBefore + (Number.isFinite(upper) ? cross(upper) : 0) };
}

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
    const f = futilityAt(g, dI, b, up, theta, d, betaSpent);
    betaSpent += f.spent;
    return f.lower;
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

/** The futility boundary of a look θ₁'s undecided mass reaches as `g`, after `betaSpent`; and the β it spends. */
function futilityAt(g: Grid, dI: number, look: LookInfo, up: number, theta: number, d: SpendingDesign, betaSpent: number): { lower: number; spent: number } {
  const sqrtI = Math.sqrt(look.info);
  const inc = hsdSpend(d.beta, d.gammaBeta, look.t) - betaSpent;
  if (!(inc > 1e-15)) return { lower: -Infinity, spent: 0 };
  const below = (z: number) => tail(g, dI, theta, z * sqrtI, false);
  const lower = Math.min(solve(below, inc, false), up);
  return { lower, spent: below(lower) };
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
