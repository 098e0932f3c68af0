import { describe, expect, it } from 'vitest';
import { binomialCdf, binomialPmf } from '../../src/stats/index.js';

function expectRelative(actual: number, expected: number, tol: number): void {
  const err = expected === 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
  expect(err, `actual ${actual} vs expected ${expected} (relative error ${err})`).toBeLessThanOrEqual(tol);
}

describe('binomialPmf / binomialCdf', () => {
  // [k, n, p, P(X = k), P(X <= k)], each computed with python3 exact integer arithmetic:
  // sum(math.comb(n, i) * a**i * (d - a)**(n - i) for i in range(k + 1)) / d**n for p = a/d, converted to
  // float by fractions.Fraction (correctly rounded). Dyadic p keeps the input exactly representable.
  // Spot checks against R: dbinom(5, 10, 0.5) = 0.2460938, pbinom(3, 10, 0.5) = 0.171875,
  // pbinom(20, 100, 0.5) = 5.579545e-10.
  const table: [number, number, number, number, number][] = [
    [0, 10, 1 / 2, 0.0009765625, 0.0009765625],
    [3, 10, 1 / 2, 0.1171875, 0.171875],
    [5, 10, 1 / 2, 0.24609375, 0.623046875],
    [10, 10, 1 / 2, 0.0009765625, 1.0],
    [1, 16, 1 / 2, 0.000244140625, 0.0002593994140625],
    [7, 17, 1 / 4, 0.06684480188414454, 0.9597632198128849],
    [50, 100, 1 / 2, 0.07958923738717877, 0.5397946186935894],
    [20, 100, 1 / 2, 4.2281632676015815e-10, 5.579544528625976e-10],
    [60, 100, 3 / 4, 0.0003626267916456097, 0.0006865922079629911],
    [80, 100, 3 / 4, 0.049300640337677205, 0.900469589894686],
    [99, 100, 7 / 8, 2.268335356722557e-5, 0.9999984121652503],
    [0, 1000, 1 / 8, 1.0187157538264446e-58, 1.0187157538264446e-58],
    [400, 1000, 1 / 2, 4.633908074049734e-11, 1.3642320780330092e-10],
    [2, 3000, 1 / 1024, 0.22927023410858444, 0.4390219952090998],
    [10, 3000, 1 / 1024, 0.0006810877823791488, 0.9997625123524092],
    [1000, 3000, 3 / 8, 1.9230417771132965e-7, 1.112757549566659e-6],
    [1200, 3000, 3 / 8, 0.00028152555561387026, 0.9977215624421717],
  ];
  it.each(table)('k=%d n=%d p=%s matches exact rational arithmetic', (k, n, p, pmf, cdf) => {
    expectRelative(binomialPmf(k, n, p), pmf, 1e-13);
    expectRelative(binomialCdf(k, n, p), cdf, 1e-13);
  });

  it('pmf sums to 1 and the cdf is its running sum, on both summation branches', () => {
    for (const [n, p] of [
      [1, 0.5],
      [7, 0.3],
      [40, 0.5],
      [250, 0.9],
    ] as const) {
      let running = 0;
      for (let k = 0; k <= n; k++) {
        running += binomialPmf(k, n, p);
        expect(binomialCdf(k, n, p)).toBeCloseTo(running, 12);
      }
      expect(running).toBeCloseTo(1, 12);
    }
  });

  it('handles out-of-range k and degenerate p', () => {
    expect(binomialPmf(-1, 5, 0.5)).toBe(0);
    expect(binomialPmf(6, 5, 0.5)).toBe(0);
    expect(binomialCdf(-1, 5, 0.5)).toBe(0);
    expect(binomialCdf(5, 5, 0.5)).toBe(1);
    expect(binomialPmf(0, 5, 0)).toBe(1);
    expect(binomialPmf(5, 5, 1)).toBe(1);
    expect(binomialCdf(0, 5, 0)).toBe(1);
    expect(binomialCdf(4, 5, 1)).toBe(0);
    expect(binomialPmf(0, 0, 0.5)).toBe(1);
  });

  it('rejects invalid arguments', () => {
    expect(() => binomialPmf(1.5, 5, 0.5)).toThrow(RangeError);
    expect(() => binomialPmf(1, -5, 0.5)).toThrow(RangeError);
    expect(() => binomialPmf(1, 5, 1.5)).toThrow(RangeError);
    expect(() => binomialCdf(1, 5.5, 0.5)).toThrow(RangeError);
    expect(() => binomialCdf(1, 5, Number.NaN)).toThrow(RangeError);
  });
});
