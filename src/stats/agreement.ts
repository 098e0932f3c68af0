// How far a judge can be trusted, beyond the four calibration rates (docs/method.md: Calibrating a judge): Cohen's kappa for
// agreement corrected for chance, and the Rogan-Gladen correction that turns a judge's observed PASS rate
// into an estimate of the true rate given the judge's measured error rates.

import { assertCount, assertProbability } from './validate.js';

/**
 * Cohen's kappa (Cohen 1960) for a 2x2 table of human label against judge label:
 * kappa = (p_o - p_e) / (1 - p_e), p_o the observed agreement, p_e the agreement expected if the two labelled
 * independently with their own marginal rates. Accuracy alone flatters a judge on a lopsided answer key
 * (a judge that always says FAIL scores 0.9 on a 90%-FAIL key); kappa for that judge is 0.
 *
 * kappa is symmetric in fp/fn and unchanged when the positive class is swapped (tp <-> tn, fp <-> fn), so
 * unlike TPR/TNR it does not depend on the declared positive class. Returns NaN when it is undefined: an
 * empty table, or p_e = 1 (both raters gave one and the same label to everything, so agreement cannot be
 * told apart from chance). Counts must be non-negative integers (RangeError otherwise).
 */
export function cohenKappa(tp: number, tn: number, fp: number, fn: number): number {
  assertCount('tp', tp);
  assertCount('tn', tn);
  assertCount('fp', fp);
  assertCount('fn', fn);
  const total = tp + tn + fp + fn;
  if (total === 0) return Number.NaN;
  const observed = (tp + tn) / total;
  // Judge-positive x human-positive plus judge-negative x human-negative, over total^2.
  const expected = ((tp + fp) * (tp + fn) + (tn + fn) * (tn + fp)) / (total * total);
  if (expected === 1) return Number.NaN;
  return (observed - expected) / (1 - expected);
}

/**
 * Rogan-Gladen estimate of the true PASS rate from the rate at which a judge said PASS (Rogan & Gladen 1978,
 * "Estimating prevalence from the results of a screening test"):
 *
 *   true = (observedRate + tnr - 1) / (tpr + tnr - 1), clamped to [0, 1]
 *
 * Orientation matters and is fixed here by the class whose rate is observed, PASS, whatever positive class
 * the calibration report declared:
 *   observedRate  the fraction of outputs the judge labelled PASS
 *   tpr           P(judge says PASS | truly PASS), the judge's sensitivity to passing work
 *   tnr           P(judge says FAIL | truly FAIL), the judge's specificity
 * When calibration declared FAIL positive (docs/method.md's default), its TPR is the FAIL-detection rate and
 * must be passed here as `tnr`, and its TNR as `tpr`. Passing them unswapped silently gives a wrong rate.
 *
 * Returns NaN when tpr + tnr <= 1: such a judge is no better than a coin (or worse), its labels carry no
 * information about the true rate, and the formula divides by zero or flips sign. Clamping is needed
 * because sampling noise can put the raw estimate outside [0, 1]; a clamped 0 or 1 means "as low/high as
 * the judge can resolve", not certainty. Arguments outside [0, 1] throw a RangeError.
 */
export function roganGladen(observedRate: number, tpr: number, tnr: number): number {
  assertProbability('observedRate', observedRate);
  assertProbability('tpr', tpr);
  assertProbability('tnr', tnr);
  const youden = tpr + tnr - 1;
  if (!(youden > 0)) return Number.NaN;
  const estimate = (observedRate + tnr - 1) / youden;
  return Math.min(1, Math.max(0, estimate));
}
