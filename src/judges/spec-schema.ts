// A judge spec file: a judge prompt written like code (docs/method.md: Writing a judge like code). Each part of the method is a
// field, so a missing part is a load error rather than a judge that wobbles later: exact label
// definitions, edge cases ruled before the run, few-shot examples with their reasoning (at least one of
// each label, because the reasoning against the error's direction is what transfers), a low temperature
// so judgements repeat, and thresholds for its calibration set before anyone looks at the results.
import { z } from 'zod';
import { engineConfig } from '../config/engine-schema.js';

/** docs/method.md "Writing a judge like code": above this a judge's verdicts do not repeat well enough to be measured. */
export const MAX_JUDGE_TEMPERATURE = 0.2;

const text = z
  .string({ error: (iss) => (iss.input === undefined ? 'required' : 'must be text') })
  .trim()
  .min(1, 'must not be empty');
const upper = (v: unknown): unknown => (typeof v === 'string' ? v.trim().toUpperCase() : v);
export const labelValue = z.preprocess(upper, z.enum(['PASS', 'FAIL'], { message: 'must be PASS or FAIL' }));
export type Label = 'PASS' | 'FAIL';
const rate = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

export const calibrationThresholds = z.strictObject({
  /** Lowest acceptable TPR (recall of the positive class). */
  min_tpr: rate.optional(),
  /** Lowest acceptable TNR (specificity). */
  min_tnr: rate.optional(),
  /** Widest acceptable |TPR - TNR|: a wide gap is directional bias. */
  max_gap: rate.optional(),
});
export type CalibrationThresholds = z.infer<typeof calibrationThresholds>;

export const judgeSpecFileSchema = z
  .strictObject({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be a safe name: letters, digits, ".", "_" or "-"'),
    /** The judge's job description, shown before the definitions. */
    description: z.string().optional(),
    /** Which label is the positive class in calibration reports (docs/method.md: Say what "good" means, as yes-or-no labels). */
    positive: labelValue.default('FAIL'),
    labels: z.strictObject({ PASS: text, FAIL: text }),
    edge_cases: z.array(z.strictObject({ case: text, ruling: labelValue, why: text })).default([]),
    few_shots: z.array(z.strictObject({ output: text, label: labelValue, reasoning: text })).min(1, 'list at least one PASS and one FAIL example'),
    engine: engineConfig.optional(),
    temperature: z
      .number()
      .min(0, 'must be ≥ 0')
      .superRefine((t, ctx) => {
        if (t > MAX_JUDGE_TEMPERATURE) {
          ctx.addIssue({
            code: 'custom',
            message: `temperature ${t} > ${MAX_JUDGE_TEMPERATURE}: judges must repeat their judgements (docs/method.md: Writing a judge like code)`,
          });
        }
      })
      .default(0),
    calibration: calibrationThresholds.optional(),
  })
  .superRefine((spec, ctx) => {
    const have = new Set(spec.few_shots.map((f) => f.label));
    const missing = (['PASS', 'FAIL'] as const).filter((l) => !have.has(l));
    if (spec.few_shots.length > 0 && missing.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['few_shots'],
        message: `needs at least one PASS and one FAIL example with its reasoning (docs/method.md: Writing a judge like code); no ${missing.join(' or ')} example given`,
      });
    }
  });
export type JudgeSpecFileInput = z.input<typeof judgeSpecFileSchema>;
export type JudgeSpecFile = z.output<typeof judgeSpecFileSchema>;

/** A loaded spec: its content, where it came from, and the content hash calibrations are keyed by. */
export interface LoadedJudgeSpec {
  spec: JudgeSpecFile;
  /** Absolute path of the file. */
  path: string;
  /** Folder of the file (engine programs named by relative paths resolve here). */
  dir: string;
  /** `sha256:<hex>` of the file's exact bytes. */
  hash: string;
  /** `file:line:col` of a node in the file. */
  at(path: (string | number)[]): string;
  lineOf(path: (string | number)[]): number;
}
