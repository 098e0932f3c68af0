import { describe, expect, it } from 'vitest';
import { erfc, normalCdf, normalQuantile, normalSurvival } from '../../src/stats/index.js';

/** |actual - expected| <= tol * |expected| (relative error), with a readable failure message. */
function expectRelative(actual: number, expected: number, tol: number): void {
  const err = expected === 0 ? Math.abs(actual) : Math.abs(actual - expected) / Math.abs(expected);
  expect(err, `actual ${actual} vs expected ${expected} (relative error ${err})`).toBeLessThanOrEqual(tol);
}

describe('erfc', () => {
  // Reference values: python3 `math.erfc(x)` (CPython wraps the C library's erfc, accurate to ~1 ulp),
  // printed with repr. The points straddle the series/continued-fraction switch at x^2 = 1.5 (x = 1.22474).
  const table: [number, number][] = [
    [-3, 1.9999779095030015],
    [-1, 1.842700792949715],
    [-0.5, 1.5204998778130465],
    [0, 1.0],
    [1e-10, 0.999999999887162],
    [0.1, 0.8875370839817152],
    [0.5, 0.4795001221869535],
    [1, 0.15729920705028513],
    [1.2247, 0.08327581479808639],
    [1.2248, 0.08325063757190905],
    [1.5, 0.033894853524689274],
    [2, 0.004677734981047265],
    [3, 2.2090496998585438e-5],
    [5, 1.5374597944280351e-12],
    [8, 1.1224297172982928e-29],
    [12, 1.3562611692059042e-64],
    [20, 5.3958656116079005e-176],
    [26, 5.663192408856143e-296],
    // Points whose square is not exact in binary, so rounding x^2 before exp would show up here.
    [0.7, 0.32219880616258156],
    [1.1, 0.11979493042591827],
    [-2.7, 1.9998656672600594],
    [5.3, 6.613081850340812e-14],
    [9.7, 7.936107563214511e-43],
    [17.3, 3.409266382045085e-132],
    [25.1, 5.514940189685639e-276],
    // Between √1.5 and 4 erfc is carried from a table at steps of 1/64 by its Taylor series: points between
    // the table's entries, the first (where H_3 vanishes) and the last.
    [1.2325572145786217, 0.08131630069768382],
    [1.25, 0.07709987174354177],
    [1.6180339887, 0.022123221892158106],
    [2.3456789, 0.0009089491998024029],
    [3.1, 1.1648657367199589e-05],
    [3.9921875, 1.644094396517574e-08],
    [3.999, 1.554474949099499e-08],
  ];
  it.each(table)('erfc(%d) matches python3 math.erfc to 1e-14 relative', (x, expected) => {
    expectRelative(erfc(x), expected, 1e-14);
  });

  it('underflows to exactly 0 far in the tail and to exactly 2 on the far negative side', () => {
    // python3 math.erfc(27.3) == 0.0 and math.erfc(-30) == 2.0
    expect(erfc(27.3)).toBe(0);
    expect(erfc(1e300)).toBe(0);
    expect(erfc(Infinity)).toBe(0);
    expect(erfc(-30)).toBe(2);
    expect(erfc(-Infinity)).toBe(2);
    expect(Number.isNaN(erfc(Number.NaN))).toBe(true);
  });

  it('is strictly decreasing and satisfies erfc(-x) = 2 - erfc(x)', () => {
    // From -5 on, 2 - erfc(5) = 2 - 1.5e-12 is still distinguishable from 2 in a double.
    let previous = erfc(-5);
    for (let x = -4.9; x < 26; x += 0.1) {
      const value = erfc(x);
      expect(value).toBeLessThan(previous);
      expect(erfc(-x)).toBeCloseTo(2 - value, 15);
      previous = value;
    }
  });
});

