import { describe, expect, it } from 'vitest';
import { mcnemarExact } from '../../src/stats/index.js';

function expectRelative(actual: number, expected: number, tol: number): void {
  const err = expected === 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
  expect(err, `actual ${actual} vs expected ${expected} (relative error ${err})`).toBeLessThanOrEqual(tol);
}

describe('mcnemarExact', () => {
  it('matches R binom.test on small tables', () => {
    // R: binom.test(2, 12)$p.value = 0.03857422; exactly 2 * (1 + 12 + 66) / 2^12 = 79/2048.
    expectRelative(mcnemarExact(2, 10).pValue, 79 / 2048, 1e-14);
    expectRelative(mcnemarExact(10, 2).pValue, 79 / 2048, 1e-14);
    // R: binom.test(0, 5)$p.value = 0.0625 = 2 / 2^5.
    expectRelative(mcnemarExact(0, 5).pValue, 0.0625, 1e-14);
    // R: binom.test(0, 20)$p.value = 1.907349e-06 = 2 / 2^20.
    expectRelative(mcnemarExact(0, 20).pValue, 2 / 2 ** 20, 1e-14);
    // R: binom.test(3, 10)$p.value = 0.34375 = 2 * 176 / 1024.
    expectRelative(mcnemarExact(3, 7).pValue, 0.34375, 1e-14);
  });

  // python3, exact big integers: p = min(1, Fraction(2 * sum(math.comb(n, i) for i in range(k + 1)), 2**n))
  // with n = b + c, k = min(b, c), converted to float (correctly rounded). The n = 100000 rows sum
  // the binomial coefficients incrementally, c = c * (n - i + 1) // i, still exact.
  const table: [number, number, number][] = [
    [5, 15, 0.04138946533203125],
    [10, 30, 0.0022214337732293643],
    [86, 150, 3.715936139571442e-5],
    [40, 60, 0.05688793364098079],
    [400, 600, 2.7284641560660184e-10],
    [490, 510, 0.547972745923477],
    [0, 1000, 1.8665272370064378e-301],
    [4900, 5100, 0.04658552770494739],
    [49990, 50010, 0.9520893498136247],
    [49800, 50200, 0.20703897176422484],
    [49500, 50500, 0.0015823598788515956],
    [45000, 55000, 8.600341645714696e-220],
  ];
  it.each(table)('b=%d c=%d matches exact rational arithmetic', (b, c, p) => {
    const result = mcnemarExact(b, c);
    expectRelative(result.pValue, p, 1e-12);
    expect(result).toMatchObject({ b, c, n: b + c, method: 'exact' });
  });

  it('gives p = 1 when there is no evidence either way', () => {
    expect(mcnemarExact(0, 0).pValue).toBe(1);
    expect(mcnemarExact(0, 1).pValue).toBe(1); // R: binom.test(0, 1)$p.value = 1
    expect(mcnemarExact(7, 7).pValue).toBe(1);
    expect(mcnemarExact(50000, 50000).pValue).toBe(1);
    // n odd, min = (n - 1) / 2: the tail is exactly 1/2, doubled to 1.
    expect(mcnemarExact(6, 7).pValue).toBe(1);
  });

  it('is symmetric in b and c, and falls as the split gets more lopsided', () => {
    for (let n = 1; n <= 80; n++) {
      let previous = 1;
      for (let b = Math.floor(n / 2); b >= 0; b--) {
        const p = mcnemarExact(b, n - b).pValue;
        expect(p).toBe(mcnemarExact(n - b, b).pValue);
        expect(p).toBeLessThanOrEqual(previous);
        expect(p).toBeGreaterThan(0);
        previous = p;
      }
    }
  });

  it('underflows to 0 rather than producing garbage past the double range', () => {
    // 2 / 2^1100 is below the smallest subnormal double (2^-1074).
    expect(mcnemarExact(0, 1100).pValue).toBe(0);
  });

  it('rejects counts that are not non-negative integers', () => {
    expect(() => mcnemarExact(-1, 3)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 3)).toThrow(RangeError);
    expect(() => mcnemarExact(1, Number.NaN)).toThrow(RangeError);
  });
});
