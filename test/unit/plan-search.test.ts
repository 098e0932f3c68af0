// The plan's search for what would give 80% power (src/evaluation/plan.ts smallestPowered): it must give
// the answer a plain search gives, in fewer designs. Checked against doubling-and-halving on monotone
// curves of every shape (smooth, stepped, flat stretches, never enough) and on the real design.
import { describe, expect, it } from 'vitest';
import { plan, planFigures, smallestPowered, TARGET_POWER } from '../../src/evaluation/plan.js';
import { normalCdf, normalQuantile } from '../../src/stats/normal.js';

/** The search the plan used before: double from lo until ok, then halve. */
function plainSearch(lo: number, hi: number, ok: (x: number) => boolean): number | null {
  let a = lo;
  let b = lo;
  while (!ok(b)) {
    if (b >= hi) return null;
    a = b + 1;
    b = Math.min(hi, b * 2);
  }
  while (a < b) {
    const mid = Math.floor((a + b) / 2);
    if (ok(mid)) b = mid;
    else a = mid + 1;
  }
  return b;
}

/** A small deterministic generator, so the curves are the same on every run. */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

describe('the plan search for 80% power', () => {
  it('gives the answer of a plain search on 2,000 monotone curves, smooth, stepped, flat or never enough', () => {
    const rand = lcg(7);
    let calls = 0;
    let plainCalls = 0;
    for (let i = 0; i < 2000; i++) {
      const from = 1 + Math.floor(rand() * 400);
      const hi = from * 100;
      const kind = i % 4;
      // Power rising in x: a probit line in √x or log x, a staircase, or one that levels off below 0.8.
      const scale = 0.02 + rand() * 0.3;
      const shift = -2.5 + rand() * 2;
      const curve = (x: number): number => {
        if (kind === 0) return normalCdf(shift + scale * Math.sqrt(x));
        if (kind === 1) return normalCdf(shift + scale * 4 * Math.log(x));
        if (kind === 2) return Math.min(0.99, 0.3 + 0.05 * Math.floor((x * scale) / 3));
        return 0.79 * (1 - Math.exp(-x / (50 + 500 * scale)));
      };
      const p0 = curve(from);
      if (p0 >= TARGET_POWER) continue;
      const got = smallestPowered(from, p0, hi, (x) => (calls++, curve(x)), normalQuantile(0.99));
      const want = plainSearch(from + 1, hi, (x) => (plainCalls++, curve(x) >= TARGET_POWER));
      expect(got, `curve ${kind} from ${from}`).toBe(want);
    }
    expect(calls).toBeLessThan(plainCalls);
  });

  it('finds an answer just past the suite in about three designs', () => {
    const curve = (x: number) => normalCdf(-2.5 + 0.1927 * Math.sqrt(x));
    let calls = 0;
    const got = smallestPowered(300, curve(300), 30_000, (x) => (calls++, curve(x)), normalQuantile(0.99));
    expect(got).toBe(plainSearch(301, 30_000, (x) => curve(x) >= TARGET_POWER));
    expect(calls).toBeLessThanOrEqual(3);
  });

  it('on the real design: the same held-out tasks and attempts for 80% power as a plain search', () => {
    for (const [n, p, minEffect, maxAttempts] of [
      [20, 0.5, 0.1, 10],
      [51, 0.25, 0.1, 3],
      [300, 0.5, 0.05, 10],
      [7, 0.9, 0.3, 2],
    ] as const) {
      const settings = { significance: 0.01, minEffect, maxAttempts, run: { significance: 0.05, maxIterations: 5 } };
      const chances = Array<number>(n).fill(p);
      const got = plan({ chances, settings, firstAttempts: 1 });
      expect(got.canFind).toBe(false);
      const tasks = plainSearch(n + 1, n * 100, (k) => planFigures({ chances: Array<number>(k).fill(p), settings, firstAttempts: 1 }).power >= TARGET_POWER);
      // Designs of many looks cost the square of their looks: the plain search over attempts is run where it stays quick.
      const attempts = n < 100 ? plainSearch(maxAttempts + 1, 100, (m) => planFigures({ chances, settings: { ...settings, maxAttempts: m }, firstAttempts: 1 }).power >= TARGET_POWER) : got.attemptsFor80;
      expect({ n, tasks: got.tasksFor80, attempts: got.attemptsFor80 }).toEqual({ n, tasks, attempts });
    }
  });
});
