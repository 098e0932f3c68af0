// Which discriminator score a candidate needs to be evaluated. Seed 001: "--eval-threshold 6.0 … the
// orchestrator sets per-category thresholds (e.g., docs=5.0, prompt=7.0)". So `evaluate.eval_thresholds`
// maps a candidate category to its own threshold, and every other category uses the single one
// (`evaluate.eval_threshold`, or `--eval-threshold` in its place). Both are registered at run start
// (registered.ts) like the gate's thresholds: a category's bar lowered after its candidate was rejected
// would be choosing by hindsight. A category named in the map is matched exactly (categories are ids:
// ours are src/artifacts/vocabulary.ts's, a seed ranking's are its generator's, e.g. "docs").

export interface EvalThresholdSettings {
  evalThreshold: number;
  evalThresholds: Readonly<Record<string, number>>;
}

export interface EvalThreshold {
  value: number;
  /** Where the value came from, as people write it: `evaluate.eval_thresholds.docs`, `--eval-threshold`, … */
  from: string;
}

/**
 * The threshold a candidate of `category` must reach. `single` replaces evaluate.eval_threshold (a flag,
 * or the value a run registered), labelled `singleFrom`; a category with its own threshold keeps it.
 */
export function evalThresholdFor(category: string | undefined, cfg: EvalThresholdSettings, single?: number, singleFrom = '--eval-threshold'): EvalThreshold {
  if (category !== undefined && Object.hasOwn(cfg.evalThresholds, category)) {
    return { value: cfg.evalThresholds[category]!, from: `evaluate.eval_thresholds.${category}` };
  }
  if (single !== undefined) return { value: single, from: singleFrom };
  return { value: cfg.evalThreshold, from: 'evaluate.eval_threshold' };
}

/**
 * How a run's single threshold is named: `--eval-threshold` when a flag set it (this call's, or the one
 * the run registered at its start), else pipeline.yaml's key.
 */
export function singleThresholdFrom(flagGiven: boolean): string {
  return flagGiven ? '--eval-threshold' : 'evaluate.eval_threshold';
}

/** `docs=5, prompt=7` — the per-category thresholds in one line for summaries; '' when there are none. */
export function describeEvalThresholds(t: Readonly<Record<string, number>>): string {
  return Object.keys(t)
    .sort()
    .map((k) => `${k}=${t[k]}`)
    .join(', ');
}
