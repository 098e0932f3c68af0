import { describe, expect, it } from 'vitest';
import { cohenKappa, roganGladen } from '../../src/stats/index.js';

describe('cohenKappa', () => {
  it("reproduces Wikipedia's Cohen's kappa worked examples", () => {
    // "Simple example": 50 grant proposals, both readers yes 20, both no 15, A yes/B no 5, A no/B yes 10:
    // p_o = 0.7, p_e = 0.5, kappa = 0.4.
    expect(cohenKappa(20, 15, 5, 10)).toBeCloseTo(0.4, 14);
    // "Same percentages but different numbers": yes/yes 45, no/no 15, the two disagreements 15 and 25
    // gives kappa = 0.1304; yes/yes 25, no/no 35, disagreements 35 and 5 gives 0.2593.
    // python3 Fractions: 3/23 = 0.13043478260869565 and 7/27 = 0.25925925925925924.
    expect(cohenKappa(45, 15, 15, 25)).toBeCloseTo(3 / 23, 14);
    expect(cohenKappa(25, 35, 35, 5)).toBeCloseTo(7 / 27, 14);
  });

  it('the method guide\'s check of the arithmetic: TP=44 TN=21 FP=9 FN=6 gives 29/49', () => {
    // p_o = 65/80; p_e = (53*50 + 27*30)/6400 = 3460/6400; kappa = (65/80 - 3460/6400)/(1 - 3460/6400)
    // = 1740/2940 = 29/49 (python3 fractions.Fraction) = 0.5918367346938775.
    expect(cohenKappa(44, 21, 9, 6)).toBeCloseTo(29 / 49, 14);
  });

  it('does not depend on which label is called positive, nor on which rater is which', () => {
    for (const [tp, tn, fp, fn] of [
      [44, 21, 9, 6],
      [3, 50, 7, 1],
      [10, 0, 4, 2],
    ] as const) {
      const k = cohenKappa(tp, tn, fp, fn);
      expect(cohenKappa(tn, tp, fn, fp)).toBeCloseTo(k, 14);
      expect(cohenKappa(tp, tn, fn, fp)).toBeCloseTo(k, 14);
    }
  });

  it('is 1 for perfect agreement, 0 for a constant judge, -1 for perfect disagreement', () => {
    expect(cohenKappa(10, 10, 0, 0)).toBe(1);
    // A judge that says FAIL (positive) to everything on a 90%-FAIL key: accuracy 0.9, kappa 0.
    expect(cohenKappa(90, 0, 10, 0)).toBeCloseTo(0, 14);
    expect(cohenKappa(0, 0, 5, 5)).toBe(-1);
  });

  it('is NaN when undefined: empty table, or both raters constant on the same label', () => {
    expect(Number.isNaN(cohenKappa(0, 0, 0, 0))).toBe(true);
    expect(Number.isNaN(cohenKappa(12, 0, 0, 0))).toBe(true);
    expect(Number.isNaN(cohenKappa(0, 7, 0, 0))).toBe(true);
  });

  it('rejects counts that are not non-negative integers', () => {
    expect(() => cohenKappa(-1, 2, 3, 4)).toThrow(RangeError);
    expect(() => cohenKappa(1, 2.5, 3, 4)).toThrow(RangeError);
    expect(() => cohenKappa(1, 2, Number.NaN, 4)).toThrow(RangeError);
  });
});

describe('roganGladen', () => {
  it('recovers the true PASS rate of the method guide\'s check of the arithmetic from the judge PASS rate', () => {
    // 80 runs, 30 truly PASS and 50 truly FAIL; the judge passes 21 of the 30 and fails 44 of the 50.
    // PASS-oriented: tpr = P(judge PASS | PASS) = 21/30 = 0.7, tnr = P(judge FAIL | FAIL) = 44/50 = 0.88.
    // Judge PASS rate = (21 + 6)/80 = 0.3375. (0.3375 + 0.88 - 1)/(0.7 + 0.88 - 1) = 0.2175/0.58 = 0.375
    // = 30/80, the human PASS rate, exactly as it must be on the calibration set itself.
    expect(roganGladen(27 / 80, 21 / 30, 44 / 50)).toBeCloseTo(30 / 80, 14);
  });

  it('gives a wrong answer when the FAIL-positive TPR/TNR are passed unswapped (orientation check)', () => {
    // docs/method.md reports that judge with FAIL positive: TPR 0.88, TNR 0.70. Passing those as (tpr, tnr)
    // gives (0.3375 + 0.7 - 1)/(0.58) = 0.0647, not 0.375: the swap the doc comment warns about.
    const wrong = roganGladen(27 / 80, 0.88, 0.7);
    expect(wrong).toBeCloseTo(0.0375 / 0.58, 12);
    expect(Math.abs(wrong - 0.375)).toBeGreaterThan(0.3);
  });

  it('inverts the forward model observed = true*tpr + (1 - true)*(1 - tnr)', () => {
    // Rogan & Gladen (1978): apparent prevalence = p*Se + (1 - p)*(1 - Sp); the estimator solves for p.
    for (const truth of [0, 0.1, 0.3, 0.5, 0.8, 1]) {
      for (const [tpr, tnr] of [
        [0.9, 0.8],
        [0.6, 0.95],
        [0.99, 0.51],
      ] as const) {
        const observed = truth * tpr + (1 - truth) * (1 - tnr);
        expect(roganGladen(observed, tpr, tnr)).toBeCloseTo(truth, 12);
      }
    }
    // Worked: truth 0.3, tpr 0.9, tnr 0.8 -> observed 0.27 + 0.14 = 0.41 -> (0.41 - 0.2)/0.7 = 0.3.
    expect(roganGladen(0.41, 0.9, 0.8)).toBeCloseTo(0.3, 14);
  });

  it('clamps estimates that sampling noise pushes outside [0, 1]', () => {
    // (0.05 + 0.9 - 1)/(0.8 + 0.9 - 1) = -0.0714 -> 0; (0.9 + 0.9 - 1)/0.7 = 1.143 -> 1.
    expect(roganGladen(0.05, 0.8, 0.9)).toBe(0);
    expect(roganGladen(0.9, 0.8, 0.9)).toBe(1);
  });

  it('is NaN for a judge no better than chance (tpr + tnr <= 1)', () => {
    expect(Number.isNaN(roganGladen(0.5, 0.5, 0.5))).toBe(true);
    expect(Number.isNaN(roganGladen(0.5, 0.3, 0.6))).toBe(true);
    expect(Number.isNaN(roganGladen(0.5, 0, 0))).toBe(true);
  });

  it('rejects rates outside [0, 1]', () => {
    expect(() => roganGladen(1.2, 0.9, 0.9)).toThrow(RangeError);
    expect(() => roganGladen(0.5, -0.1, 0.9)).toThrow(RangeError);
    expect(() => roganGladen(0.5, 0.9, Number.NaN)).toThrow(RangeError);
  });
});
