// The parts of the report model (model-schema.ts) that several renderers read on their own: a pass rate,
// a variant, a task's row, a judge's calibration and the suite's shape. Their keys are the report's JSON
// contract like the rest of the model: add fields, never rename them.
import { z } from 'zod';
import { passRate, taskStatus } from '../state/measures.js';

/** The artifacts' pass rate (measures.ts) with the judged count the renderers show; rate and interval null when nothing was judged. */
export const rate = passRate.omit({ timeouts: true }).extend({ judged: z.number().int() });
export type Rate = z.infer<typeof rate>;

/** primary: what the report is about (the candidate, or the skill of a standalone run); reference: the baseline it is compared with. */
export const variantRole = z.enum(['candidate', 'baseline', 'skill']);
export type VariantRole = z.infer<typeof variantRole>;

export const variant = z.object({
  role: variantRole,
  id: z.string(),
  label: z.string(),
  summary: rate,
  cached: z.boolean().nullable(),
  wall_ms: z.number().nullable(),
});
export type Variant = z.infer<typeof variant>;

export const outcome = z.object({
  status: taskStatus,
  score: z.number().nullable(),
  reason: z.string(),
  duration_ms: z.number().nullable(),
  /** skill-creator evals: each expectation named, with its verdict and evidence (one attempt's). */
  expectations: z.array(z.object({ expectation: z.string(), passed: z.boolean(), evidence: z.string() })).optional(),
});
export type Outcome = z.infer<typeof outcome>;

export const taskRow = z.object({
  task_id: z.string(),
  category: z.string(),
  split: z.string().nullable(),
  negative: z.boolean(),
  /** From the suite file when it could be read. */
  prompt: z.string().nullable(),
  primary: outcome.nullable(),
  reference: outcome.nullable(),
  /** fixed: failed on the reference, passes on the primary; regressed: the other way. */
  change: z.enum(['fixed', 'regressed', 'same', 'error']).nullable(),
});
export type TaskRow = z.infer<typeof taskRow>;

const fraction = z.object({ count: z.number().int(), of: z.number().int() });

export const calibration = z.object({
  judge: z.string(),
  spec_hash: z.string().nullable(),
  /** The suite runs this exact judge spec (its sha256 matches the record's). */
  in_suite: z.boolean(),
  positive: z.string(),
  answer_key_items: z.number().int(),
  tp: z.number().int(),
  tn: z.number().int(),
  fp: z.number().int(),
  fn: z.number().int(),
  tpr: z.number().nullable(),
  tnr: z.number().nullable(),
  accuracy: z.number().nullable(),
  precision: z.number().nullable(),
  bias: z.object({ reading: z.string(), wrongly_failed: fraction, wrongly_passed: fraction }),
  small_sample: z.boolean(),
  created_at: z.string().nullable(),
  /** true: the offline mock engine judged the answer key — a demonstration, not agreement with people; null: not recorded. */
  engine_mock: z.boolean().nullable(),
});
export type CalibrationView = z.infer<typeof calibration>;

export const modelGraded = z.object({
  judge: z.string(),
  spec_hash: z.string().nullable(),
  tasks: z.number().int(),
  calibrated: z.boolean(),
  engine_mock: z.boolean().nullable(),
  thresholds_met: z.boolean().nullable(),
  detail: z.string(),
  /** Over the tasks this judge alone decides; null when none was judged or the judge is uncalibrated. */
  observed_pass_rate: z.number().nullable(),
  observed: fraction.nullable(),
  corrected_pass_rate: z.number().nullable(),
});
export type ModelGraded = z.infer<typeof modelGraded>;

export const suiteShape = z.object({
  /** suite: read from the suite file; results: the file could not be read, so only what the results show. */
  source: z.enum(['suite', 'results', 'none']),
  path: z.string().nullable(),
  sha256: z.string().nullable(),
  problem: z.string().nullable(),
  tasks: z.number().int(),
  categories: z.array(z.object({ name: z.string(), tasks: z.number().int() })),
  negative_controls: z.number().int(),
  splits: z.object({ train: z.number().int(), holdout: z.number().int(), unassigned: z.number().int() }),
  grid: z
    .object({
      dimensions: z.array(z.object({ name: z.string(), values: z.array(z.string()) })),
      cells_total: z.number().int(),
      cells_filled: z.number().int(),
      empty_cells: z.array(z.string()),
      tasks_without_cell: z.number().int(),
    })
    .nullable(),
  judge_types: z.array(z.object({ type: z.string(), tasks: z.number().int() })),
});
export type SuiteShape = z.infer<typeof suiteShape>;

export const check = z.object({ id: z.string(), passed: z.boolean(), detail: z.string() });
