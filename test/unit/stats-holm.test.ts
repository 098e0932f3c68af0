import { describe, expect, it } from 'vitest';
import { holm } from '../../src/stats/index.js';

function expectAllClose(actual: number[], expected: number[]): void {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((value, i) => expect(value, `index ${i}`).toBeCloseTo(expected[i] ?? Number.NaN, 14));
}

describe('holm', () => {
  it("reproduces the worked example on Wikipedia's Holm-Bonferroni page", () => {
    // Four hypotheses, p = 0.01, 0.04, 0.03, 0.005 at alpha = 0.05: H4 (0.005 <= 0.05/4) and H1
    // (0.01 <= 0.05/3) are rejected, then H3 fails (0.03 > 0.05/2) and the procedure stops.
    // Adjusted values: R p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
    // (also python3 with fractions.Fraction and the same formula).
    const result = holm([0.01, 0.04, 0.03, 0.005]);
    expectAllClose(result.adjusted, [0.03, 0.06, 0.06, 0.02]);
    expect(result.rejected).toEqual([true, false, false, true]);
  });

  it("matches R p.adjust(p, 'holm') = pmin(1, cummax((n - i + 1) * p[o]))[ro]", () => {
    // Values computed with python3, exact fractions, from that formula.
    expectAllClose(holm([0.01, 0.02, 0.03, 0.04, 0.05]).adjusted, [0.05, 0.08, 0.09, 0.09, 0.09]);
    expectAllClose(holm([0.04, 0.001, 0.03, 0.5]).adjusted, [0.09, 0.004, 0.09, 0.5]);
    expectAllClose(holm([0.6, 0.6, 0.001]).adjusted, [1, 1, 0.003]);
    expectAllClose(holm([0.2, 0.3]).adjusted, [0.4, 0.4]);
    expectAllClose(holm([0.049]).adjusted, [0.049]);
  });

  it('step-down: once one hypothesis is kept, every larger p-value is kept too', () => {
    // 0.01 * 5 = 0.05 rejects; 0.02 * 4 = 0.08 fails, and Holm stops there. Hochberg's step-up procedure
    // would reject all five (largest p 0.05 <= 0.05 / 1); this pins the step-down direction.
    expect(holm([0.01, 0.02, 0.03, 0.04, 0.05]).rejected).toEqual([true, false, false, false, false]);
    expect(holm([0.01, 0.02, 0.03, 0.04, 0.05], 0.1).rejected).toEqual([true, true, true, true, true]);
  });

  it('adjusted values are monotone in the raw ones, never below them, capped at 1', () => {
    const raw = [0.3, 0.001, 0.02, 0.02, 0.9, 0.04, 0.0001, 0.5];
    const { adjusted } = holm(raw);
    raw.forEach((p, i) => {
      expect(adjusted[i]).toBeGreaterThanOrEqual(p);
      expect(adjusted[i]).toBeLessThanOrEqual(1);
      raw.forEach((q, j) => {
        if (p < q) expect(adjusted[i]).toBeLessThanOrEqual(adjusted[j] ?? Number.NaN);
      });
    });
    // Ties get equal adjusted values whatever their position.
    expect(adjusted[2]).toBe(adjusted[3]);
  });

  it('is never less powerful than Bonferroni and never more than unadjusted testing', () => {
    const raw = [0.004, 0.011, 0.013, 0.2, 0.03];
    const { rejected } = holm(raw);
    raw.forEach((p, i) => {
      if (p <= 0.05 / raw.length) expect(rejected[i]).toBe(true);
      if (p > 0.05) expect(rejected[i]).toBe(false);
    });
    // 0.004*5=0.02, 0.011*4=0.044, 0.013*3=0.039 -> running max 0.044, 0.03*2=0.06 stops.
    expect(rejected).toEqual([true, true, true, false, false]);
  });

  it('handles an empty family and rejects invalid p-values and alpha', () => {
    expect(holm([])).toEqual({ adjusted: [], rejected: [] });
    expect(() => holm([0.1, 1.2])).toThrow(RangeError);
    expect(() => holm([Number.NaN])).toThrow(RangeError);
    expect(() => holm([-0.01])).toThrow(RangeError);
    expect(() => holm([0.1], 0)).toThrow(RangeError);
    expect(() => holm([0.1], 1)).toThrow(RangeError);
  });
});
