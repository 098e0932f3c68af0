// Turns per-task tallies into the numbers an evaluation reports: pass rates over judged tasks with
// Wilson 95% intervals, errors and timeouts counted apart, pass@1 / pass@k / pass^k with the unbiased
// estimator, per-category and per-split rates, latency, usage, and the paired comparison of two
// variants on the same tasks (exact McNemar on discordant pairs). Pure functions only.
import { passAtK, passHatK, wilson } from '../stats/index.js';
import { taskStatus, type TaskTally } from './aggregate.js';
import type { VariantOutcome } from './run-variant.js';
import type { ConcurrencyUsed } from './metered.js';
import type { IntentMetrics } from '../intents/metrics.js';
import { intentMetricsOf } from '../intents/intent-metrics.js';
import { round4 } from '../core/numbers.js';

export interface RateSummary {
  total_tasks: number;
  passed: number;
  failed: number;
  /** Tasks none of whose attempts could be judged (engine or judge failure); not in the rate. */
  errors: number;
  timeouts: number;
  /** passed / (passed + failed): errors are kept out of both sides; null when nothing was judged (not measured). */
  pass_rate: number | null;
  pass_rate_ci95: { low: number; high: number } | null;
}

export interface VariantSummary extends RateSummary {
  pass_k: number;
  pass_at_1: number;
  pass_at_k: number;
  pass_hat_k: number;
  attempts: { total: number; judged: number; errors: number };
  per_category: Record<string, RateSummary>;
  per_split: Record<string, RateSummary>;
  latency_ms: { mean: number; p50: number; p95: number; max: number };
  usage: { input_tokens: number; output_tokens: number; cost_usd: number | null };
  engine_calls: number;
  judge_calls: number;
  resumed_attempts: number;
  /** Wall time of the task phase in this process (0 for a cached or fully resumed result). */
  wall_ms: number;
  /** CPU time of the task phase in this process (absent for a cached or merged result). */
  cpu_ms?: number;
  /** The concurrency asked for, reached, and what capped it (absent for a cached or merged result). */
  concurrency?: ConcurrencyUsed;
  /** should_trigger suites: how often the agent invoked the skill when it should, and when it should not. */
  /** Suites with `intents:`: the intent metrics (src/intents/metrics.ts) over the tool_call attempts. */
  intent_metrics?: IntentMetrics;
  trigger?: TriggerSummary;
  /** The same over the held-out tasks alone (the gate's trigger checks). */
  holdout_trigger?: TriggerSummary;
  /** Tasks run but not graded (skill-creator evals with nothing to judge by): in no rate, never a failure. */
  unjudged?: { tasks: number; attempts: number; task_ids: string[] };
  /** Why the remaining attempts were not run (spend-guard.ts) and how many were left for a resume. */
  stopped_early?: { reason: string; attempts_not_run: number };
}


type Interval = { low: number; high: number };

/**
 * Attempt-level: every run of every query counts (triggering is noisy, so queries are run pass_k times).
 * Recall is the trigger rate; precision is triggered / (triggered + false triggers); each with its
 * Wilson 95% interval (null when nothing was counted on its side).
 */
export interface TriggerSummary {
  trigger_rate: number | null;
  triggered: number;
  should: number;
  false_trigger_rate: number | null;
  false_triggered: number;
  should_not: number;
  trigger_rate_ci95?: Interval | null;
  false_trigger_rate_ci95?: Interval | null;
  recall?: number | null;
  precision?: number | null;
  precision_ci95?: Interval | null;
  /** Held-out summaries: each query's runs, so a bar can be held to a bound clustered by query. */
  queries?: QueryTriggers[];
}

export interface QueryTriggers {
  task_id: string;
  should: boolean;
  triggered: number;
  judged: number;
}

function ci95(k: number, n: number): Interval | null {
  if (n === 0) return null;
  const w = wilson(k, n);
  return { low: round4(w.low), high: round4(w.high) };
}

