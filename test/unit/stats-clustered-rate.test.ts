// The upper bound the false-trigger bar is held to (src/stats/clustered-rate.ts): pinned to its closed
// form where the design effect is 1, wider when the hits gather on a few clusters, and covering the true
// rate at its stated level over clusters whose own rates differ.
import { describe, expect, it } from 'vitest';
import { clusteredUpperBound } from '../../src/stats/clustered-rate.js';
import { mulberry32 } from '../../src/stats/index.js';
import { tQuantile } from '../../src/stats/t-quantile.js';

const clusters = (hits: number[], n: number) => hits.map((x) => ({ x, n }));

describe('clusteredUpperBound', () => {
  it('with no hits is Wilson’s bound t²/(N + t²) at t on k − 1 degrees of freedom', () => {
    const t = tQuantile(0.95, 9);
    const b = clusteredUpperBound(clusters(Array(10).fill(0), 3), 0.05);
    expect(b).toMatchObject({ rate: 0, clusters: 10, trials: 30, effective: 30 });
    expect(b.upper).toBeCloseTo((t * t) / (30 + t * t), 12);
  });

  it('is wider when the same hits gather on one cluster than when they spread over three', () => {
    const spread = clusteredUpperBound(clusters([1, 1, 1, 0, 0, 0, 0, 0, 0, 0], 3), 0.05);
    const gathered = clusteredUpperBound(clusters([3, 0, 0, 0, 0, 0, 0, 0, 0, 0], 3), 0.05);
    expect(spread.rate).toBeCloseTo(0.1, 12);
    expect(gathered.rate).toBeCloseTo(0.1, 12);
    expect(spread.effective).toBe(30);
    expect(gathered.effective).toBeLessThan(10);
    expect(gathered.upper).toBeGreaterThan(spread.upper + 0.1);
  });

  it('says nothing from one cluster or none, and refuses impossible counts', () => {
    expect(clusteredUpperBound([{ x: 0, n: 50 }], 0.05).upper).toBe(1);
    expect(clusteredUpperBound([], 0.05)).toMatchObject({ rate: null, upper: 1 });
    expect(() => clusteredUpperBound([{ x: 4, n: 3 }, { x: 0, n: 3 }], 0.05)).toThrow(RangeError);
    expect(() => clusteredUpperBound([{ x: 0, n: 3 }], 0)).toThrow(RangeError);
  });

  it('covers the true rate in at least 93% of draws at 95%: 10 clusters of 5 runs, cluster rates spread around 0.3', () => {
    const rnd = mulberry32(42);
    let covered = 0;
    const draws = 2000;
    for (let d = 0; d < draws; d++) {
      const cs = Array.from({ length: 10 }, () => {
        const p = 0.1 + 0.4 * rnd();
        let x = 0;
        for (let a = 0; a < 5; a++) if (rnd() < p) x++;
        return { x, n: 5 };
      });
      if (clusteredUpperBound(cs, 0.05).upper >= 0.3) covered++;
    }
    expect(covered / draws).toBeGreaterThanOrEqual(0.93);
  });
});
