// The numerical core of the group-sequential design (group-sequential.ts): the mass still undecided at a
// look, held on a Simpson grid over the score, carried from one look to the next by the normal increment's
// density (Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19), its tail beyond a score,
// and where a tail crosses a target. No spending and no looks here: those are group-sequential.ts'.
import { normalCdf, normalSurvival } from './normal.js';

export interface Grid {
  s: number[];
  /** Density × quadrature weight: Σ w = probability of reaching this look still undecided. */
  w: number[];
}

export const POINT: Grid = { s: [0], w: [1] };
const G = 61; // Simpson points per look (odd): boundaries agree with 241 points to 0.001
const Z_MAX = 12;
/** How close solve() closes in on a boundary, in z: far below any difference a decision can see. */
const Z_TOL = 1e-12;

/** Probability mass above (or below) score c at the next look, from the undecided mass of the last one. */
export function tail(g: Grid, dI: number, theta: number, c: number, above: boolean): number {
  const sd = Math.sqrt(dI);
  let p = 0;
  for (let j = 0; j < g.s.length; j++) {
    const z = (c - g.s[j]! - theta * dI) / sd;
    p += g.w[j]! * (above ? normalSurvival(z) : normalCdf(z));
  }
  return p;
}

/** The undecided mass carried to the next look: the density on (lo, hi) on a Simpson grid. */
export function propagate(g: Grid, dI: number, theta: number, lo: number, hi: number, mean: number, sdAll: number): Grid {
  const a = Math.max(lo, mean - 10 * sdAll);
  const b = Math.min(hi, mean + 10 * sdAll);
  if (!(b > a)) return { s: [], w: [] };
  const h = (b - a) / (G - 1);
  const sd = Math.sqrt(dI);
  // Hoisted out of the G × grid loop, each the same number it was inside it: the sums are bit for bit.
  const shift = theta * dI;
  const norm = sd * Math.sqrt(2 * Math.PI);
  const s: number[] = [];
  const w: number[] = [];
  for (let i = 0; i < G; i++) {
    const x = a + i * h;
    let d = 0;
    for (let j = 0; j < g.s.length; j++) {
      const z = (x - g.s[j]! - shift) / sd;
      d += (g.w[j]! * Math.exp(-0.5 * z * z)) / norm;
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
export function solve(mass: (z: number) => number, target: number, falling: boolean): number {
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

/** A boundary on the score scale (z·√I); ±∞ stays ±∞. */
export const scaled = (z: number, sqrtI: number) => (Number.isFinite(z) ? z * sqrtI : z);