export function rateOf(tallies: TaskTally[]): RateSummary {
  let passed = 0;
  let failed = 0;
  let errors = 0;
  let timeouts = 0;
  for (const t of tallies) {
    const s = taskStatus(t);
    if (s === 'pass') passed++;
    else if (s === 'fail') failed++;
    else {
      errors++;
      if (t.timeouts > 0 && t.timeouts === t.errors) timeouts++;
    }
  }
  const judged = passed + failed;
  const ci = wilson(passed, judged);
  return {
    total_tasks: tallies.length,
    passed,
    failed,
    errors,
    timeouts,
    pass_rate: judged === 0 ? null : round4(passed / judged),
    pass_rate_ci95: judged === 0 ? null : { low: round4(ci.low), high: round4(ci.high) },
  };
}

function groupBy(tallies: TaskTally[], key: (t: TaskTally) => string | undefined): Record<string, RateSummary> {
  const groups = new Map<string, TaskTally[]>();
  for (const t of tallies) {
    const k = key(t);
    if (k === undefined) continue;
    let g = groups.get(k);
    if (!g) groups.set(k, (g = []));
    g.push(t);
  }
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([k, g]) => [k, rateOf(g)]));
}

export function summarizeVariant(o: VariantOutcome, passK: number): VariantSummary {
  let at1 = 0;
  let atK = 0;
  let hatK = 0;
  let counted = 0;
  let attempts = 0;
  let judgedAttempts = 0;
  let errorAttempts = 0;
  for (const t of o.tallies) {
    attempts += t.judged + t.errors;
    judgedAttempts += t.judged;
    errorAttempts += t.errors;
    if (t.judged === 0) continue;
    const k = Math.min(passK, t.judged);
    at1 += passAtK(t.judged, t.passes, 1);
    atK += passAtK(t.judged, t.passes, k);
    hatK += passHatK(t.judged, t.passes, k);
    counted++;
  }
  const sorted = [...o.durationsMs].sort((a, b) => a - b);
  const pct = (p: number) => (sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!);
  const mean = sorted.length === 0 ? 0 : sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return {
    ...rateOf(o.tallies),
    pass_k: passK,
    pass_at_1: counted ? round4(at1 / counted) : 0,
    pass_at_k: counted ? round4(atK / counted) : 0,
    pass_hat_k: counted ? round4(hatK / counted) : 0,
    attempts: { total: attempts, judged: judgedAttempts, errors: errorAttempts },
    per_category: groupBy(o.tallies, (t) => t.category),
    per_split: groupBy(o.tallies, (t) => t.split),
    latency_ms: { mean: Math.round(mean), p50: pct(0.5), p95: pct(0.95), max: sorted[sorted.length - 1] ?? 0 },
    usage: {
      input_tokens: o.usage.input_tokens,
      output_tokens: o.usage.output_tokens,
      cost_usd: o.usage.cost_reported ? Math.round(o.usage.cost_usd * 1e6) / 1e6 : null,
    },
    engine_calls: o.engineCalls,
    judge_calls: o.judgeCalls,
    resumed_attempts: o.resumedAttempts,
    wall_ms: o.wallMs,
    ...(o.cpuMs !== undefined ? { cpu_ms: o.cpuMs } : {}),
    ...(o.concurrency ? { concurrency: o.concurrency } : {}),
    ...triggerSummary(o.tallies),
    ...holdoutTrigger(o.tallies),
    ...intentSummary(o.tallies),
    ...stoppedEarly(o),
    ...(o.unjudged?.length ? { unjudged: { tasks: o.unjudged.length, attempts: o.unjudged.reduce((n, t) => n + (t.ran ?? 0), 0), task_ids: o.unjudged.map((t) => t.task_id) } } : {}),
  };
}

/** A stop that left attempts unrun; one that came after every call was made changes nothing and says nothing. */
function stoppedEarly(o: VariantOutcome): Pick<VariantSummary, 'stopped_early'> {
  if (!o.stoppedEarly) return {};
  const notRun = o.tallies.reduce((n, t) => n + Math.max(0, t.k - t.judged - t.errors), 0);
  return notRun > 0 ? { stopped_early: { reason: o.stoppedEarly, attempts_not_run: notRun } } : {};
}

function intentSummary(tallies: TaskTally[]): { intent_metrics?: IntentMetrics } {
  const m = intentMetricsOf(tallies);
  return m ? { intent_metrics: m } : {};
}

