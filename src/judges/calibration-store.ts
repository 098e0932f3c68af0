// A judge's latest calibration, kept in the state directory under the sha256 of the judge spec's bytes
// (`<state>/calibrations/<hex>.json`). Keying by content means editing a spec — a sharper definition, a
// new few-shot — leaves it uncalibrated until it is measured again, which is what lets the gate require
// calibrated judges: a record exists for exactly the spec that was measured. Written atomically and
// validated both ways, like every artifact.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { StateError } from '../core/errors.js';
import { writeJsonAtomically } from '../core/atomic.js';
import { specHashHex } from './spec.js';

export const CALIBRATION_SCHEMA = 'whetstone.calibration/1';

const label = z.enum(['PASS', 'FAIL']);
const frac = z.object({ count: z.number().int().min(0), of: z.number().int().min(0), rate: z.number().nullable() });

export const calibrationRecordSchema = z.object({
  schema: z.literal(CALIBRATION_SCHEMA),
  created_at: z.string(),
  judge: z.object({
    name: z.string(),
    spec: z.string(),
    spec_hash: z.string().regex(/^sha256:[0-9a-f]{64}$/),
    temperature: z.number(),
    engine: z.object({ type: z.string(), mock: z.boolean(), identity: z.record(z.string(), z.unknown()) }),
  }),
  answer_key: z.object({ file: z.string(), hash: z.string(), items: z.number().int().min(0) }),
  positive: label,
  n: z.number().int().min(0),
  counts: z.object({ tp: z.number().int(), tn: z.number().int(), fp: z.number().int(), fn: z.number().int() }),
  tpr: frac,
  tnr: frac,
  accuracy: frac,
  precision: frac,
  kappa: z.number().nullable(),
  gap: z.number().nullable(),
  bias: z.object({ reading: z.enum(['harsh', 'lenient', 'balanced', 'undetermined']), wrongly_failed: frac, wrongly_passed: frac }),
  thresholds: z.array(
    z.object({
      name: z.enum(['min_tpr', 'min_tnr', 'max_gap']),
      threshold: z.number(),
      from: z.string(),
      positive: label,
      value: z.number().nullable(),
      met: z.boolean(),
    }),
  ),
  /** null when the spec and flags set no thresholds: a gate that requires thresholds must refuse it. */
  thresholds_met: z.boolean().nullable(),
  /** Items the judge could not label; a calibration with errors is incomplete. */
  errors: z.number().int().min(0),
  /** Fewer than 30 human-labelled runs in a class (docs/method.md: Calibrating a judge). */
  small_sample: z.boolean(),
});
export type CalibrationRecord = z.infer<typeof calibrationRecordSchema>;

export function calibrationFile(stateDir: string, specHash: string): string {
  return join(stateDir, 'calibrations', `${specHashHex(specHash)}.json`);
}

export async function writeCalibration(stateDir: string, record: CalibrationRecord): Promise<string> {
  const checked = calibrationRecordSchema.parse(record);
  const file = calibrationFile(stateDir, checked.judge.spec_hash);
  await writeJsonAtomically(file, checked);
  return file;
}

/**
 * The latest calibration of the judge spec with this content hash (`sha256:<hex>` or bare hex), or
 * undefined when that exact spec was never calibrated. A record that exists but does not validate is a
 * StateError: a gate must not read a damaged record as "calibrated", nor as "never calibrated".
 */
export function readCalibration(stateDir: string, specHash: string): CalibrationRecord | undefined {
  const file = calibrationFile(stateDir, specHash);
  if (!existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new StateError(`calibration record ${file} is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = calibrationRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new StateError(`calibration record ${file} is invalid: ${i ? `${i.path.join('.') || '(record)'}: ${i.message}` : 'unknown problem'}`);
  }
  if (parsed.data.judge.spec_hash !== `sha256:${specHashHex(specHash)}`) {
    throw new StateError(`calibration record ${file} belongs to spec ${parsed.data.judge.spec_hash}, not the one it is filed under`);
  }
  return parsed.data;
}
