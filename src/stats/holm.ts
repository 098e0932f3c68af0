// Holm's step-down correction for testing several hypotheses at once (Holm 1979, "A simple sequentially
// rejective multiple test procedure"). Whetstone tests one comparison per category and per dimension; at
// alpha = 0.05 each, ten categories give a ~40% chance that some category "significantly" moved by luck
// alone. Holm controls that family-wise error rate at alpha, like Bonferroni, but is uniformly more
// powerful, and needs no independence between the tests.

import { assertOpenUnit, assertProbability } from './validate.js';

export interface HolmResult {
  /** Holm-adjusted p-values, in the input order; compare each directly with alpha. */
  adjusted: number[];
  /** adjusted[i] <= alpha, in the input order. */
  rejected: boolean[];
}

/**
 * Holm-adjusted p-values and rejections at family-wise level alpha. With the m p-values sorted ascending,
 * p_(1) <= ... <= p_(m), the adjusted value of p_(i) is max_{j <= i} min(1, (m - j + 1) p_(j)): the running
 * maximum makes the adjusted values monotone in the raw ones, so rejecting "adjusted <= alpha" is exactly
 * Holm's rule of stopping at the first non-rejection. This is R's p.adjust(p, "holm"). Ties keep their input
 * order (a stable sort), which cannot change any adjusted value. An empty list gives empty results; a
 * p-value outside [0, 1] or NaN throws a RangeError.
 */
export function holm(pValues: readonly number[], alpha = 0.05): HolmResult {
  assertOpenUnit('alpha', alpha);
  pValues.forEach((p, i) => assertProbability(`pValues[${i}]`, p));
  const m = pValues.length;
  const order = pValues.map((_, i) => i).sort((i, j) => (pValues[i] ?? 0) - (pValues[j] ?? 0));
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach((original, rank) => {
    const scaled = Math.min(1, (m - rank) * (pValues[original] ?? 1));
    running = Math.max(running, scaled);
    adjusted[original] = running;
  });
  return { adjusted, rejected: adjusted.map((p) => p <= alpha) };
}
