// Wilson score interval for a pass rate (Wilson 1927; recommended over the textbook Wald interval by
// Newcombe 1998 and Brown, Cai & DasGupta 2001). Whetstone's suites are small and its pass rates often sit
// at 0 or 1, exactly where the Wald interval p +- z sqrt(p(1-p)/n) collapses to zero width and claims a
// certainty the data do not have; Wilson stays inside [0, 1] and keeps a sensible width there.

import { normalQuantile } from './normal.js';
import { assertCount, assertOpenUnit } from './validate.js';

export interface RateInterval {
  /** Lower end of the interval, in [0, 1]. */
  low: number;
  /** Upper end of the interval, in [0, 1]. */
  high: number;
  /** The observed rate successes / n; NaN when n = 0. */
  point: number;
}

/**
 * Two-sided Wilson score interval for successes out of n trials at the given confidence level.
 *
 * n = 0 returns { low: 0, high: 1, point: NaN }: with no runs every rate is possible, so the interval is the
 * whole of [0, 1], and there is no observed rate. The point is NaN rather than 0 because 0 would read as
 * "every run failed" in a report. Counts that are negative, fractional, or successes > n throw a RangeError.
 */
export function wilson(successes: number, n: number, confidence = 0.95): RateInterval {
  assertCount('successes', successes);
  assertCount('n', n);
  if (successes > n) throw new RangeError(`successes (${successes}) cannot exceed n (${n})`);
  assertOpenUnit('confidence', confidence);
  if (n === 0) return { low: 0, high: 1, point: Number.NaN };

  // Take z from the lower tail: (1 - confidence) / 2 is computed without the rounding of 1 - small.
  const z = -normalQuantile((1 - confidence) / 2);
  const z2 = z * z;
  const p = successes / n;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 and n successes the bound is exactly 0 or 1 in exact arithmetic; floating point would leave
  // a stray 1e-17 that prints as a nonzero bound.
  const low = successes === 0 ? 0 : Math.max(0, centre - halfWidth);
  const high = successes === n ? 1 : Math.min(1, centre + halfWidth);
  return { low, high, point: p };
}
