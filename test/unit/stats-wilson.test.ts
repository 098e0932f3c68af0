import { describe, expect, it } from 'vitest';
import { wilson } from '../../src/stats/index.js';

describe('wilson', () => {
  it('reproduces the Wilson score intervals of Newcombe (1998), Table I, to the 4 decimals printed', () => {
    // Newcombe RG, "Two-sided confidence intervals for the single proportion: comparison of seven
    // methods", Stat Med 1998;17:857-872, Table I, method 3 (score interval without continuity correction).
    const cases: [number, number, number, number][] = [
      [81, 263, 0.2553, 0.3662],
      [15, 148, 0.0624, 0.1605],
      [0, 20, 0, 0.1611],
      [1, 29, 0.0061, 0.1718],
    ];
    for (const [s, n, low, high] of cases) {
      const ci = wilson(s, n);
      expect(ci.low).toBeCloseTo(low, 4);
      expect(ci.high).toBeCloseTo(high, 4);
      expect(ci.point).toBe(s / n);
    }
  });

  it('matches the closed form to full precision at 95% and 99%', () => {
    // python3: z = statistics.NormalDist().inv_cdf(1 - (1 - conf) / 2); p = s / n; d = 1 + z*z/n;
    // c = (p + z*z/(2*n)) / d; h = z/d * math.sqrt(p*(1-p)/n + z*z/(4*n*n)); printed (c - h, c + h).
    // (The same formula as R's binom::binom.confint(..., method = "wilson") and prop.test(correct = FALSE).)
    const cases: [number, number, number, number, number][] = [
      [81, 263, 0.95, 0.2552885198782743, 0.3662095769828001],
      [4, 5, 0.95, 0.37553462976252544, 0.9637758913675698],
      [3, 5, 0.95, 0.23072428127601297, 0.8823792257673521],
      [50, 100, 0.95, 0.4038315303659957, 0.5961684696340044],
      [1, 1, 0.95, 0.20654931437723745, 1],
      [0, 1, 0.95, 0, 0.7934506856227626],
      [29, 29, 0.95, 0.8830302015002593, 1],
      [81, 263, 0.99, 0.24013690268760773, 0.38528250231822986],
      [15, 148, 0.99, 0.05364486961396486, 0.18326735011315248],
      [0, 20, 0.99, 0, 0.24910540109875334],
      [1, 29, 0.99, 0.004061494196883814, 0.23825425313641296],
    ];
    for (const [s, n, conf, low, high] of cases) {
      const ci = wilson(s, n, conf);
      expect(ci.low).toBeCloseTo(low, 14);
      expect(ci.high).toBeCloseTo(high, 14);
    }
  });

  it('gives exactly 0 and 1 at the boundaries, never a stray 1e-17', () => {
    // python3 evaluation of the closed form at 0/20, 99% gives 1.39e-17 for the lower bound: rounding, not data.
    expect(wilson(0, 20, 0.99).low).toBe(0);
    expect(wilson(0, 1, 0.99).low).toBe(0);
    expect(wilson(20, 20, 0.99).high).toBe(1);
    expect(wilson(0, 5).point).toBe(0);
    expect(wilson(5, 5).point).toBe(1);
  });

  it('is symmetric: the interval for n - s failures mirrors the one for s successes', () => {
    for (const [s, n] of [
      [0, 7],
      [3, 10],
      [81, 263],
    ] as const) {
      const a = wilson(s, n);
      const b = wilson(n - s, n);
      expect(a.low).toBeCloseTo(1 - b.high, 14);
      expect(a.high).toBeCloseTo(1 - b.low, 14);
    }
  });

  it('contains the point estimate, grows with confidence and shrinks with n', () => {
    for (let n = 1; n <= 60; n++) {
      let previous = wilson(0, n);
      for (let s = 0; s <= n; s++) {
        const ci = wilson(s, n);
        expect(ci.low).toBeLessThanOrEqual(ci.point);
        expect(ci.high).toBeGreaterThanOrEqual(ci.point);
        expect(ci.low).toBeGreaterThanOrEqual(0);
        expect(ci.high).toBeLessThanOrEqual(1);
        // Monotone in the number of successes.
        expect(ci.low).toBeGreaterThanOrEqual(previous.low);
        expect(ci.high).toBeGreaterThanOrEqual(previous.high);
        const wide = wilson(s, n, 0.99);
        expect(wide.low).toBeLessThanOrEqual(ci.low);
        expect(wide.high).toBeGreaterThanOrEqual(ci.high);
        previous = ci;
      }
    }
    const widths = [
      [3, 10],
      [30, 100],
      [300, 1000],
      [3000, 10000],
    ].map(([s, n]) => {
      const ci = wilson(s ?? 0, n ?? 0);
      return ci.high - ci.low;
    });
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeLessThan(widths[i - 1] ?? 0);
  });

  it('n = 0: the whole of [0, 1], and no point estimate (NaN, not a misleading 0)', () => {
    const ci = wilson(0, 0);
    expect(ci.low).toBe(0);
    expect(ci.high).toBe(1);
    expect(Number.isNaN(ci.point)).toBe(true);
  });

  it('rejects impossible counts and confidence levels', () => {
    expect(() => wilson(6, 5)).toThrow(RangeError);
    expect(() => wilson(-1, 5)).toThrow(RangeError);
    expect(() => wilson(1.5, 5)).toThrow(RangeError);
    expect(() => wilson(1, Number.NaN)).toThrow(RangeError);
    expect(() => wilson(1, 5, 1)).toThrow(RangeError);
    expect(() => wilson(1, 5, 0)).toThrow(RangeError);
    expect(() => wilson(1, 5, 95)).toThrow(RangeError);
  });
});
