// The evaluate stage's rounds on a noisy engine, measured through the same `measure` as the first
// measurement: each round is a variant of its own (`<variant>.round-N`, one attempt per held-out task),
// with its results file and its baseline cache entry, so resume and reuse work as they do for any
// measurement. What the rounds decided becomes evaluation.json's `sequential` record. The rounds are never
// read from the baseline cache: the baseline's attempts are made beside the candidate's, in the same rounds
// (issue 38), so a model that changed since another run measured the baseline is not credited to the edit.
import pLimit from 'p-limit';
import type { TaskTally } from '../evaluation/aggregate.js';
import { heldOutEffect } from '../evaluation/noisy-checks.js';
import { plan, planFigures } from '../evaluation/plan.js';
import { designSettings, sequentialPValue, type SequentialSettings, type TaskPair } from '../evaluation/sequential.js';
import { perCandidateAlpha } from '../evaluation/run-level.js';
import type { PipelineEvaluation, SequentialRecord } from '../artifacts/evaluation.js';
import { heldOutTriggerOf } from '../evaluation/summary.js';
import type { LoadedSkill } from '../skill/read.js';
import type { Budget } from '../evaluation/budget.js';
import { measure } from './measure.js';
import { runRounds, type RoundsOutcome } from './rounds.js';
import type { EvaluateContext, Prepared } from './setup.js';

export const METHOD =
  'Cochran–Mantel–Haenszel score over held-out tasks (attempt shares, tasks as strata), one-sided, group-sequential with Hwang–Shih–DeCani error spending, at significance ÷ loop.max_iterations, a keep also needing the one-sided task-level t test (docs/method.md: One claim per run)';

/** The gate's design: each candidate at significance ÷ loop.max_iterations, so the run as a whole is held to significance. */
export function sequentialSettings(p: Prepared): SequentialSettings {
  const run = { significance: p.cfg.thresholds.significance, maxIterations: p.cfg.loop.maxIterations };
  return { significance: perCandidateAlpha(run.significance, run.maxIterations), minEffect: p.cfg.thresholds.min_effect, maxAttempts: Math.max(p.passK, p.cfg.maxAttempts), run };
}

export interface HeldOutRoundsInput {
  target: LoadedSkill;
  candidate: LoadedSkill;
  candidateId: string;
  dir: string;
  budget?: Budget;
  baseline: TaskTally[];
  candidateTallies: TaskTally[];
  /** Calls one attempt makes, engine and judges, from the first measurement. */
  callsPerAttempt: number;
}

/** Each round's tallies, one per held-out task and round: what the gate's held-out trigger rates count too. */
export interface RoundTallies {
  baseline: TaskTally[];
  candidate: TaskTally[];
}

type Finished = { interrupted: false; rounds: RoundTallies; record: SequentialRecord };

export async function heldOutRounds(p: Prepared, ctx: EvaluateContext, i: HeldOutRoundsInput): Promise<{ interrupted: true; budgetExhausted?: string; rateLimited?: string } | Finished> {
  const s = sequentialSettings(p);
  // One attempt per task per round, whatever a task's own pass_k: a round is one more look's worth.
  const heldOut = p.suite.tasks.filter((t) => t.split === 'holdout').map((t) => ({ ...t, passK: 1 }));
  const roundP: Prepared = { ...p, suite: { ...p.suite, tasks: heldOut }, passK: 1 };
  // The two variants' rounds run side by side under one limit: evaluate.concurrency is the run's, not each variant's.
  const shared = pLimit(p.concurrency);
  const roundCtx: EvaluateContext = { ...ctx, limiter: ctx.limiter ?? ((fn) => shared(fn)) };
  // Why a round stopped, when a budget or a subscription limit did: said as for the first measurement.
  const why: { budgetExhausted?: string; rateLimited?: string } = {};
  const rounds: RoundTallies = { baseline: [], candidate: [] };
  const outcome = await runRounds({
    settings: s,
    firstAttempts: p.passK,
    baseline: i.baseline,
    candidate: i.candidateTallies,
    log: ctx.log,
    measure: async (round, open, purpose, side) => {
      // Only the tasks still uncertain (rounds.ts settled), or the ones the guard follows; both variants
      // side by side unless the guard asks for one, never from the cache.
      const keep = new Set(open);
      const openP: Prepared = { ...roundP, suite: { ...roundP.suite, tasks: heldOut.filter((t) => keep.has(t.id)) } };
      const run = (which: 'baseline' | 'candidate') =>
        which !== side && side !== undefined
          ? undefined
          : measure(openP, roundCtx, { skill: which === 'baseline' ? i.target : i.candidate, variant: `${which === 'baseline' ? 'baseline.' : ''}${i.candidateId}.round-${round}`, dir: i.dir, cacheable: false, budget: i.budget, round });
      const [b, c] = (await Promise.all([run('baseline'), run('candidate')])).map((r) => r?.outcome);
      if (b?.interrupted || c?.interrupted) {
        const exhausted = b?.budgetExhausted ?? c?.budgetExhausted;
        const limited = b?.rateLimited ?? c?.rateLimited;
        if (exhausted) why.budgetExhausted = exhausted;
        else if (limited) why.rateLimited = limited;
        return 'interrupted';
      }
      // The guard's attempts follow the tasks that looked worse: counted for the guard, not in the rates.
      if (purpose === 'look') {
        rounds.baseline.push(...(b?.tallies ?? []));
        rounds.candidate.push(...(c?.tallies ?? []));
      }
      return { baseline: b?.tallies ?? [], candidate: c?.tallies ?? [], engineCalls: (b?.engineCalls ?? 0) + (c?.engineCalls ?? 0), judgeCalls: (b?.judgeCalls ?? 0) + (c?.judgeCalls ?? 0) };
    },
  });
  if (outcome.interrupted) return { interrupted: true, ...why };
  return { interrupted: false, rounds, record: sequentialRecord(outcome, s, p.passK, i.callsPerAttempt) };
}

