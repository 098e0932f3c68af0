import { describe, expect, it } from 'vitest';
import { binomialPmf, passAtK, passHatK } from '../../src/stats/index.js';

// Reference values: python3 with exact integers, fractions.Fraction(math.comb(n - c, k), math.comb(n, k))
// for pass@k = 1 - C(n-c, k)/C(n, k) (Chen et al. 2021, "Evaluating Large Language Models Trained on Code",
// eq. 1) and Fraction(math.comb(c, k), math.comb(n, k)) for pass^k; exact fraction in the comment.
const table: [n: number, c: number, k: number, passAt: number, passHat: number][] = [
  [10, 3, 1, 0.3, 0.3], // 3/10, 3/10
  [10, 3, 2, 0.5333333333333333, 0.06666666666666667], // 8/15, 1/15
  [10, 3, 5, 0.9166666666666666, 0], // 11/12, 0
  [20, 10, 5, 0.9837461300309598, 0.016253869969040248], // 1271/1292, 21/1292
  [200, 13, 10, 0.49755111473060615, 1.2738851058221087e-14], // 78115540005393/157000030132960, 1/78500015066480
  [200, 13, 100, 0.9999194971988055, 0], // 8670143107/8670841134, 0
  [1000, 7, 50, 0.3024375700358424, 0], // 32643197292643/107933671364885, 0
  [3, 2, 2, 1, 0.3333333333333333], // 1, 1/3
  [5, 4, 1, 0.8, 0.8],
];

describe('passAtK', () => {
  it.each(table)('n=%d c=%d k=%d matches exact rational arithmetic', (n, c, k, expected) => {
    expect(passAtK(n, c, k)).toBeCloseTo(expected, 14);
  });

  it('k = 1 is the plain pass rate c / n', () => {
    for (let n = 1; n <= 30; n++) for (let c = 0; c <= n; c++) expect(passAtK(n, c, 1)).toBeCloseTo(c / n, 14);
  });

  it('is 1 when fewer than k runs failed and 0 when none passed', () => {
    expect(passAtK(5, 5, 5)).toBe(1);
    expect(passAtK(3, 1, 3)).toBe(1); // n - c = 2 < k = 3: every 3-subset holds the pass
    expect(passAtK(10, 8, 3)).toBe(1);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(1, 0, 1)).toBe(0);
    expect(passAtK(1, 1, 1)).toBe(1);
  });

  it('grows with k and with c', () => {
    for (let n = 1; n <= 25; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          const value = passAtK(n, c, k);
          if (k > 1) expect(value).toBeGreaterThanOrEqual(passAtK(n, c, k - 1) - 1e-15);
          if (c > 0) expect(value).toBeGreaterThanOrEqual(passAtK(n, c - 1, k) - 1e-15);
        }
      }
    }
  });

  it('is unbiased: averaged over c ~ Binomial(n, p) it equals 1 - (1 - p)^k', () => {
    // The defining property in Chen et al. 2021; the naive 1 - (1 - c/n)^k fails this check.
    for (const [n, k, p] of [
      [10, 3, 0.2],
      [20, 5, 0.05],
      [7, 7, 0.5],
    ] as const) {
      let expectation = 0;
      let naive = 0;
      for (let c = 0; c <= n; c++) {
        expectation += binomialPmf(c, n, p) * passAtK(n, c, k);
        naive += binomialPmf(c, n, p) * (1 - (1 - c / n) ** k);
      }
      expect(expectation).toBeCloseTo(1 - (1 - p) ** k, 13);
      expect(Math.abs(naive - (1 - (1 - p) ** k))).toBeGreaterThan(1e-3);
    }
  });

  it('stays finite and accurate where binomial coefficients overflow a double', () => {
    // C(2000, 1000) has 601 digits, far past Number.MAX_VALUE (~1.8e308); the product form never forms it.
    // python3: float(Fraction(math.comb(1990, 1000), math.comb(2000, 1000))) = 0.0009547325826708075,
    // so pass@1000 with 10 passes in 2000 runs is 1 minus that.
    const value = passAtK(2000, 10, 1000);
    expect(Number.isFinite(value)).toBe(true);
    expect(Math.abs(1 - value - 0.0009547325826708075) / 0.0009547325826708075).toBeLessThan(1e-11);
    // Same number from the other side: pass^1000 with 1990 passes is that ratio itself.
    expect(Math.abs(passHatK(2000, 1990, 1000) - 0.0009547325826708075) / 0.0009547325826708075).toBeLessThan(
      1e-12,
    );
  });

  it('rejects k > n, k < 1, c > n and non-integers', () => {
    expect(() => passAtK(3, 1, 4)).toThrow(RangeError);
    expect(() => passAtK(3, 1, 0)).toThrow(RangeError);
    expect(() => passAtK(3, 4, 1)).toThrow(RangeError);
    expect(() => passAtK(3, -1, 1)).toThrow(RangeError);
    expect(() => passAtK(3.5, 1, 1)).toThrow(RangeError);
    expect(() => passAtK(0, 0, 1)).toThrow(RangeError);
  });
});

describe('passHatK', () => {
  it.each(table)('n=%d c=%d k=%d matches exact rational arithmetic', (n, c, k, _passAt, expected) => {
    const value = passHatK(n, c, k);
    if (expected === 0) expect(value).toBe(0);
    else expect(Math.abs(value - expected) / expected).toBeLessThan(1e-14);
  });

  it('k = 1 is c / n; all passes give 1; fewer than k passes give 0', () => {
    for (let n = 1; n <= 30; n++) for (let c = 0; c <= n; c++) expect(passHatK(n, c, 1)).toBeCloseTo(c / n, 14);
    expect(passHatK(5, 5, 5)).toBe(1);
    expect(passHatK(5, 2, 3)).toBe(0);
  });

  it('is unbiased for p^k and never exceeds pass@k', () => {
    for (const [n, k, p] of [
      [10, 3, 0.7],
      [8, 8, 0.9],
    ] as const) {
      let expectation = 0;
      for (let c = 0; c <= n; c++) expectation += binomialPmf(c, n, p) * passHatK(n, c, k);
      expect(expectation).toBeCloseTo(p ** k, 13);
    }
    for (let n = 1; n <= 15; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          expect(passHatK(n, c, k)).toBeLessThanOrEqual(passAtK(n, c, k) + 1e-15);
          if (k > 1) expect(passHatK(n, c, k)).toBeLessThanOrEqual(passHatK(n, c, k - 1) + 1e-15);
        }
      }
    }
  });

  it('rejects the same invalid inputs as passAtK', () => {
    expect(() => passHatK(3, 1, 4)).toThrow(RangeError);
    expect(() => passHatK(3, 1, 0)).toThrow(RangeError);
    expect(() => passHatK(3, 4, 1)).toThrow(RangeError);
  });
});