/** The trigger metrics of the held-out tasks: a loop's gate decides a trigger suite on these. */
function holdoutTrigger(tallies: TaskTally[]): { holdout_trigger?: TriggerSummary } {
  const t = heldOutTriggerOf(tallies);
  return t ? { holdout_trigger: t } : {};
}

/** The trigger metrics over the held-out tasks' attempts in `tallies` (a task may stand once per measurement). */
export function heldOutTriggerOf(tallies: readonly TaskTally[]): TriggerSummary | undefined {
  if (!tallies.some((t) => t.split === 'holdout' && t.shouldTrigger !== undefined)) return undefined;
  const held = tallies.filter((x) => x.split === 'holdout');
  const t = triggerSummary(held).trigger;
  return t && { ...t, queries: queryTriggers(held) };
}

/** Each query's runs summed over the measurements it stands in (the first and every round). */
export function queryTriggers(tallies: readonly TaskTally[]): QueryTriggers[] {
  const byId = new Map<string, QueryTriggers>();
  for (const t of tallies) {
    if (t.shouldTrigger === undefined) continue;
    const q = byId.get(t.task_id) ?? { task_id: t.task_id, should: t.shouldTrigger, triggered: 0, judged: 0 };
    q.triggered += t.triggered ?? 0;
    q.judged += t.judged;
    byId.set(t.task_id, q);
  }
  return [...byId.values()];
}

/** Attempt-level trigger rates: triggered / judged attempts of should_trigger true (and false) tasks. */
function triggerSummary(tallies: readonly TaskTally[]): { trigger?: VariantSummary['trigger'] } {
  let should = 0;
  let triggered = 0;
  let shouldNot = 0;
  let falseTriggered = 0;
  for (const t of tallies) {
    if (t.shouldTrigger === undefined) continue;
    if (t.shouldTrigger) {
      should += t.judged;
      triggered += t.triggered ?? 0;
    } else {
      shouldNot += t.judged;
      falseTriggered += t.triggered ?? 0;
    }
  }
  if (should + shouldNot === 0) return {};
  return {
    trigger: {
      trigger_rate: should ? round4(triggered / should) : null,
      triggered,
      should,
      false_trigger_rate: shouldNot ? round4(falseTriggered / shouldNot) : null,
      false_triggered: falseTriggered,
      should_not: shouldNot,
      trigger_rate_ci95: ci95(triggered, should),
      false_trigger_rate_ci95: ci95(falseTriggered, shouldNot),
      recall: should ? round4(triggered / should) : null,
      precision: triggered + falseTriggered ? round4(triggered / (triggered + falseTriggered)) : null,
      precision_ci95: ci95(triggered, triggered + falseTriggered),
    },
  };
}

// The maximum error share (evaluate.max_error_share, registered in run.json): errored tasks are kept
// apart from failures, but a verdict resting on a fraction of the suite is no verdict. Used by the
// evaluate stage's verdicts, the gate's re-check and the nightly's engine-failure check.
type Counts = { passed: number; failed: number; errors: number };

/**
 * Why a measurement rests on too little of its suite to carry a verdict: more tasks errored (engine or
 * judge) than `maxShare` allows. Errors stay out of the pass rate, but a rate over 70% of the suite is not
 * the suite's rate. Undefined when the share is within the limit.
 */
export function tooManyErrors(s: Counts, maxShare: number): string | undefined {
  const total = s.passed + s.failed + s.errors;
  if (total === 0 || s.errors / total <= maxShare) return undefined;
  const judged = s.passed + s.failed;
  const pct = (x: number) => `${Number((x * 100).toFixed(1))}%`;
  return `judged ${judged} of ${total} tasks (${pct(judged / total)}); ${s.errors} errored task(s) (engine or judge) exceed the maximum error share ${pct(maxShare)} (evaluate.max_error_share)`;
}

/** The error share recorded beside the verdict. */
export const errorShareOf = (s: Counts) => {
  const total = s.passed + s.failed + s.errors;
  return total === 0 ? 0 : Math.round((s.errors / total) * 10_000) / 10_000;
};
