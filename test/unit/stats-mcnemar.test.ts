import { describe, expect, it } from 'vitest';
import {
  MCNEMAR_EXACT_BELOW,
  mcnemar,
  mcnemarChiSquare,
  mcnemarExact,
  pairedOutcomes,
} from '../../src/stats/index.js';

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

describe('mcnemarChiSquare', () => {
  it("reproduces R's mcnemar.test example (Agresti 1990, presidential approval)", () => {
    // R: mcnemar.test(matrix(c(794, 86, 150, 570), nrow = 2)) prints
    // "McNemar's chi-squared = 16.818, df = 1, p-value = 4.115e-05";
    // pchisq((abs(150 - 86) - 1)^2 / (150 + 86), 1, lower.tail = FALSE) = 4.114562e-05.
    const result = mcnemarChiSquare(150, 86);
    expect(result.statistic).toBeCloseTo(3969 / 236, 12);
    expect(result.statistic).toBeCloseTo(16.818, 3);
    expect(result.df).toBe(1);
    expect(result.method).toBe('chi-square');
    // python3: math.erfc(math.sqrt(16.81779661016949 / 2)) = 4.1145622813459415e-05
    expectRelative(result.pValue, 4.1145622813459415e-5, 1e-13);
  });

  it('matches R mcnemar.test(correct = TRUE) whenever |b - c| >= 1', () => {
    // statistic = (|b - c| - 1)^2 / (b + c); p = python3 math.erfc(math.sqrt(statistic / 2)), the chi-square(1)
    // survival function, which is what R's pchisq(statistic, 1, lower.tail = FALSE) computes.
    const cases: [number, number, number, number][] = [
      [10, 30, 9.025, 0.002663119259138554],
      [5, 15, 4.05, 0.04417134490844261],
      [0, 100, 98.01, 4.1627504389864034e-23],
      [60, 40, 3.61, 0.05743311963200359],
      [3, 1, 0.25, 0.6170750774519738],
      [7, 12, 0.8421052631578947, 0.3587953578869416],
      [1, 0, 0, 1],
    ];
    for (const [b, c, statistic, p] of cases) {
      const result = mcnemarChiSquare(b, c);
      expect(result.statistic).toBeCloseTo(statistic, 13);
      expectRelative(result.pValue, p, 1e-13);
      expect(mcnemarChiSquare(c, b).pValue).toBe(result.pValue);
    }
  });

  it('floors the corrected difference at 0, so b = c gives statistic 0 and p = 1 (R would give 1/(b+c))', () => {
    // R: mcnemar.test(matrix(c(0, 5, 5, 0), 2)) gives statistic 0.1 and p = 0.7518: evidence of a
    // difference from data showing none. We deliberately return 0 and 1.
    expect(mcnemarChiSquare(5, 5)).toMatchObject({ statistic: 0, pValue: 1 });
    expect(mcnemarChiSquare(0, 0)).toMatchObject({ n: 0, statistic: 0, pValue: 1 });
  });
});

describe('mcnemar', () => {
  it(`is exact below ${MCNEMAR_EXACT_BELOW} discordant pairs and chi-square from there on`, () => {
    expect(MCNEMAR_EXACT_BELOW).toBe(100);
    const below = mcnemar(40, 59);
    expect(below.method).toBe('exact');
    expect(below.pValue).toBe(mcnemarExact(40, 59).pValue);
    const at = mcnemar(40, 60);
    expect(at.method).toBe('chi-square');
    expect(at.pValue).toBe(mcnemarChiSquare(40, 60).pValue);
    expect(mcnemar(0, 0).method).toBe('exact');
  });

  it('the two agree closely at the cutoff for ordinary p-values', () => {
    // Exact 0.05688793364098079 vs chi-square 0.05743311963200359 (both python3, see above): within 1%.
    const exact = mcnemarExact(40, 60).pValue;
    const chi = mcnemarChiSquare(40, 60).pValue;
    expect(Math.abs(chi / exact - 1)).toBeLessThan(0.01);
    for (let b = 0; b <= 100; b++) {
      const e = mcnemarExact(b, 100 - b).pValue;
      if (e >= 0.01) expect(Math.abs(mcnemarChiSquare(b, 100 - b).pValue / e - 1)).toBeLessThan(0.035);
    }
  });
});

describe('pairedOutcomes', () => {
  it('cross-tabulates the tasks both runs have, with b = baseline pass & candidate fail', () => {
    const baseline = new Map<string, boolean>([
      ['t1', true],
      ['t2', true],
      ['t3', false],
      ['t4', false],
      ['t5', true],
      ['t6', false],
      ['only-base', true],
    ]);
    const candidate = new Map<string, boolean>([
      ['t1', true], // both pass
      ['t2', false], // b: regression
      ['t3', true], // c: improvement
      ['t4', false], // both fail
      ['t5', true], // both pass
      ['t6', true], // c: improvement
      ['z-only-cand', false],
      ['a-only-cand', true],
    ]);
    expect(pairedOutcomes(baseline, candidate)).toEqual({
      both_pass: 2,
      both_fail: 1,
      b: 1,
      c: 2,
      n: 6,
      baselineOnly: ['only-base'],
      candidateOnly: ['a-only-cand', 'z-only-cand'],
    });
  });

  it('swapping the arms swaps b and c and nothing else', () => {
    const x = new Map<string, boolean>([
      ['a', true],
      ['b', false],
      ['c', true],
    ]);
    const y = new Map<string, boolean>([
      ['a', false],
      ['b', false],
      ['c', true],
    ]);
    const forward = pairedOutcomes(x, y);
    const backward = pairedOutcomes(y, x);
    expect([forward.b, forward.c]).toEqual([1, 0]);
    expect([backward.b, backward.c]).toEqual([0, 1]);
    expect(backward.both_pass).toBe(forward.both_pass);
    expect(backward.both_fail).toBe(forward.both_fail);
  });

  it('empty or disjoint maps give n = 0', () => {
    const result = pairedOutcomes(new Map([['a', true]]), new Map([['b', true]]));
    expect(result).toMatchObject({ both_pass: 0, both_fail: 0, b: 0, c: 0, n: 0 });
    expect(pairedOutcomes(new Map(), new Map()).n).toBe(0);
  });
});
