// An upper confidence bound for a rate whose trials come in clusters: a description's false triggers,
// where each should-not-trigger query is run several times and a query that tempts the agent tempts it
// on most of its runs. Counting the runs as independent makes the interval as narrow as if every run
// were a new query; the claim a bar makes is about queries like these, so the queries are the units.
//
// The rate is the ratio estimate p̂ = Σx/Σn, its variance the cluster-robust (linearisation) one,
// v = k/(k−1) · Σ(xᵢ − p̂·nᵢ)² / (Σn)² over k clusters (Cochran, "Sampling Techniques", 3rd ed., 1977,
// ch. 6). The design effect d = v / (p̂(1−p̂)/Σn), at least 1, turns the runs into an effective number
// of independent trials Σn/d, and the bound is Wilson's at that size with Student's t on k − 1 degrees
// of freedom in place of the normal quantile: the effective-sample-size interval of Korn & Graubard
// ("Confidence intervals for proportions with small expected number of positive counts estimated from
// survey data", Survey Methodology 24, 1998), as the NCHS data presentation standards for proportions
// use it (Parker et al. 2017). Where p̂ is 0 or 1 the design effect cannot be estimated and is taken as 1,
// as they do. One cluster says nothing about the next: the bound is 1.
import { tQuantile } from './t-quantile.js';
import { assertCount } from './validate.js';

export interface Cluster {
  /** Successes (here: runs that triggered) out of `n` trials in this cluster. */
  x: number;
  n: number;
}

export interface ClusteredBound {
  rate: number | null;
  /** One-sided upper bound at 1 − alpha. */
  upper: number;
  clusters: number;
  trials: number;
  /** Σn divided by the design effect: what the runs are worth as independent trials. */
  effective: number;
}

export function clusteredUpperBound(clusters: readonly Cluster[], alpha: number): ClusteredBound {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const used = clusters.filter((c) => {
    assertCount('x', c.x);
    assertCount('n', c.n);
    if (c.x > c.n) throw new RangeError(`successes (${c.x}) cannot exceed trials (${c.n})`);
    return c.n > 0;
  });
  const k = used.length;
  const trials = used.reduce((a, c) => a + c.n, 0);
  if (k === 0) return { rate: null, upper: 1, clusters: 0, trials: 0, effective: 0 };
  const p = used.reduce((a, c) => a + c.x, 0) / trials;
  if (k === 1) return { rate: p, upper: 1, clusters: 1, trials, effective: 0 };
  const v = (k / (k - 1)) * used.reduce((a, c) => a + (c.x - p * c.n) ** 2, 0) / (trials * trials);
  const binomial = (p * (1 - p)) / trials;
  const deff = binomial > 0 ? Math.max(1, v / binomial) : 1;
  const n = trials / deff;
  const t = tQuantile(1 - alpha, k - 1);
  const t2 = t * t;
  const centre = (p + t2 / (2 * n)) / (1 + t2 / n);
  const half = (t / (1 + t2 / n)) * Math.sqrt((p * (1 - p)) / n + t2 / (4 * n * n));
  return { rate: p, upper: p === 1 ? 1 : Math.min(1, centre + half), clusters: k, trials, effective: n };
}
