// On a noisy engine the keep rests on the held-out tasks alone (issue 38: attempts where the information
// is), so the candidate's first measurement covers those, and its train tasks are measured only once the
// held-out test has kept it: their results feed what the run does next with a kept skill (the next
// iteration's baseline, its train failures for generate), never the decision. A rejected candidate — most
// of them — costs its train tasks nothing. The baseline's train results are the ones this iteration's
// baseline stage measured (the cache, or its results file resumed): train results decide nothing, so the
// cache's age, which the held-out comparison must never lean on, does not matter there. Both variants are
// compared on the same tasks: the held-out ones until the candidate's train tasks are measured.
// `evaluate.measure_train: always` measures them on every candidate, as before.
import type { TaskTally, UsageTotals } from '../evaluation/aggregate.js';
import type { VariantOutcome } from '../evaluation/run-variant.js';
import type { LoadedSkill } from '../skill/read.js';
import type { Budget } from '../evaluation/budget.js';
import { measure, readCache } from './measure.js';
import { evaluationKey, type EvaluateContext, type Prepared } from './setup.js';

/** The suite narrowed to one split: the same content hash, so results files and keys stay the run's own. */
export function onlySplit(p: Prepared, split: 'train' | 'holdout'): Prepared {
  return { ...p, suite: { ...p.suite, tasks: p.suite.tasks.filter((t) => t.split === split) } };
}

/** Whether this evaluation leaves the train tasks until a keep: a noisy engine, both splits present, not `always`. */
export function defersTrain(p: Prepared, deterministic: boolean): boolean {
  if (deterministic || p.cfg.measureTrain === 'always') return false;
  const splits = new Set(p.suite.tasks.map((t) => t.split));
  return splits.has('train') && splits.has('holdout');
}

function sumUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  return { input_tokens: a.input_tokens + b.input_tokens, output_tokens: a.output_tokens + b.output_tokens, cost_usd: a.cost_usd + b.cost_usd, cost_reported: a.cost_reported || b.cost_reported };
}

/** Two measurements of one variant on disjoint tasks as one outcome, its tallies in suite order. */
export function joinOutcomes(p: Prepared, a: VariantOutcome, b: VariantOutcome): VariantOutcome {
  const order = new Map(p.suite.tasks.map((t, i) => [t.id, i]));
  const byOrder = (x: TaskTally, y: TaskTally) => (order.get(x.task_id) ?? 0) - (order.get(y.task_id) ?? 0);
  const unjudged = [...(a.unjudged ?? []), ...(b.unjudged ?? [])].sort(byOrder);
  return {
    variant: a.variant,
    tallies: [...a.tallies, ...b.tallies].sort(byOrder),
    ...(unjudged.length ? { unjudged } : {}),
    engineCalls: a.engineCalls + b.engineCalls,
    judgeCalls: a.judgeCalls + b.judgeCalls,
    resumedAttempts: a.resumedAttempts + b.resumedAttempts,
    usage: sumUsage(a.usage, b.usage),
    durationsMs: [...a.durationsMs, ...b.durationsMs],
    interrupted: a.interrupted || b.interrupted,
    wallMs: a.wallMs + b.wallMs,
  };
}

/**
 * The baseline's train tasks: from the cache when it holds this skill (what the iteration's baseline stage
 * stored), else measured into the baseline's results file, which resumes what that stage ran here;
 * `--force` and nightly runs never read the cache. They make the baseline whole for the broken-suite
 * checks (evaluate.baseline_min_pass_rate, max_error_share), which are about the suite, not a split.
 */
export async function baselineTrain(p: Prepared, ctx: EvaluateContext, a: { target: LoadedSkill; dir: string; budget?: Budget }): Promise<{ outcome: VariantOutcome; from: 'cache' | 'measured' }> {
  const trainP = onlySplit(p, 'train');
  const ids = new Set(trainP.suite.tasks.map((t) => t.id));
  const cached = readCache(p, ctx, evaluationKey(p, a.target), 'baseline');
  if ('outcome' in cached) {
    const all = cached.outcome;
    const tallies = all.tallies.filter((t) => ids.has(t.task_id));
    const unjudged = all.unjudged?.filter((t) => ids.has(t.task_id));
    // Every train task, or the entry is of another split: measured instead.
    if (tallies.length + (unjudged?.length ?? 0) === ids.size) {
      ctx.log(`baseline: ${ids.size} train task(s) from the cache (they decide nothing), 0 engine calls`);
      return { outcome: { ...all, tallies, unjudged }, from: 'cache' };
    }
  }
  const m = await measure(trainP, ctx, { skill: a.target, variant: 'baseline', dir: a.dir, cacheable: false, budget: a.budget });
  return { outcome: m.outcome, from: 'measured' };
}
