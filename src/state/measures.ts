// One vocabulary of what is measured (issue 32): a task's outcome, a pass rate with its interval and a
// paired comparison each have one schema and one set of names. The evaluation artifact, the nightly
// records, the report model and the viewer all use these, so a field means the same thing wherever a
// person or a dashboard reads it. The names are listed once in AGENTS.md ("Vocabulary").
import { z } from 'zod';

/** A Wilson (or other stated) 95% interval; null wherever nothing was judged. */
export const interval = z.object({ low: z.number(), high: z.number() });

/** A task's outcome over its attempts: pass, fail, or error (no attempt could be judged). */
export const taskStatus = z.enum(['pass', 'fail', 'error']);
export type TaskStatus = z.infer<typeof taskStatus>;

/** An attempt's outcome as the results log keeps it: a task with nothing to grade by runs `unjudged`. */
export const attemptStatus = z.enum(['pass', 'fail', 'error', 'unjudged']);

/**
 * A pass rate: the counts first, then the rate they give. pass_rate = passed / (passed + failed), null
 * when nothing was judged (artifacts written before issue 28 hold 0 there); errors are in neither.
 */
export const passRate = z.object({
  total_tasks: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  errors: z.number().int(),
  timeouts: z.number().int(),
  pass_rate: z.number().min(0).max(1).nullable(),
  pass_rate_ci95: interval.nullable(),
});

/**
 * Candidate against baseline on the tasks judged in both: `fixed` failed on the baseline and passes on
 * the candidate, `regressed` the other way (McNemar's discordant pairs; `fixes` and `regressions` name
 * them). The same names in evaluation.json, gate.json's holdout, a night's drift record and the reports.
 */
export const pairedCounts = z.object({
  tasks_compared: z.number().int(),
  excluded_errors: z.number().int(),
  both_pass: z.number().int(),
  both_fail: z.number().int(),
  fixed: z.number().int(),
  regressed: z.number().int(),
  p_value: z.number(),
  method: z.string(),
  fixes: z.array(z.string()),
  regressions: z.array(z.string()),
});
export type PairedCounts = z.infer<typeof pairedCounts>;

/** evaluation.json files written before the names were one kept `candidate_only` / `baseline_only`. */
function legacyPaired(v: unknown): unknown {
  if (typeof v !== 'object' || v === null || 'fixed' in v) return v;
  const { candidate_only, baseline_only, ...rest } = v as Record<string, unknown>;
  return { ...rest, fixed: candidate_only, regressed: baseline_only };
}

/** pairedCounts as artifacts are read: either generation of names, always given back in today's. */
export const pairedComparison = z.preprocess(legacyPaired, pairedCounts);
