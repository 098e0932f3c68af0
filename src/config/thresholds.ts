// Thresholds every gate decision uses. They live in pipeline.yaml, are copied with their hash into
// run.json when a run starts, and a stage that finds them changed refuses to go on in that run: choosing
// thresholds after seeing results is how A/B tests lie (docs/method.md: Thresholds fixed before results).
import { z } from 'zod';
import { canonicalJson, sha256 } from '../core/hash.js';

export const thresholdsSchema = z.strictObject({
  /** Held-out pass-rate gain a candidate must reach to be kept (and it must be above 0). */
  min_delta: z.number().min(-1).max(1).optional(),
  /** The candidate's held-out pass rate must be at least this. */
  min_pass_rate: z.number().min(0).max(1).optional(),
  /** Tasks that passed on the baseline and fail on the candidate, at most (all splits). */
  max_new_failures: z.number().int().min(0).optional(),
  /** No category's pass rate may drop by more than this. */
  category_tolerance: z.number().min(0).max(1).optional(),
  /**
   * One-sided: the most often a run may end having kept an edit that does nothing, over all its iterations
   * (each candidate is tested at significance ÷ loop.max_iterations; src/evaluation/run-level.ts).
   */
  significance: z.number().gt(0).lt(1).optional(),
  /**
   * The smallest held-out gain worth finding (pass-rate points): what the design is sized for — the plan's
   * attempts and the futility boundary — not a bar a keep must clear (min_delta is that bar).
   */
  min_effect: z.number().gt(0).max(1).optional(),
  /** On the mock engine, enforce the sign test it otherwise only shows (every other engine's keep is always tested). */
  require_significance: z.boolean().optional(),
  /** Candidate categories a person must approve (decision pending_review). */
  review_categories: z.array(z.string().min(1)).optional(),
  /** Candidate risk levels a person must approve. */
  review_risks: z.array(z.enum(['low', 'medium', 'high'])).optional(),
  /** Model-graded judges must be calibrated within their thresholds: block the keep, warn, or off. */
  require_calibrated_judges: z.enum(['block', 'warn', 'off']).optional(),
});

export interface Thresholds {
  min_delta: number;
  min_pass_rate: number;
  max_new_failures: number;
  category_tolerance: number;
  significance: number;
  min_effect: number;
  require_significance: boolean;
  review_categories: string[];
  review_risks: ('low' | 'medium' | 'high')[];
  require_calibrated_judges: 'block' | 'warn' | 'off';
}

export const THRESHOLD_DEFAULTS: Thresholds = {
  min_delta: 0,
  min_pass_rate: 0,
  max_new_failures: 0,
  category_tolerance: 0.25,
  significance: 0.05,
  min_effect: 0.1,
  require_significance: false,
  review_categories: ['frontmatter'],
  review_risks: ['high'],
  require_calibrated_judges: 'warn',
};

export function resolveThresholds(input: z.infer<typeof thresholdsSchema> | undefined): Thresholds {
  return { ...THRESHOLD_DEFAULTS, ...Object.fromEntries(Object.entries(input ?? {}).filter(([, v]) => v !== undefined)) } as Thresholds;
}

/**
 * Keys added after runs were first registered, with the value such a run decided by. A run registered
 * before a key existed still resumes: the key is hashed only when it differs from this value, and a
 * registration without it reads as this value.
 */
const LATER_KEYS: Partial<Thresholds> = { min_effect: 0.1 };

export function thresholdsHash(t: Thresholds): string {
  const hashed: Record<string, unknown> = { ...t };
  for (const [k, v] of Object.entries(LATER_KEYS)) if (hashed[k] === undefined || hashed[k] === v) delete hashed[k];
  return sha256(canonicalJson(hashed));
}

/** Registered thresholds as a decision reads them: keys a run registered before they existed take their value then. */
export function registeredThresholds(t: Record<string, unknown>): Thresholds {
  return { ...LATER_KEYS, ...t } as Thresholds;
}

/** Lines describing what changed between the registered thresholds and the current ones. */
export function thresholdsDiff(registeredRaw: Thresholds, current: Thresholds): string[] {
  const registered = registeredThresholds(registeredRaw as unknown as Record<string, unknown>);
  const keys = new Set([...Object.keys(registered), ...Object.keys(current)] as (keyof Thresholds)[]);
  const out: string[] = [];
  for (const k of [...keys].sort()) {
    const a = JSON.stringify(registered[k]);
    const b = JSON.stringify(current[k]);
    if (a !== b) out.push(`${k}: ${a} (set before results) → ${b} (pipeline.yaml now)`);
  }
  return out;
}
