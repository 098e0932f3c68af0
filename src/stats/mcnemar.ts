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
import { chiSquare1Survival } from './normal.js';
import { assertCount } from './validate.js';

export interface McNemarExactResult {
  b: number;
  c: number;
  /** Number of discordant pairs, b + c. */
  n: number;
  pValue: number;
  method: 'exact';
}

export interface McNemarChiSquareResult {
  b: number;
  c: number;
  /** Number of discordant pairs, b + c. */
  n: number;
  /** Continuity-corrected statistic max(0, |b - c| - 1)^2 / (b + c). */
  statistic: number;
  df: 1;
  pValue: number;
  method: 'chi-square';
}

export type McNemarResult = McNemarExactResult | McNemarChiSquareResult;

function assertDiscordant(b: number, c: number): void {
  assertCount('b', b);
  assertCount('c', c);
}

/**
 * Exact two-sided McNemar test: p = min(1, 2 P(X <= min(b, c))) for X ~ Binomial(b + c, 1/2), which is what
 * R's binom.test(c, b + c) and scipy's binomtest give for p = 1/2. b + c = 0 gives p = 1 (no evidence
 * either way). Accurate to ~1e-13 relative or better for b + c up to 1e5 and beyond (checked against exact
 * big-integer sums); p-values below ~5e-324 (for example 0 versus 1100 discordant pairs) underflow to 0.
 */
export function mcnemarExact(b: number, c: number): McNemarExactResult {
  assertDiscordant(b, c);
  const n = b + c;
  // b = c puts more than half the mass at or below min(b, c); the doubled tail is capped at 1 anyway.
  const pValue = b === c ? 1 : Math.min(1, 2 * binomialCdf(Math.min(b, c), n, 0.5));
  return { b, c, n, pValue, method: 'exact' };
}

/**
 * McNemar's chi-square test with Edwards' continuity correction, df = 1, as R's mcnemar.test(correct = TRUE)
 * computes it, with one deliberate difference: the corrected difference is floored at 0. R uses
 * (|b - c| - 1)^2, which for b = c gives 1 / (b + c) > 0 and a p-value below 1 when the data show no
 * difference at all; with the floor, b = c gives statistic 0 and p = 1. Results match R whenever
 * |b - c| >= 1. b + c = 0 gives statistic 0, p = 1.
 */
export function mcnemarChiSquare(b: number, c: number): McNemarChiSquareResult {
  assertDiscordant(b, c);
  const n = b + c;
  if (n === 0) return { b, c, n, statistic: 0, df: 1, pValue: 1, method: 'chi-square' };
  const corrected = Math.max(0, Math.abs(b - c) - 1);
  const statistic = (corrected * corrected) / n;
  return { b, c, n, statistic, df: 1, pValue: chiSquare1Survival(statistic), method: 'chi-square' };
}

/**
 * Below this many discordant pairs mcnemar() uses the exact test. The usual rule of thumb switches at 25,
 * but there the corrected chi-square p-value can be 12% off the exact one at p ~ 0.01 (6 vs 19 pairs), and
 * the exact test is valid at every size and ours is accurate and fast at any n. The only reason to switch
 * is convention and readers who expect a chi-square statistic. Measured against the exact test: from
 * b + c = 100 on, the corrected chi-square p-value is within 3.3% of it for every p >= 0.01 (never more than
 * 0.04% smaller) and only errs conservative (larger) below that. Whetstone's suites rarely have 100
 * discordant tasks, so reported McNemar p-values are in practice exact, as docs/method.md "The paired test (McNemar)" asks.
 */
export const MCNEMAR_EXACT_BELOW = 100;

/** McNemar's test, exact when b + c < MCNEMAR_EXACT_BELOW, continuity-corrected chi-square otherwise. */
export function mcnemar(b: number, c: number): McNemarResult {
  assertDiscordant(b, c);
  return b + c < MCNEMAR_EXACT_BELOW ? mcnemarExact(b, c) : mcnemarChiSquare(b, c);
}

export interface PairedOutcomes {
  /** Tasks that passed under both. */
  both_pass: number;
  /** Tasks that failed under both. */
  both_fail: number;
  /** Baseline PASS, candidate FAIL (regressions). */
  b: number;
  /** Baseline FAIL, candidate PASS (improvements). */
  c: number;
  /** Tasks present in both maps: both_pass + both_fail + b + c. */
  n: number;
  /** Task ids only the baseline has, sorted; they are left out of every count above. */
  baselineOnly: string[];
  /** Task ids only the candidate has, sorted; they are left out of every count above. */
  candidateOnly: string[];
}

/**
 * Cross-tabulates pass/fail per task id over the ids present in both maps (a paired test may only use pairs).
 * Callers must leave errored, skipped or timed-out tasks out of the maps rather than mapping them to false:
 * an engine error is not a task failure (docs/method.md: Pass rate and its Wilson interval). Ids dropped for lacking a partner are
 * returned so a report can say how many tasks the comparison did not cover.
 */
export function pairedOutcomes(
  baseline: ReadonlyMap<string, boolean>,
  candidate: ReadonlyMap<string, boolean>,
): PairedOutcomes {
  const out: PairedOutcomes = { both_pass: 0, both_fail: 0, b: 0, c: 0, n: 0, baselineOnly: [], candidateOnly: [] };
  for (const [id, basePass] of baseline) {
    const candPass = candidate.get(id);
    if (candPass === undefined) {
      out.baselineOnly.push(id);
      continue;
    }
    out.n++;
    if (basePass && candPass) out.both_pass++;
    else if (!basePass && !candPass) out.both_fail++;
    else if (basePass) out.b++;
    else out.c++;
  }
  for (const id of candidate.keys()) if (!baseline.has(id)) out.candidateOnly.push(id);
  out.baselineOnly.sort();
  out.candidateOnly.sort();
  return out;
}