/**
 * The rounds add attempts to the held-out queries of a trigger suite too, and the gate's trigger checks
 * read `holdout_trigger`: it counts them all, not the first measurement's alone. In 200 seeded runs of a
 * +25-point description edit (scripts/trigger-trials.ts), one landing at a true trigger rate of 0.40 (under
 * the 0.5 bar) was kept in 34.5% counting the first attempt per query, 17.5% counting every attempt; one
 * landing at 0.60 in 66.0% and 72.5%, where the gain test alone kept it in 75.0%.
 */
export function countRoundsInTrigger(e: PipelineEvaluation, first: RoundTallies, rounds: RoundTallies): void {
  for (const side of ['baseline', 'candidate'] as const) {
    const v = e.evaluation[side];
    const all = heldOutTriggerOf([...first[side], ...rounds[side]]);
    if (v?.holdout_trigger && all) v.holdout_trigger = all;
  }
}

/** A task's chance as the baseline showed it, pulled toward ½ by one pseudo-attempt each way (no 0 or 1 from few attempts). */
export const chanceOf = (c: TaskPair['baseline']) => (c.passes + 0.5) / (c.judged + 1);

/** `withPlan: false` leaves out the search for the attempts that would give 80% power (simulated trials). */
export function sequentialRecord(o: RoundsOutcome, s: SequentialSettings, firstAttempts: number, callsPerAttempt: number, opts: { withPlan?: boolean } = {}): SequentialRecord {
  const last = o.looks.at(-1)!;
  const chances = o.pairs.filter((x) => x.baseline.judged > 0).map((x) => chanceOf(x.baseline));
  const figures = chances.length ? planFigures({ chances, settings: s, firstAttempts }) : undefined;
  const short = figures && figures.power < 0.8 && opts.withPlan !== false ? plan({ chances, settings: s, firstAttempts }) : undefined;
  const spent = o.engineCalls + o.judgeCalls;
  const guardSpent = o.guard.engineCalls + o.guard.judgeCalls;
  const every = spent - guardSpent + Math.round((s.maxAttempts - o.attempts) * o.pairs.length * 2 * callsPerAttempt);
  return {
    method: METHOD,
    settings: designSettings(s),
    looks: o.looks,
    decision: last.decision === 'keep' ? 'keep' : 'stop',
    rounds: o.rounds,
    attempts: o.attempts,
    tasks: o.pairs,
    effect: heldOutEffect(o.pairs),
    p_value: sequentialPValue(o.looks, s),
    power: figures ? Number(figures.power.toFixed(4)) : null,
    attempts_for_80: short ? short.attemptsFor80 : figures ? s.maxAttempts : null,
    calls: { engine: o.engineCalls, judge: o.judgeCalls, every_attempt: every, saved: every - spent },
    ...(o.guard.rounds > 0 ? { guard: { rounds: o.guard.rounds, tasks: o.guard.pairs, calls: { engine: o.guard.engineCalls, judge: o.guard.judgeCalls } } } : {}),
  };
}
