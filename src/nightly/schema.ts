// The shapes `whet nightly` writes: nightly/<date>.json (one record per target with its drift report) and
// the lines of nightly/history.jsonl. Both are validated before they are written and published by
// `whet schemas`, so a dashboard can read a state directory without whetstone. The *Read variants accept
// files written before targets had a key and before the judge engine and settings were recorded.
import { z } from 'zod';
import { interval, taskStatus } from '../state/measures.js';
import { designSettingsSchema, effectSchema, lookSchema } from '../artifacts/evaluation.js';

export const NIGHTLY_SCHEMA = 'whetstone.nightly/1';

export const nightTask = z.object({
  task_id: z.string(),
  status: taskStatus,
  category: z.string(),
  critical: z.boolean().optional(),
  /**
   * Attempts run tonight (rounds included), and of them judged and passed: what a noisy engine's drift
   * test compares. Absent from nights recorded before; such a night is compared by status, as then.
   */
  attempts: z.number().int().min(0).optional(),
  judged: z.number().int().min(0).optional(),
  passes: z.number().int().min(0).optional(),
  /**
   * Of tonight's first `reference_attempts` attempts (drift.sequential), judged and passed: what the next
   * night compares with. Attempts after them were run only because tonight's test was still undecided, so
   * their number depends on their results; counting them would bias the next night's comparison. Absent:
   * every attempt is the reference (a night that ran no drift rounds).
   */
  reference_judged: z.number().int().min(0).optional(),
  reference_passes: z.number().int().min(0).optional(),
});

/** Whether the engines answered the same way every time (src/measure/setup.ts engineNoise). */
export const nightNoise = z.object({ deterministic: z.boolean(), why: z.string() });

/** Evaluation settings that change results without changing the skill, the suite or the engine. */
export const evalSettings = z.object({ pass_k: z.number().int(), task_timeout_ms: z.number() });

export const nightRecord = z.object({
  /** The skill folder. */
  target: z.string(),
  /** skill + suite + engine override (config/targets.ts): what history lines are matched by. */
  target_key: z.string(),
  /** The skill folder, plus the suite and key when the same skill is measured more than one way. */
  label: z.string(),
  suite: z.string(),
  pass_rate: z.number().nullable(),
  skill_sha256: z.string(),
  suite_sha256: z.string(),
  engine_sha256: z.string(),
  judge_engine_sha256: z.string(),
  settings: evalSettings,
  /** Absent from nights recorded before it was: those were all compared by status. */
  noise: nightNoise.optional(),
  tasks: z.array(nightTask),
});

/**
 * A noisy engine's drift test (docs/method.md: Drift on a noisy engine): tonight's attempts against the
 * previous night's by the one-sided CMH score for a drop, in rounds of one more attempt per task tonight.
 */
export const nightSequential = z.object({
  method: z.string(),
  settings: designSettingsSchema,
  /** Each look of the test: the previous night is the side tested as better (a drop), tonight the other. */
  looks: z.array(lookSchema).min(1),
  decision: z.enum(['drift', 'no drift']),
  rounds: z.number().int().min(1),
  /** Attempts per task tonight when the test stopped, and the most any task had the previous night. */
  attempts: z.number().int().min(1),
  previous_attempts: z.number().int().min(0),
  /** Attempts tonight runs whatever its results (the first look is there): the next night's reference. */
  reference_attempts: z.number().int().min(1),
  /** Tasks judged on both nights: what the test is over. */
  tasks: z.number().int(),
  /** Tonight's share of passed attempts minus the previous night's, mean over tasks, with its interval. */
  effect: effectSchema,
  /** Stage-wise p-value of a drop. */
  p_value: z.number(),
  /** Tasks whose own attempts show a drop (Fisher exact, Holm over the tasks compared). */
  supported_drops: z.array(z.object({ task_id: z.string(), p: z.number() })),
  /** Calls tonight's later rounds made (the first measurement's are in the summary's engine_calls). */
  calls: z.object({ engine: z.number().int(), judge: z.number().int() }),
});

const rateOrNull = z.number().nullable();

/**
 * The accumulated decline (src/nightly/accumulate.ts): tonight against a fixed reference night, the
 * evidence of a drop summed over nights by a one-sided CUSUM. Absent from nights recorded before it was.
 */
export const accumulatedDecline = z.object({
  /** The reference night: its dated file and label. */
  reference: z.object({ file: z.string(), label: z.string() }),
  /** Why it is the reference: the first night, the first since a change, or set with --set-reference. */
  since: z.enum(['first night', 'changed', 'set', 'reference lost']),
  /** Nights compared with the reference, tonight included (0: tonight is the reference). */
  nights: z.number().int(),
  /** Tonight minus the reference in standard errors (null: nothing to compare), the change in pass rate. */
  z: z.number().nullable(),
  change: rateOrNull,
  tasks: z.number().int(),
  /** The CUSUM after tonight (0 again after an alert), its allowance, threshold and in-control run length. */
  statistic: z.number(),
  k: z.number(),
  h: z.number(),
  in_control_nights: z.number(),
  alert: z.boolean(),
});

