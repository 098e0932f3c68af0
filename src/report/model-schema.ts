// The report model: everything a report of one run says, built from the run's artifacts (model.ts) and
// rendered as markdown, JSON, JUnit XML or HTML. `whet report --format json` prints it as it is, so its keys
// are a contract: add fields, never rename them. Judge metrics (how well a judge agrees with people) and
// system metrics (how well the skill does) are separate objects because docs/guides/reports.md keeps them on
// separate dashboards: a judge can agree perfectly with people about a system that is failing.
import { z } from 'zod';
import { interval, pairedCounts } from '../state/measures.js';
import { calibration, check, modelGraded, rate, suiteShape, taskRow, variant, variantRole } from './model-parts.js';
import { triggerRow } from './model-trigger.js';
import { callCount } from '../state/call-count.js';

// 2: a pass rate, its interval and the paired comparison carry the artifacts' names (src/state/measures.ts).
export const REPORT_SCHEMA = 'whetstone.report/2';

const ci = interval;

export * from './model-parts.js';

export const reportModel = z.object({
  schema: z.literal(REPORT_SCHEMA),
  run: z.object({
    run_id: z.string(),
    mode: z.string(),
    status: z.string().nullable(),
    created_at: z.string().nullable(),
    updated_at: z.string().nullable(),
    target: z.string().nullable(),
    engine: z.object({ type: z.string(), mock: z.boolean() }).nullable(),
    /** The iteration this report is about (loop runs), and every iteration the run has. */
    iteration: z.number().int().nullable(),
    iterations: z.array(z.number().int()),
    /** What the whole run spent: calls split by kind (null: not split in an older run), tokens and cost. */
    spent: z.object({ calls: callCount.nullable(), total_calls: z.number().int(), input_tokens: z.number(), output_tokens: z.number(), cost_usd: z.number() }).nullable(),
  }),
  suite: suiteShape,
  judges: z.object({
    calibrated: z.boolean(),
    calibrations: z.array(calibration),
    /** evaluation: the calibrations the evaluation recorded and used; state: the state directory's current ones, read at report time. */
    source: z.enum(['evaluation', 'state']),
    source_note: z.string(),
    /** Each model-graded judge of the evaluation: calibrated or not, and its judge-corrected pass rate beside the raw one. */
    model_graded: z.array(modelGraded),
  }),
  thresholds: z.object({
    /** true when the run registered them (with their hash) before any result existed. */
    registered: z.boolean(),
    sha256: z.string().nullable(),
    values: z.record(z.string(), z.unknown()),
    source: z.string(),
  }),
  gate: z
    .object({
      iteration: z.number().int(),
      decision: z.string(),
      candidate_id: z.string().nullable(),
      reason: z.string(),
      checks: z.array(check),
      holdout: z.object({ tasks: z.number().int(), candidate_pass_rate: z.number().nullable(), baseline_pass_rate: z.number().nullable(), delta: z.number().nullable(), p_value: z.number().nullable() }).nullable(),
      /** The run-level claim (gate.json `run_level`, issue 38): each candidate at significance ÷ max_iterations. */
      run_level: z.object({ significance: z.number(), max_iterations: z.number().int(), per_candidate: z.number(), enforced: z.boolean() }).nullable().optional(),
      /** On a noisy engine: the rounds of attempts the decision took (gate.json `sequential`). */
      sequential: z
        .object({
          rounds: z.number().int(),
          attempts: z.number().int(),
          max_attempts: z.number().int(),
          calls: z.number().int(),
          calls_saved: z.number().int(),
          power: z.number().nullable(),
          min_effect: z.number(),
          effect: z.number().nullable(),
          low: z.number().nullable(),
          high: z.number().nullable(),
          words: z.string(),
        })
        .nullable()
        .optional(),
    })
    .nullable(),
  /** What the suite could find on its engine (issue 27 §4), from the run's own baseline measurements. */
  plan: z
    .object({
      held_out: z.number().int(),
      significance: z.number(),
      min_effect: z.number(),
      max_attempts: z.number().int(),
      deterministic: z.boolean(),
      power: z.number().nullable(),
      expected_attempts_none: z.number().nullable(),
      expected_attempts_min_effect: z.number().nullable(),
      attempts_for_80: z.number().int().nullable(),
      tasks_for_80: z.number().int().nullable(),
      can_find: z.boolean().nullable(),
    })
    .nullable()
    .optional(),
  verdict: z.object({ verdict: z.string(), reason: z.string(), checks: z.array(check) }).nullable(),
  system: z.object({
    primary: variant.nullable(),
    reference: variant.nullable(),
    per_category: z.array(z.object({ category: z.string(), primary: rate.nullable(), reference: rate.nullable(), delta: z.number().nullable() })),
    /** train and held out side by side: the generator sees train failures only, the gate decides on held out. */
    per_split: z.array(z.object({ split: z.string(), primary: rate.nullable(), reference: rate.nullable(), delta: z.number().nullable() })),
    paired: pairedCounts.nullable(),
    errors: z.array(z.object({ task_id: z.string(), role: variantRole, reason: z.string() })),
    top_failure_category: z.object({ category: z.string(), failed: z.number().int(), judged: z.number().int(), role: variantRole }).nullable(),
  }),
  tasks: z.array(taskRow),
  /** Trigger suites: trigger rate, false-trigger rate, precision and recall with intervals, per run and iteration. */
  trigger: z.array(triggerRow).optional(),
  /** `whet evaluate --standalone --without-skill`: the suite with the skill against with no skill at all. */
  skill_effect: z
    .object({
      with_skill: rate,
      without_skill: rate,
      effect: z.number().nullable(),
      low: z.number().nullable(),
      high: z.number().nullable(),
      tasks: z.number().int(),
      method: z.string(),
      paired: pairedCounts,
    })
    .optional(),
  candidate: z
    .object({ id: z.string(), title: z.string(), category: z.string(), risk: z.string(), rationale: z.string(), diff: z.string(), added: z.number().int(), removed: z.number().int() })
    .nullable(),
  loop: z.array(
    z.object({
      iteration: z.number().int(),
      baseline: rate.nullable(),
      candidate_id: z.string().nullable(),
      candidate: rate.nullable(),
      decision: z.string().nullable(),
      stop: z.string().nullable(),
    }),
  ),
  proposed_cases: z.object({
    total: z.number().int(),
    by_iteration: z.array(
      z.object({
        iteration: z.number().int(),
        file: z.string().nullable(),
        count: z.number().int(),
        cases: z.array(z.object({ id: z.string(), source_task: z.string().nullable(), category: z.string().nullable(), description: z.string().nullable() })),
      }),
    ),
  }),
  /**
   * A nightly run's comparison with the previous night of its target, from the drift record `whet nightly`
   * wrote (null when no night names this run). Counts are over the tasks judged on both nights.
   */
  nightly: z
    .object({
      date: z.string(),
      /** The day file, relative to nightly/. */
      file: z.string(),
      target_key: z.string().nullable(),
      label: z.string(),
      compared_with: z.string().nullable(),
      tasks_compared: z.number().int(),
      both_pass: z.number().int(),
      both_fail: z.number().int(),
      fixed: z.number().int(),
      regressed: z.number().int(),
      fixes: z.array(z.string()),
      regressions: z.array(z.string()),
      p_value: z.number().nullable(),
      method: z.string(),
      pass_rate_change: z.number().nullable(),
      per_category: z.array(z.object({ category: z.string(), tasks: z.number().int(), before: z.number().nullable(), after: z.number().nullable(), change: z.number().nullable() })),
      critical_failures: z.array(z.string()),
      engine_failed: z.boolean(),
      changed: z.object({ skill: z.boolean(), suite: z.boolean(), engine: z.boolean(), judge_engine: z.boolean(), settings: z.array(z.string()) }).nullable(),
      cause: z.string(),
      alert: z.boolean(),
      reasons: z.array(z.string()),
      /**
       * On a noisy engine, the test the alert was decided by (docs/method.md: Drift on a noisy engine): its
       * decision, the attempts per task it took tonight, and the effect (tonight minus the previous night).
       */
      noisy_test: z
        .object({
          test: z.string(),
          decision: z.enum(['drift', 'no drift']),
          attempts: z.number().int(),
          previous_attempts: z.number().int(),
          rounds: z.number().int(),
          tasks: z.number().int(),
          effect: z.number().nullable(),
          low: z.number().nullable(),
          high: z.number().nullable(),
          p_value: z.number(),
          summary: z.string(),
        })
        .nullable()
        .optional(),
    })
    .nullable(),
  trend: z.object({
    source: z.enum(['nightly', 'iterations', 'run', 'none']),
    points: z.array(z.object({ label: z.string(), passed: z.number().int(), judged: z.number().int(), pass_rate: z.number().nullable(), pass_rate_ci95: ci.nullable(), alert: z.boolean(), note: z.string().nullable() })),
  }),
  notes: z.array(z.string()),
  /** A damaged run reported with --allow-damaged (issue 31): the files left out and why; absent otherwise. */
  damaged: z.array(z.object({ file: z.string(), kind: z.string(), at: z.string().optional(), message: z.string(), hint: z.string() })).optional(),
});
export type ReportModel = z.infer<typeof reportModel>;
