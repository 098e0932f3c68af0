// Paired cluster bootstrap for the mean score difference between candidate and baseline.
//
// Scores (rubric points, partial credit) are not pass/fail, so McNemar does not apply; the bootstrap makes no
// distributional assumption. It is paired: each row holds both arms' scores on the same run of the same
// task, so task difficulty cancels in the difference. It resamples clusters, not rows: with --pass-k 3 a
// task contributes three rows whose differences are correlated, and resampling rows would treat them as
// three independent tasks and make the interval too narrow. Resampling whole tasks keeps that dependence.
//
// The generator is our own seeded PRNG so the same inputs and seed give the same interval on every machine
// and Node version: a report's numbers must be reproducible from its run directory.

import { assertCount, assertFinite, assertOpenUnit } from './validate.js';

/**
 * mulberry32 (Tommy Ettinger, 2017): a 32-bit state generator with period 2^32, far more than the
 * ~10^5-10^6 draws one bootstrap makes, and exactly specified, unlike Math.random. Its known weaknesses
 * (not every 32-bit value is reachable) matter for cryptography and huge simulations, not for picking
 * tasks. The seed is taken modulo 2^32. Returns uniform doubles in [0, 1) with 32 random bits.
 */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface BootstrapPair {
  /** The resampling unit, normally the task id; rows sharing it are repeats of one task. */
  cluster: string;
  baseline: number;
  candidate: number;
}

export interface BootstrapOptions {
  iterations?: number;
  confidence?: number;
  seed?: number;
}

export interface BootstrapResult {
  /** Mean of candidate - baseline over all rows (each run weighs the same). */
  mean: number;
  /** Percentile interval; NaN when there are fewer than two clusters (see pairedBootstrapCI). */
  low: number;
  high: number;
  /** Number of distinct clusters resampled. */
  clusters: number;
  iterations: number;
  seed: number;
}

/**
 * Percentile bootstrap CI for mean(candidate - baseline), resampling clusters with replacement.
 *
 * Each replicate draws as many clusters as there are, with replacement, and takes the mean difference over
 * all rows of the drawn clusters, the same statistic as `mean`, so tasks with more repeats weigh more,
 * consistently in the estimate and its interval. The interval takes the (1 - confidence)/2 and
 * (1 + confidence)/2 quantiles of the replicates with linear interpolation (R's quantile type 7).
 *
 * An empty `pairs` throws a RangeError (there is no difference to estimate). One cluster gives low = high =
 * NaN: every replicate would equal the estimate, and a zero-width interval from a single task would claim a
 * certainty one task cannot give. With few clusters (under ~10) the percentile interval is known to be too
 * narrow; report the number of clusters beside it.
 */
export function pairedBootstrapCI(pairs: readonly BootstrapPair[], options: BootstrapOptions = {}): BootstrapResult {
  const { iterations = 10000, confidence = 0.95, seed = 1 } = options;
  assertCount('iterations', iterations);
  if (iterations < 1) throw new RangeError('iterations must be at least 1');
  assertOpenUnit('confidence', confidence);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${String(seed)}`);
  if (pairs.length === 0) throw new RangeError('pairedBootstrapCI needs at least one pair');

  // Per cluster, the sum of differences and the row count: a replicate then costs O(clusters), not O(rows).
  const byCluster = new Map<string, { sum: number; count: number }>();
  let totalSum = 0;
  for (const [index, pair] of pairs.entries()) {
    assertFinite(`pairs[${index}].baseline`, pair.baseline);
    assertFinite(`pairs[${index}].candidate`, pair.candidate);
    const diff = pair.candidate - pair.baseline;
    totalSum += diff;
    const entry = byCluster.get(pair.cluster);
    if (entry) {
      entry.sum += diff;
      entry.count++;
    } else {
      byCluster.set(pair.cluster, { sum: diff, count: 1 });
    }
  }
  const mean = totalSum / pairs.length;
  // Map iteration order is insertion order, so the draws and hence the interval depend only on the input
  // order and the seed.
  const sums = [...byCluster.values()].map((e) => e.sum);
  const counts = [...byCluster.values()].map((e) => e.count);
  const m = sums.length;
  const base = { mean, clusters: m, iterations, seed };
  if (m < 2) return { ...base, low: Number.NaN, high: Number.NaN };

  const random = mulberry32(seed);
  const replicates = new Float64Array(iterations);
  for (let r = 0; r < iterations; r++) {
    let sum = 0;
    let count = 0;
    for (let j = 0; j < m; j++) {
      // floor(u * m) is biased by at most m / 2^32, far below bootstrap noise for any realistic suite.
      const pick = Math.floor(random() * m);
      sum += sums[pick] ?? 0;
      count += counts[pick] ?? 0;
    }
    replicates[r] = sum / count;
  }
  replicates.sort();
  const alpha = 1 - confidence;
  return { ...base, low: quantileSorted(replicates, alpha / 2), high: quantileSorted(replicates, 1 - alpha / 2) };
}

// R's default quantile (type 7): linear interpolation between order statistics at h = (N - 1) q.
function quantileSorted(sorted: Float64Array, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  const a = sorted[lo] ?? Number.NaN;
  const b = sorted[hi] ?? Number.NaN;
  return a + (h - lo) * (b - a);
}
