// The calibration report: built once as plain data (what --json prints and the state dir stores), then
// rendered as text. The text puts the positive class beside the counts and the rates, never prints
// accuracy without TPR, TNR and precision, and ends the figures with the bias line in docs/method.md's form:
// "harsh: wrongly failed 9/30 (0.3000) vs wrongly passed 6/50 (0.1200)".
import type { Label, LabelPair } from './labels.js';
import {
  byCategory,
  calibrationOf,
  smallSampleWarnings,
  tally,
  type Calibration,
  type CategoryCalibration,
  type Fraction,
} from './metrics.js';
import { checkThresholds, thresholdLabel, type ThresholdCheck, type ThresholdSource } from './thresholds.js';

// Rates that are ratios of counts are rounded from the exact fraction (half up at 4 decimals), not from
// its floating-point approximation, so a figure never depends on how a division happened to round:
// 1/32 = 0.03125 prints 0.0313 and 44/53 prints 0.8302. Irrational figures (kappa, Wilson bounds) use
// toFixed(4) on the double.

/** count/of to 4 decimals, exactly rounded half-up; "—" when of is 0 (not measured, as in every report). */
export function ratio4(count: number, of: number): string {
  if (of === 0) return '—';
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(of) || count < 0 || of < 0 || count * 20_000 + of > Number.MAX_SAFE_INTEGER) {
    return (count / of).toFixed(4);
  }
  // floor((2·count·10⁴ + of) / (2·of)) = round half-up of count·10⁴/of, in integers.
  const k = Math.floor((count * 20_000 + of) / (2 * of));
  return `${Math.floor(k / 10_000)}.${String(k % 10_000).padStart(4, '0')}`;
}

export function rate4(f: Fraction): string {
  return ratio4(f.count, f.of);
}

export function num4(x: number | null | undefined): string {
  return x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(4);
}

/** `9/30 (0.3000)`, the form docs/method.md's bias line uses. */
export function countAndRate(f: Fraction): string {
  return `${f.count}/${f.of} (${rate4(f)})`;
}

/** A user-written name (a category) on one line of a report. */
export function shownName(s: string): string {
  return /^[\p{L}\p{N} ._:/()+-]{1,80}$/u.test(s) ? s : JSON.stringify(s.length > 80 ? `${s.slice(0, 79)}…` : s);
}

export interface JudgeInfo {
  name: string;
  spec: string;
  spec_hash: string;
  temperature: number;
  engine: { type: string; mock: boolean; identity: Record<string, unknown> };
}

export interface CalibrationReport extends Calibration {
  source: string;
  categories: CategoryCalibration[];
  warnings: string[];
  thresholds: ThresholdCheck[];
  /** null when no threshold was set. */
  thresholds_met: boolean | null;
  judge?: JudgeInfo;
  answer_key?: { file: string; hash: string; items: number };
  pairs_file?: string;
  errors?: { id: string; error: string }[];
  stored?: string;
}

export function buildReport(source: string, pairs: readonly LabelPair[], positive: Label, thresholds: readonly ThresholdSource[]): CalibrationReport {
  const t = tally(pairs);
  const c = calibrationOf(t, positive);
  const checks = checkThresholds(t, thresholds);
  return {
    source,
    ...c,
    categories: byCategory(pairs, positive),
    warnings: smallSampleWarnings(c),
    thresholds: checks,
    thresholds_met: checks.length === 0 ? null : checks.every((k) => k.met),
  };
}

const otherOf = (l: Label): Label => (l === 'FAIL' ? 'PASS' : 'FAIL');

export function biasLine(c: Calibration): string {
  const { reading, wrongly_failed: wf, wrongly_passed: wp } = c.bias;
  const figures = `wrongly failed ${countAndRate(wf)} vs wrongly passed ${countAndRate(wp)}`;
  const meaning =
    reading === 'harsh'
      ? 'the judge fails good work more often than it passes bad work'
      : reading === 'lenient'
        ? 'the judge passes bad work more often than it fails good work'
        : reading === 'balanced'
          ? 'the two error rates are equal'
          : `needs human-labelled runs of both classes (${wf.of} PASS, ${wp.of} FAIL)`;
  return `bias: ${reading}: ${figures}: ${meaning}`;
}

