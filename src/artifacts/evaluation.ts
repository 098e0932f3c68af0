// Schemas of what the evaluate stage reads (a ranking) and writes (evaluation.json). The evaluation keeps
// seed 001's field names (evaluation.execution_pass_rate, baseline_pass_rate, delta,
// candidate_results[].task_id/passed/score, next_step "gate_decision") and adds what honesty needs.
import { z } from 'zod';
import { interval, pairedComparison, passRate, taskStatus } from '../state/measures.js';
import { envelope } from './envelope.js';
import { calibrationRecordSchema } from '../judges/calibration-store.js';
import { safeId, safeIteration } from '../config/safe-id-schema.js';
import { intentMetricsSchema } from '../intents/intent-metrics.js';
import { sequentialSchema } from './sequential-record.js';

export { designSettingsSchema, effectSchema, lookSchema, sequentialSchema, type SequentialRecord } from './sequential-record.js';

/** A ranking as the discriminator writes it — ours or the seed's (`scored_candidates`). */
export const rankingInput = z.looseObject({
  run_id: safeId,
  iteration: safeIteration.optional(),
  target: z.looseObject({ path: z.string().min(1) }),
  scored_candidates: z.array(
    z.looseObject({
      id: safeId,
      score: z.number().optional(),
      /** The candidate's materialised skill folder (relative to the ranking file). */
      variant_path: z.string().min(1).optional(),
      skill_content: z.string().optional(),
      content: z.string().optional(),
      body: z.string().optional(),
      category: z.string().optional(),
    }),
  ),
});
export type RankingInput = z.infer<typeof rankingInput>;

const ci = interval;
/** A pass rate with its interval (src/state/measures.ts: one schema for every artifact and report). */
export const rateSummary = passRate;
/** should_trigger suites: the four trigger metrics over every judged attempt (src/evaluation/summary.ts). */
export const triggerSummarySchema = z.object({
  trigger_rate: z.number().nullable(),
  triggered: z.number().int(),
  should: z.number().int(),
  false_trigger_rate: z.number().nullable(),
  false_triggered: z.number().int(),
  should_not: z.number().int(),
  trigger_rate_ci95: ci.nullable().optional(),
  false_trigger_rate_ci95: ci.nullable().optional(),
  recall: z.number().nullable().optional(),
  precision: z.number().nullable().optional(),
  precision_ci95: ci.nullable().optional(),
  /** Held-out summaries: each query's runs (what the false-trigger bar's bound, clustered by query, is computed from). */
  queries: z.array(z.object({ task_id: z.string(), should: z.boolean(), triggered: z.number().int().min(0), judged: z.number().int().min(0) })).optional(),
});

export const variantSummary = rateSummary.extend({
  pass_k: z.number().int(),
  pass_at_1: z.number(),
  pass_at_k: z.number(),
  pass_hat_k: z.number(),
  attempts: z.object({ total: z.number().int(), judged: z.number().int(), errors: z.number().int() }),
  per_category: z.record(z.string(), rateSummary),
  per_split: z.record(z.string(), rateSummary),
  latency_ms: z.object({ mean: z.number(), p50: z.number(), p95: z.number(), max: z.number() }),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), cost_usd: z.number().nullable() }),
  engine_calls: z.number().int(),
  judge_calls: z.number().int(),
  resumed_attempts: z.number().int(),
  wall_ms: z.number(),
  cpu_ms: z.number().optional(),
  concurrency: z
    .object({ requested: z.number().int(), effective: z.number().int(), capped_by: z.string().nullable(), adaptive_lowest: z.number().int().nullable() })
    .optional(),
  /** Suites with `intents:`: selection, parameters, clarification, hallucination, overreach (n/d each). */
  intent_metrics: intentMetricsSchema.optional(),
  trigger: triggerSummarySchema.optional(),
  /** The same over the held-out tasks alone: what the gate holds to evaluate.min_trigger_rate / max_false_trigger_rate. */
  holdout_trigger: triggerSummarySchema.optional(),
  unjudged: z.object({ tasks: z.number().int(), attempts: z.number().int(), task_ids: z.array(z.string()) }).optional(),
  /** Why the rest was not run: more calls could not change the verdict (src/evaluation/spend-guard.ts). */
  stopped_early: z.object({ reason: z.string(), attempts_not_run: z.number().int() }).optional(),
});

export const taskResult = z.object({
  task_id: z.string(),
  passed: z.boolean(),
  score: z.number(),
  status: taskStatus,
  category: z.string(),
  split: z.enum(['train', 'holdout']).optional(),
  negative: z.boolean().optional(),
  critical: z.boolean().optional(),
  attempts: z.number().int(),
  passes: z.number().int(),
  errors: z.number().int(),
  /** Attempts judged (pass or fail); absent from artifacts written before it was recorded. */
  judged: z.number().int().optional(),
  reason: z.string(),
});

export const cacheInfo = z.object({
  used: z.boolean(),
  hit: z.boolean(),
  key: z.string(),
  dir: z.string(),
  why: z.string().optional(),
  created_at: z.string().optional(),
  age_ms: z.number().optional(),
  ttl_ms: z.number(),
  stored: z.boolean().optional(),
});

const engineInfo = z.object({ type: z.string(), identity: z.record(z.string(), z.unknown()), mock: z.boolean() });

const calibrationSnapshot = calibrationRecordSchema
  .pick({ created_at: true, positive: true, n: true, counts: true, tpr: true, tnr: true, accuracy: true, precision: true, bias: true, small_sample: true })
  .extend({ answer_key: z.object({ items: z.number().int() }), engine: z.object({ type: z.string(), mock: z.boolean() }) });