describe('normalCdf / normalSurvival', () => {
  it('matches R pnorm and python3 0.5*math.erfc(-z/sqrt(2))', () => {
    // R: pnorm(1) = 0.8413447460685429; pnorm(-1.96) = 0.02499789514822043 (the "1.96" of a 95% interval)
    expectRelative(normalCdf(1), 0.8413447460685429, 1e-15);
    expectRelative(normalCdf(-1.96), 0.024997895148220435, 1e-14);
    // R: pnorm(-3) = 0.001349898031630095; python3 0.5*math.erfc(3/math.sqrt(2)) = 0.0013498980316300957
    expectRelative(normalCdf(-3), 0.0013498980316300957, 1e-14);
    // python3 0.5*math.erfc(8/math.sqrt(2)) = 6.220960574271819e-16 (R pnorm(-8) = 6.220960574271785e-16;
    // they differ by the rounding of z/sqrt(2), hence the looser tolerance)
    expectRelative(normalCdf(-8), 6.220960574271785e-16, 1e-13);
    // python3 0.5*math.erfc(37/math.sqrt(2)) = 5.725571222525139e-300: deep tail stays relative-accurate
    expectRelative(normalCdf(-37), 5.725571222525139e-300, 1e-12);
    expect(normalCdf(0)).toBe(0.5);
  });

  it('survival is the mirror image of the cdf, without 1 - cdf cancellation', () => {
    for (const z of [-5, -1, 0, 0.3, 2, 8, 20]) {
      expect(normalSurvival(z)).toBeCloseTo(normalCdf(-z), 15);
    }
    // 1 - normalCdf(8) would be 6.66e-16 (one ulp below 1); the survival function keeps the digits.
    expectRelative(normalSurvival(8), 6.220960574271785e-16, 1e-13);
  });
});

describe('normalQuantile', () => {
  it('matches R qnorm for the quantiles intervals use', () => {
    // R: qnorm(0.975) = 1.959963984540054; qnorm(0.995) = 2.575829303548901; qnorm(0.9) = 1.281551565544601
    expectRelative(normalQuantile(0.975), 1.959963984540054, 1e-15);
    expectRelative(normalQuantile(0.995), 2.575829303548901, 1e-15);
    expectRelative(normalQuantile(0.9), 1.281551565544601, 1e-15);
    expectRelative(normalQuantile(0.025), -1.959963984540054, 1e-15);
    expect(normalQuantile(0.5)).toBe(0);
  });

  it('matches python3 statistics.NormalDist().inv_cdf (also AS241) in both tails', () => {
    // python3: NormalDist().inv_cdf(p) printed with repr.
    const table: [number, number][] = [
      [1e-300, -37.0470962993612],
      [1e-100, -21.27345356096532],
      [1e-20, -9.262340089798405],
      [1e-10, -6.361340902404056],
      [1e-5, -4.2648907939228256],
      [0.001, -3.090232306167813],
      [0.3, -0.5244005127080407],
      [0.6, 0.2533471031357998],
      [0.999999, 4.753424308817089],
    ];
    for (const [p, z] of table) expectRelative(normalQuantile(p), z, 2e-16);
  });

  it('inverts the independently computed erfc-based cdf over 300 orders of magnitude', () => {
    // The quantile is AS241 and the cdf is a continued fraction, so agreement checks one against the other.
    // Tolerance: a z with 1 ulp of error moves Phi(z) by ~z^2 * 1.1e-16 relative, ~1.5e-13 at z = -37.
    for (let e = -300; e <= -1; e += 7) {
      const p = 10 ** e;
      expectRelative(normalCdf(normalQuantile(p)), p, 5e-13);
      expectRelative(normalSurvival(normalQuantile(1 - p)), 1 - (1 - p), 1e-9);
    }
    for (let p = 0.01; p < 1; p += 0.01) expectRelative(normalCdf(normalQuantile(p)), p, 1e-14);
  });

  it('is monotone and antisymmetric', () => {
    let previous = -Infinity;
    for (let p = 0.001; p < 1; p += 0.001) {
      const z = normalQuantile(p);
      expect(z).toBeGreaterThan(previous);
      previous = z;
    }
    // Dyadic p, so 1 - p is exact and the symmetry can be checked to the last digit.
    for (const p of [2 ** -40, 2 ** -10, 0.0625, 0.25, 0.375]) {
      expectRelative(normalQuantile(1 - p), -normalQuantile(p), 1e-15);
    }
  });

  it('maps 0 and 1 to -Infinity and Infinity and rejects everything outside [0, 1]', () => {
    expect(normalQuantile(0)).toBe(-Infinity);
    expect(normalQuantile(1)).toBe(Infinity);
    for (const bad of [-0.1, 1.1, Number.NaN, Infinity]) expect(() => normalQuantile(bad)).toThrow(RangeError);
  });
});

