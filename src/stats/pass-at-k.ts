// pass@k and pass^k from n repeated runs of one task, c of which passed.
//
// pass@k: the chance that at least one of k runs passes. Chen et al. 2021 ("Evaluating Large Language
// Models Trained on Code", the HumanEval paper, section 2.1) show that plugging c/n into 1 - (1 - p)^k is
// biased, and give the unbiased estimator 1 - C(n - c, k) / C(n, k): the chance that k runs drawn without
// replacement from the n observed all failed. Binomial coefficients overflow past n ~ 1000, so, like the
// paper's numpy code, we use the product 1 - prod_{i = n-c+1}^{n} (1 - k / i).
//
// pass^k: the chance that all k runs pass, the reliability measure of tau-bench (Yao et al. 2024).
// Its unbiased estimator is C(c, k) / C(n, k) = prod_{i = 0}^{k-1} (c - i) / (n - i).
//
// Both need k <= n: an unbiased estimate of a k-run event from fewer than k runs does not exist, so asking
// for one is a configuration error (pass-k raised above the number of repeats) and throws a RangeError.

import { assertCount } from './validate.js';

function assertRuns(n: number, c: number, k: number): void {
  assertCount('n', n);
  assertCount('c', c);
  assertCount('k', k);
  if (c > n) throw new RangeError(`c (${c}) cannot exceed n (${n})`);
  if (k < 1) throw new RangeError(`k must be at least 1, got ${k}`);
  if (k > n) throw new RangeError(`k (${k}) cannot exceed the number of runs n (${n})`);
}

/**
 * Unbiased pass@k estimate from n runs with c passes, 1 <= k <= n. Returns 1 when fewer than k runs failed
 * (every k-subset then contains a pass) and 0 when c = 0. k = 1 gives c / n.
 */
export function passAtK(n: number, c: number, k: number): number {
  assertRuns(n, c, k);
  if (n - c < k) return 1;
  // Each factor (1 - k/i) is in (0, 1) and the product only shrinks, so it neither overflows nor
  // cancels; the single subtraction at the end is the estimator itself.
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * Unbiased pass^k estimate (all k of k runs pass) from n runs with c passes, 1 <= k <= n. Returns 0 when
 * c < k and 1 when c = n. k = 1 gives c / n.
 */
export function passHatK(n: number, c: number, k: number): number {
  assertRuns(n, c, k);
  if (c < k) return 0;
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}