const common = envelope.extend({
  schema: z.literal('whetstone.evaluation/1'),
  stage: z.literal('evaluated'),
  verdict: z.enum(['pass', 'fail', 'skipped', 'error', 'interrupted']),
  mode: z.enum(['pipeline', 'standalone']),
  reason: z.string().optional(),
  task_suite: z.string(),
  /** A large suite's checked copy (src/config/suite-copy.ts): read instead of the file, or why not. */
  suite_copy: z.object({ hit: z.boolean(), file: z.string(), why: z.string().optional() }).optional(),
  skill_id: z.string(),
  pass_k: z.number().int(),
  engine: engineInfo.optional(),
  judge_engine: engineInfo.nullable().optional(),
  /** Model-graded judges: calibrated or not, and the judge-corrected pass rate beside the raw one. */
  judge_calibration: z
    .array(
      z.object({
        judge: z.string(),
        spec_hash: z.string().nullable(),
        tasks: z.array(z.string()),
        calibrated: z.boolean(),
        thresholds_met: z.boolean().nullable(),
        detail: z.string(),
        pass_sensitivity: z.number().optional(),
        fail_specificity: z.number().optional(),
        observed_pass_rate: z.number().optional(),
        observed_passed: z.number().int().optional(),
        observed_judged: z.number().int().optional(),
        corrected_pass_rate: z.number().nullable().optional(),
        /** The calibration used, as it was then (the store keeps only the latest). */
        record: calibrationSnapshot.optional(),
      }),
    )
    .optional(),
});

export const pipelineEvaluation = common.extend({
  mode: z.literal('pipeline'),
  candidate_id: safeId,
  candidate_score: z.number().nullable(),
  eval_threshold: z.number(),
  /** Where eval_threshold came from: evaluate.eval_thresholds.<category>, evaluate.eval_threshold or the flag. */
  eval_threshold_from: z.string().optional(),
  /** How the candidate's text was made: its folder, whole text in the ranking, or a seed plan applied to the target. */
  candidate_source: z
    .object({
      kind: z.enum(['variant', 'inline', 'seed_plan']),
      variant_path: z.string().optional(),
      /** The edit actions a seed plan became, in order (src/skill/seed-plan.ts). */
      actions: z.array(z.string()).optional(),
    })
    .optional(),
  evaluation: z.object({
    // null when not measured (a skipped candidate, a candidate not run after a broken baseline): a 0
    // there would read as a measured 0% pass rate to a gate, a report or a person.
    execution_pass_rate: z.number().nullable(),
    baseline_pass_rate: z.number().nullable(),
    delta: z.number().nullable(),
    verdict: z.string(),
    reason: z.string().optional(),
    candidate: variantSummary.optional(),
    baseline: variantSummary.optional(),
    paired: pairedComparison.optional(),
    per_category: z.record(z.string(), z.object({ candidate: rateSummary, baseline: rateSummary, delta: z.number().nullable() })).optional(),
    baseline_cache: cacheInfo.optional(),
    candidate_cache: cacheInfo.optional(),
    /** Share of tasks that errored, and the registered limit above which the verdict is `error`. */
    max_error_share: z.number().optional(),
    candidate_error_share: z.number().optional(),
    baseline_error_share: z.number().optional(),
    /** Whether the engines were taken to answer the same way every time, and why (evaluate.deterministic). */
    engine_noise: z.object({ deterministic: z.boolean(), why: z.string() }).optional(),
    /** Present on a noisy engine: the rounds and the sequential test the gate decides by. */
    sequential: sequentialSchema.optional(),
    /**
     * On a noisy engine, whether the train tasks were measured: they decide nothing, so they wait for the
     * held-out test to keep the candidate (evaluate.measure_train); absent when they were measured first.
     */
    train: z.object({ measured: z.boolean(), why: z.string() }).optional(),
  }),
  candidate_results: z.array(taskResult),
  baseline_results: z.array(taskResult),
});
export type PipelineEvaluation = z.infer<typeof pipelineEvaluation>;

/**
 * `whet evaluate --standalone --without-skill`: the same suite measured with no skill at all (the variant
 * `no-skill`, skill-creator's `without_skill`), and the skill's own effect against it, paired by task.
 */
export const skillEffect = z.object({
  variant: z.string(),
  /** The suite's pass rate with no skill. */
  summary: passRate,
  /** The skill (as the candidate) against no skill (as the baseline), task by task. */
  paired: pairedComparison,
  /** Mean over tasks of (share of attempts passed with the skill − without), with a t interval over tasks. */
  effect: z.object({ effect: z.number().nullable(), low: z.number().nullable(), high: z.number().nullable(), tasks: z.number().int(), confidence: z.number(), method: z.string() }),
  /** The engine and judge calls the no-skill measurement made (the summary's usage line counts the skill's). */
  engine_calls: z.number().int(),
  cache: cacheInfo,
});
export type SkillEffect = z.infer<typeof skillEffect>;

export const standaloneEvaluation = common.extend({
  mode: z.literal('standalone'),
  skill_path: z.string(),
  without_skill: skillEffect.optional(),
  evaluation: variantSummary.extend({
    verdict: z.string(),
    min_pass_rate: z.number(),
    /** Trigger suites: the bars the verdict was decided by (absent from other suites and older artifacts). */
    min_trigger_rate: z.number().optional(),
    max_false_trigger_rate: z.number().optional(),
    /** Share of tasks that errored, and the registered limit above which the verdict is `error`. */
    error_share: z.number().optional(),
    max_error_share: z.number().optional(),
    cache: cacheInfo,
  }),
  task_results: z.array(taskResult),
});
export type StandaloneEvaluation = z.infer<typeof standaloneEvaluation>;

export const evaluationArtifact = z.discriminatedUnion('mode', [pipelineEvaluation, standaloneEvaluation]);
export type EvaluationArtifact = z.infer<typeof evaluationArtifact>;
