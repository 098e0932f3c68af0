// McNemar's test for a paired pass/fail comparison: the same tasks run once under the baseline skill and
// once under the candidate. Only the discordant tasks (passed under one, failed under the other) carry
// information about which is better; tasks both pass or both fail cancel out. Under the null hypothesis of
// no difference each discordant task is equally likely to fall either way, so c ~ Binomial(b + c, 1/2).
//
// Orientation, used everywhere in whetstone:
//   b = baseline PASS and candidate FAIL  (the candidate broke the task: regressions)
//   c = baseline FAIL and candidate PASS  (the candidate fixed the task: improvements)
// The two-sided p-value is symmetric in b and c, so a swap cannot change a p-value, but it would invert the
// direction a report prints; c > b means the candidate looks better.

import { binomialCdf } from './binomial.js';
import { assertCount } from './validate.js';

export interface McNemarExactResult {
  b: number;
  c: number;
  /** Number of discordant pairs, b + c. */
  n: number;
  pValue: number;
  method: 'exact';
}

/**
 * Exact two-sided McNemar test: p = min(1, 2 P(X <= min(b, c))) for X ~ Binomial(b + c, 1/2), which is what
 * R's binom.test(c, b + c) and scipy's binomtest give for p = 1/2. b + c = 0 gives p = 1 (no evidence
 * either way). Accurate to ~1e-13 relative or better for b + c up to 1e5 and beyond (checked against exact
 * big-integer sums); p-values below ~5e-324 (for example 0 versus 1100 discordant pairs) underflow to 0.
 */
export function mcnemarExact(b: number, c: number): McNemarExactResult {
  assertCount('b', b);
  assertCount('c', c);
  const n = b + c;
  // b = c puts more than half the mass at or below min(b, c); the doubled tail is capped at 1 anyway.
  const pValue = b === c ? 1 : Math.min(1, 2 * binomialCdf(Math.min(b, c), n, 0.5));
  return { b, c, n, pValue, method: 'exact' };
}