export const driftReport = z.object({
  compared_with: z.string().nullable(),
  /** Tasks judged (not errored) on both nights: every comparison below is over these only. */
  tasks_compared: z.number().int(),
  fixes: z.array(z.string()),
  regressions: z.array(z.string()),
  p_value: z.number().nullable(),
  /** On the paired tasks; null when no task was judged on both nights. */
  pass_rate_change: rateOrNull,
  per_category: z.record(z.string(), z.object({ tasks: z.number().int(), before: rateOrNull, after: rateOrNull, change: rateOrNull })),
  critical_failures: z.array(z.string()),
  /** Tonight nothing was judged, or more tasks errored than evaluate.max_error_share allows: the engine
   * failed, which says nothing about the skill. */
  engine_failed: z.boolean(),
  changed: z
    .object({ skill: z.boolean(), suite: z.boolean(), engine: z.boolean(), judge_engine: z.boolean(), settings: z.array(z.string()) })
    .nullable(),
  cause: z.string(),
  /** Results differ from the previous night while every hash (skill, suite, engines, settings) is equal. */
  engine_behaviour_changed: z.boolean().optional(),
  alert: z.boolean(),
  reasons: z.array(z.string()),
  /** The test the alert was decided by: exact McNemar on status (absent: the same), or the noisy engine's. */
  test: z.string().optional(),
  sequential: nightSequential.optional(),
  accumulated: accumulatedDecline.optional(),
});

export const historySummary = z.object({
  target: z.string(),
  target_key: z.string(),
  suite: z.string(),
  run_id: z.string(),
  pass_rate: z.number().nullable(),
  passed: z.number(),
  failed: z.number(),
  errors: z.number(),
  /** The pass rate's interval, named as everywhere (measures.ts); lines written before hold it as `ci95`. */
  pass_rate_ci95: interval.nullable(),
  per_category: z.record(z.string(), z.object({ passed: z.number(), failed: z.number(), pass_rate: z.number().nullable() })),
  skill_sha256: z.string(),
  suite_sha256: z.string(),
  engine_sha256: z.string(),
  judge_engine_sha256: z.string(),
  settings: evalSettings,
  engine: z.record(z.string(), z.unknown()),
  engine_calls: z.number(),
});

export const historyLine = historySummary.extend({
  date: z.string(),
  /** The day file this line belongs to, relative to nightly/. */
  file: z.string(),
  drift: z.object({ alert: z.boolean(), reason: z.string() }),
});

export const nightTarget = nightRecord.extend({ run_id: z.string(), summary: historySummary, drift: driftReport });

export const nightlyDay = z.object({
  schema: z.literal(NIGHTLY_SCHEMA),
  /** The local date the night ran on. */
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  created_at: z.string(),
  alert: z.boolean(),
  /** Engine calls tonight over every target: each task of each target is measured, never cached. */
  engine_calls: z.number().int().optional(),
  targets: z.array(nightTarget),
});

const legacy = { target_key: z.string().optional(), suite: z.string().optional(), judge_engine_sha256: z.string().optional(), settings: evalSettings.optional() };
export const historyLineRead = historyLine.extend({ ...legacy, pass_rate_ci95: interval.nullable().optional(), ci95: interval.nullable().optional() });
export const nightRecordRead = nightRecord.extend({ ...legacy, label: z.string().optional() });
/** A day file as `whet verify` reads it back: summaries written before the interval was named pass_rate_ci95 hold `ci95`. */
export const nightlyDayRead = nightlyDay.extend({
  targets: z.array(nightTarget.extend({ summary: historySummary.extend({ pass_rate_ci95: interval.nullable().optional(), ci95: interval.nullable().optional() }) })),
});

export type NightTask = z.infer<typeof nightTask>;
export type EvalSettings = z.infer<typeof evalSettings>;
export type NightRecord = z.infer<typeof nightRecord>;
export type NightRecordRead = z.infer<typeof nightRecordRead>;
export type DriftReport = z.infer<typeof driftReport>;
export type NightSequential = z.infer<typeof nightSequential>;
export type NightNoise = z.infer<typeof nightNoise>;
export type HistoryLine = z.infer<typeof historyLine>;
export type HistoryLineRead = z.infer<typeof historyLineRead>;
export type NightTarget = z.infer<typeof nightTarget>;
export type NightlyDay = z.infer<typeof nightlyDay>;
export type AccumulatedDecline = z.infer<typeof accumulatedDecline>;