export function figureLines(c: Calibration): string[] {
  const p = c.positive;
  const q = otherOf(p);
  return [
    `TP=${c.tp} TN=${c.tn} FP=${c.fp} FN=${c.fn} (positive class: ${p}; FP = human ${q} judged ${p}, FN = human ${p} judged ${q})`,
    `TPR ${rate4(c.tpr)} (recall of ${p}: ${c.tpr.count}/${c.tpr.of}${ciText(c.tpr_ci)}; positive class: ${p})`,
    `TNR ${rate4(c.tnr)} (specificity, ${q} kept ${q}: ${c.tnr.count}/${c.tnr.of}${ciText(c.tnr_ci)})`,
    `accuracy ${rate4(c.accuracy)} (${c.accuracy.count}/${c.accuracy.of})`,
    `precision ${rate4(c.precision)} (judge ${p} verdicts that humans also gave ${p}: ${c.precision.count}/${c.precision.of})`,
    `kappa ${num4(c.kappa)} (Cohen's κ: agreement beyond chance)`,
    `gap |TPR-TNR| ${num4(c.gap)}`,
    biasLine(c),
  ];
}

function ciText(ci: { low: number; high: number } | null): string {
  return ci ? `; Wilson 95% CI ${num4(ci.low)}–${num4(ci.high)}` : '';
}

export function categoryLine(cc: CategoryCalibration): string {
  const c = cc.calibration;
  const b = c.bias;
  return (
    `  ${shownName(cc.category)}: n=${c.n} TP=${c.tp} TN=${c.tn} FP=${c.fp} FN=${c.fn} TPR ${rate4(c.tpr)} TNR ${rate4(c.tnr)} ` +
    `accuracy ${rate4(c.accuracy)} precision ${rate4(c.precision)} bias ${b.reading}: wrongly failed ${countAndRate(b.wrongly_failed)} vs wrongly passed ${countAndRate(b.wrongly_passed)}`
  );
}

export function thresholdLines(r: CalibrationReport): string[] {
  if (r.thresholds.length === 0) {
    return ['thresholds: none set (set min_tpr / min_tnr / max_gap in the judge spec\'s calibration: block, or --min-tpr / --min-tnr / --max-gap, before the run)'];
  }
  const lines = ['thresholds (set before the run):'];
  for (const k of r.thresholds) {
    const value = k.value === null ? 'cannot be measured' : num4(k.value);
    lines.push(`  ${thresholdLabel(k.name)} ${num4(k.threshold)} (${k.from}, positive ${k.positive}): ${value} ${k.met ? 'met' : 'MISSED'}`);
  }
  const missed = r.thresholds.filter((k) => !k.met).length;
  lines.push(missed === 0 ? `result: all ${r.thresholds.length} thresholds met` : `result: ${missed} of ${r.thresholds.length} thresholds missed`);
  return lines;
}

export function renderReport(r: CalibrationReport): string {
  const lines: string[] = [`whet calibrate: ${r.source}`];
  if (r.judge) {
    const e = r.judge.engine;
    lines.push(`judge: ${r.judge.name} (${r.judge.spec}, ${r.judge.spec_hash.slice(0, 19)}…, temperature ${r.judge.temperature}) on engine ${e.type}${e.mock ? ' (offline mock: its verdicts demonstrate the tool, they do not measure a judge)' : ''}`);
  }
  if (r.answer_key) lines.push(`answer key: ${r.answer_key.file} (${r.answer_key.items} labelled outputs)${r.pairs_file ? `; pairs written to ${r.pairs_file}` : ''}`);
  for (const e of r.errors ?? []) lines.push(`error: ${shownName(e.id)} could not be judged and is left out of every figure: ${e.error}`);
  lines.push(`${r.n} labelled runs: ${r.human_labels.FAIL} human FAIL, ${r.human_labels.PASS} human PASS; positive class: ${r.positive}`);
  lines.push(...figureLines(r));
  if (r.categories.length > 0) {
    lines.push(`per category (each pair's category: JSONL "category", or a CSV's third column; positive class: ${r.positive}):`);
    for (const cc of r.categories) lines.push(categoryLine(cc));
  }
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  lines.push(...thresholdLines(r));
  if (r.stored) lines.push(`stored: ${r.stored}`);
  return lines.join('\n');
}
