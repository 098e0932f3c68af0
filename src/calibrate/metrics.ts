// Judge-vs-human figures (docs/method.md: Calibrating a judge). Everything starts from four positive-class-free counts,
// human label × judge label, and only then is a positive class chosen: that is what makes `--positive
// PASS` a pure relabelling (TP↔TN, FP↔FN, TPR↔TNR) and keeps the bias reading — which is about the
// direction of the judge's errors, not about naming — identical either way round.
//   harsh:   the judge fails good work more often than it passes bad work
//            (human PASS judged FAIL, over human PASS) > (human FAIL judged PASS, over human FAIL)
//   lenient: the other way; balanced: equal. Compared by cross-multiplying counts, so "equal" is exact.
import { cohenKappa, wilson } from '../stats/index.js';
import type { Label, LabelPair } from './labels.js';

/** Counts by human label then judge label. */
export interface Tally {
  failFail: number;
  failPass: number;
  passFail: number;
  passPass: number;
}

/** A rate with the counts it comes from; `rate` is null when `of` is 0 (undefined, not zero). */
export interface Fraction {
  count: number;
  of: number;
  rate: number | null;
}

export type BiasReading = 'harsh' | 'lenient' | 'balanced' | 'undetermined';

export interface Calibration {
  positive: Label;
  n: number;
  human_labels: { FAIL: number; PASS: number };
  judge_labels: { FAIL: number; PASS: number };
  tp: number;
  tn: number;
  fp: number;
  fn: number;
  tpr: Fraction;
  tnr: Fraction;
  accuracy: Fraction;
  precision: Fraction;
  /** Wilson 95% intervals; null when the class has no runs. */
  tpr_ci: { low: number; high: number } | null;
  tnr_ci: { low: number; high: number } | null;
  /** Cohen's kappa; null when undefined (no runs, or both raters constant on one label). */
  kappa: number | null;
  /** |TPR − TNR|, computed from the counts in one division; null when either rate is undefined. */
  gap: number | null;
  bias: { reading: BiasReading; wrongly_failed: Fraction; wrongly_passed: Fraction };
}

export function tally(pairs: readonly Pick<LabelPair, 'human' | 'judge'>[]): Tally {
  const t: Tally = { failFail: 0, failPass: 0, passFail: 0, passPass: 0 };
  for (const p of pairs) {
    if (p.human === 'FAIL') p.judge === 'FAIL' ? t.failFail++ : t.failPass++;
    else p.judge === 'FAIL' ? t.passFail++ : t.passPass++;
  }
  return t;
}

export function fraction(count: number, of: number): Fraction {
  return { count, of, rate: of === 0 ? null : count / of };
}

export function calibrationOf(t: Tally, positive: Label): Calibration {
  const failPositive = positive === 'FAIL';
  const tp = failPositive ? t.failFail : t.passPass;
  const tn = failPositive ? t.passPass : t.failFail;
  const fp = failPositive ? t.passFail : t.failPass;
  const fn = failPositive ? t.failPass : t.passFail;
  const n = tp + tn + fp + fn;
  const humanFail = t.failFail + t.failPass;
  const humanPass = t.passFail + t.passPass;
  const pos = tp + fn;
  const neg = tn + fp;
  const kappa = cohenKappa(tp, tn, fp, fn);
  const ci = (k: number, of: number) => {
    if (of === 0) return null;
    const w = wilson(k, of);
    return { low: w.low, high: w.high };
  };
  const wronglyFailed = fraction(t.passFail, humanPass);
  const wronglyPassed = fraction(t.failPass, humanFail);
  return {
    positive,
    n,
    human_labels: { FAIL: humanFail, PASS: humanPass },
    judge_labels: { FAIL: t.failFail + t.passFail, PASS: t.failPass + t.passPass },
    tp,
    tn,
    fp,
    fn,
    tpr: fraction(tp, pos),
    tnr: fraction(tn, neg),
    accuracy: fraction(tp + tn, n),
    precision: fraction(tp, tp + fp),
    tpr_ci: ci(tp, pos),
    tnr_ci: ci(tn, neg),
    kappa: Number.isNaN(kappa) ? null : kappa,
    gap: pos === 0 || neg === 0 ? null : Math.abs(tp * neg - tn * pos) / (pos * neg),
    bias: { reading: biasReading(t), wrongly_failed: wronglyFailed, wrongly_passed: wronglyPassed },
  };
}

function biasReading(t: Tally): BiasReading {
  const humanFail = t.failFail + t.failPass;
  const humanPass = t.passFail + t.passPass;
  if (humanFail === 0 || humanPass === 0) return 'undetermined';
  // passFail/humanPass vs failPass/humanFail, without division.
  const failedGood = t.passFail * humanFail;
  const passedBad = t.failPass * humanPass;
  return failedGood > passedBad ? 'harsh' : failedGood < passedBad ? 'lenient' : 'balanced';
}

export interface CategoryCalibration {
  category: string;
  calibration: Calibration;
}

/** The label given to pairs without a category when others have one. */
export const NO_CATEGORY = '(none)';

/** Per-category figures, in order of first appearance; empty when no pair names a category. */
export function byCategory(pairs: readonly LabelPair[], positive: Label): CategoryCalibration[] {
  if (!pairs.some((p) => p.category !== undefined)) return [];
  const groups = new Map<string, LabelPair[]>();
  for (const p of pairs) {
    const key = p.category ?? NO_CATEGORY;
    const g = groups.get(key);
    if (g) g.push(p);
    else groups.set(key, [p]);
  }
  return [...groups].map(([category, ps]) => ({ category, calibration: calibrationOf(tally(ps), positive) }));
}

/** docs/method.md "Calibrating a judge": "TPR 0.88 over 50 labels is a measurement, over 6 it is noise." */
export const MIN_RUNS_PER_CLASS = 30;

export function smallSampleWarnings(c: Calibration): string[] {
  const out: string[] = [];
  for (const label of ['FAIL', 'PASS'] as const) {
    const count = c.human_labels[label];
    if (count >= MIN_RUNS_PER_CLASS) continue;
    const rate = label === c.positive ? 'TPR' : 'TNR';
    out.push(
      `counts are the signal: only ${count} human-${label} run${count === 1 ? '' : 's'} (fewer than ${MIN_RUNS_PER_CLASS}); ` +
        `${rate} over ${count} is ${count === 0 ? 'undefined' : 'noise, not a measurement'}. Label more ${label} runs before trusting it.`,
    );
  }
  return out;
}
