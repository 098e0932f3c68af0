// Calibration thresholds: the lowest TPR and TNR and the widest |TPR − TNR| a judge may have to be
// trusted. They come from the judge spec's `calibration:` block (written before the run, docs/method.md
// "Thresholds fixed before results") and from flags; a flag overrides the same threshold in the spec. A spec's thresholds were
// written under the spec's positive class, so they are checked under that class even when --positive
// names the other one for display: "min TPR 0.8" must keep meaning what its author meant.
import type { Label } from './labels.js';
import { calibrationOf, type Calibration, type Tally } from './metrics.js';

export type ThresholdName = 'min_tpr' | 'min_tnr' | 'max_gap';
export const THRESHOLD_NAMES: readonly ThresholdName[] = ['min_tpr', 'min_tnr', 'max_gap'];

export interface ThresholdSource {
  name: ThresholdName;
  threshold: number;
  /** Where it was set: "flag" or the spec's display path. */
  from: string;
  /** The positive class it is measured under. */
  positive: Label;
}

export interface ThresholdCheck extends ThresholdSource {
  /** The measured value; null when it cannot be measured (a class with no runs). */
  value: number | null;
  met: boolean;
}

export type ThresholdValues = Partial<Record<ThresholdName, number>>;

export function thresholdSources(
  flags: ThresholdValues,
  displayPositive: Label,
  spec?: { values: ThresholdValues; positive: Label; from: string },
): ThresholdSource[] {
  const out: ThresholdSource[] = [];
  for (const name of THRESHOLD_NAMES) {
    const flag = flags[name];
    const fromSpec = spec?.values[name];
    if (flag !== undefined) out.push({ name, threshold: flag, from: 'flag', positive: displayPositive });
    else if (fromSpec !== undefined && spec) out.push({ name, threshold: fromSpec, from: spec.from, positive: spec.positive });
  }
  return out;
}

export function measured(c: Calibration, name: ThresholdName): number | null {
  if (name === 'min_tpr') return c.tpr.rate;
  if (name === 'min_tnr') return c.tnr.rate;
  return c.gap;
}

export function checkThresholds(t: Tally, sources: readonly ThresholdSource[]): ThresholdCheck[] {
  const byPositive = new Map<Label, Calibration>();
  return sources.map((s) => {
    let c = byPositive.get(s.positive);
    if (!c) byPositive.set(s.positive, (c = calibrationOf(t, s.positive)));
    const value = measured(c, s.name);
    const met = value !== null && (s.name === 'max_gap' ? value <= s.threshold : value >= s.threshold);
    return { ...s, value, met };
  });
}

export function thresholdLabel(name: ThresholdName): string {
  return name === 'min_tpr' ? 'min TPR' : name === 'min_tnr' ? 'min TNR' : 'max gap |TPR-TNR|';
}
