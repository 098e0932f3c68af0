// Seeded trials of the gate on a trigger suite (skill-creator's should_trigger queries) on a simulated
// noisy agent: every query has its own chance of the skill being invoked, a description edit's true effect
// on those chances is set by the caller, and each attempt is a coin. A query passes when the agent did what
// it should (invoked the skill on a should-trigger query, left it alone on a should-not one). The rounds,
// the evaluation artifact and the gate (its held-out gain test and its min_trigger_rate /
// max_false_trigger_rate checks) are whetstone's own. Used by test/integration/trigger-decision-rates.test.ts
// and the decisions table of `npm run bench`.
import { mulberry32 } from '../src/stats/index.js';
import type { TaskTally } from '../src/evaluation/aggregate.js';
import { runRounds } from '../src/measure/rounds.js';
import { countRoundsInTrigger, sequentialRecord, type RoundTallies } from '../src/measure/held-out-rounds.js';
import type { SequentialSettings } from '../src/evaluation/sequential.js';
import { THRESHOLD_DEFAULTS } from '../src/config/thresholds.js';
import { decide, type GateFacts } from '../stages/gate/decide.js';
import type { TriggerBars } from '../src/measure/verdict.js';
import { evaluationOf, meanOver } from './decision-trials.js';
import { tally } from '../src/measure/guard-calls.js';

export interface TriggerCase {
  name: string;
  /** The baseline's chance of invoking the skill on a should-trigger query, spread evenly over this range. */
  trigger: [number, number];
  /** The baseline's chance of invoking it on a should-not-trigger query. */
  falseTrigger: [number, number];
  /** Added by the edit to every should-trigger chance, and to every should-not chance (clipped to [0, 1]). */
  triggerEffect: number;
  falseTriggerEffect: number;
}

/** The candidate's true rates, as the case sets them: the mean chance over the queries. */
export const trueRates = (c: TriggerCase) => ({
  trigger: Math.min(1, (c.trigger[0] + c.trigger[1]) / 2 + c.triggerEffect),
  falseTrigger: Math.min(1, Math.max(0, (c.falseTrigger[0] + c.falseTrigger[1]) / 2 + c.falseTriggerEffect)),
});

export const TRIGGER_CASES: TriggerCase[] = [
  { name: 'no effect', trigger: [0.5, 0.8], falseTrigger: [0, 0.1], triggerEffect: 0, falseTriggerEffect: 0 },
  { name: '+25 trigger, lands at 0.60', trigger: [0.2, 0.5], falseTrigger: [0, 0.1], triggerEffect: 0.25, falseTriggerEffect: 0 },
  { name: '+25 trigger, lands at 0.40', trigger: [0.05, 0.25], falseTrigger: [0, 0.1], triggerEffect: 0.25, falseTriggerEffect: 0 },
  { name: '+25 trigger, false 0.30 as before', trigger: [0.2, 0.5], falseTrigger: [0.2, 0.4], triggerEffect: 0.25, falseTriggerEffect: 0 },
  { name: '+25 trigger, false 0.05 → 0.30', trigger: [0.2, 0.5], falseTrigger: [0, 0.1], triggerEffect: 0.25, falseTriggerEffect: 0.25 },
  { name: '+25 trigger, false 0.15 as before', trigger: [0.2, 0.5], falseTrigger: [0.05, 0.25], triggerEffect: 0.25, falseTriggerEffect: 0 },
  { name: '+40 trigger, +45 false', trigger: [0.2, 0.5], falseTrigger: [0.05, 0.25], triggerEffect: 0.4, falseTriggerEffect: 0.45 },
];

export interface TriggerSetup {
  /** Held-out should-trigger and should-not-trigger queries (the train queries are as many again). */
  should: number;
  shouldNot: number;
  maxAttempts: number;
  bars: TriggerBars;
}

/** The default bars (src/config/pipeline.ts), the false-trigger one held to its bound at the default significance. */
export const TRIGGER_SETUP: TriggerSetup = { should: 10, shouldNot: 10, maxAttempts: 10, bars: { minTriggerRate: 0.5, maxFalseTriggerRate: 0.2, significance: THRESHOLD_DEFAULTS.significance } };

/** What the gate's trigger checks count: the first measurement's attempts alone, or every attempt the rounds made too. */
export type TriggerCount = 'first measurement' | 'every attempt';

export interface TriggerTrial {
  keep: boolean;
  /** Whether the held-out gain test alone would have kept it (the trigger checks aside). */
  gainKeeps: boolean;
  attempts: number;
  /** Which trigger check failed, if any (more than one may). */
  triggerBar: boolean;
  falseBar: boolean;
  moreThanBaseline: boolean;
}

function queryTally(id: string, split: 'train' | 'holdout', should: boolean, k: number, triggered: number): TaskTally {
  return { ...tally(id, split, k, should ? triggered : k - triggered), shouldTrigger: should, triggered };
}

/** One simulated run of one description edit; the same seed gives the same chances and coins. */
export async function triggerTrial(setup: TriggerSetup, c: TriggerCase, count: TriggerCount, seed: number): Promise<TriggerTrial> {
  const rnd = mulberry32(seed);
  const n = setup.should + setup.shouldNot;
  const queries = Array.from({ length: 2 * n }, (_, i) => {
    const split: 'train' | 'holdout' = i < n ? 'holdout' : 'train';
    const should = i % n < setup.should;
    const [lo, hi] = should ? c.trigger : c.falseTrigger;
    const base = lo + (hi - lo) * rnd();
    const cand = Math.min(1, Math.max(0, base + (should ? c.triggerEffect : c.falseTriggerEffect)));
    return { id: `q${String(i).padStart(3, '0')}`, split, should, base, cand };
  });
  const coins = (chance: number) => (rnd() < chance ? 1 : 0);
  const measure = (side: 'base' | 'cand', which: typeof queries) => which.map((q) => queryTally(q.id, q.split, q.should, 1, coins(q[side])));
  const base = measure('base', queries);
  const cand = measure('cand', queries);
  const held = queries.filter((q) => q.split === 'holdout');
  const rounds: RoundTallies = { baseline: [], candidate: [] };
  // One candidate decided alone (loop.max_iterations 1: its level is the run's, issue 38).
  const s: SequentialSettings = { significance: THRESHOLD_DEFAULTS.significance, minEffect: THRESHOLD_DEFAULTS.min_effect, maxAttempts: setup.maxAttempts, run: { significance: THRESHOLD_DEFAULTS.significance, maxIterations: 1 } };
  const outcome = await runRounds({
    settings: s,
    firstAttempts: 1,
    baseline: base,
    candidate: cand,
    measure: async (_round, open, purpose, side) => {
      if (purpose === 'guard') {
        // The regression guard's rounds: the followed queries, one side at a time, not counted in the rates.
        const ids = new Set(open);
        const qs = held.filter((q) => ids.has(q.id));
        return { baseline: side === 'baseline' ? measure('base', qs) : [], candidate: side === 'candidate' ? measure('cand', qs) : [], engineCalls: qs.length, judgeCalls: 0 };
      }
      const round = { baseline: measure('base', held), candidate: measure('cand', held) };
      rounds.baseline.push(...round.baseline);
      rounds.candidate.push(...round.candidate);
      return { ...round, engineCalls: 2 * held.length, judgeCalls: 0 };
    },
  });
  const e = evaluationOf(base, cand, sequentialRecord(outcome, s, 1, 1, { withPlan: false }));
  // What the evaluate stage does (stages/evaluate/pipeline.ts); 'first measurement' is how it was before.
  if (count === 'every attempt') countRoundsInTrigger(e, { baseline: base, candidate: cand }, rounds);
  const facts: GateFacts = { evaluation: e, thresholds: THRESHOLD_DEFAULTS, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1 };
  const d = decide({ ...facts, trigger: setup.bars });
  const failed = (id: string) => d.checks.some((x) => x.id === id && !x.passed);
  return { keep: d.decision === 'keep', gainKeeps: decide(facts).decision === 'keep', attempts: outcome.attempts, triggerBar: failed('min_trigger_rate'), falseBar: failed('max_false_trigger_rate'), moreThanBaseline: failed('false_trigger_vs_baseline') };
}

export interface TriggerRates {
  case: string;
  count: TriggerCount;
  trials: number;
  keepRate: number;
  gainKeepRate: number;
  meanAttempts: number;
  /** Share of runs each trigger check failed in. */
  failed: { triggerBar: number; falseBar: number; moreThanBaseline: number };
}

export async function triggerRates(setup: TriggerSetup, c: TriggerCase, count: TriggerCount, trials: number, seed0 = 1): Promise<TriggerRates> {
  const m = await meanOver(trials, seed0, (seed) => triggerTrial(setup, c, count, seed));
  return { case: c.name, count, trials, keepRate: m.keep, gainKeepRate: m.gainKeeps, meanAttempts: m.attempts, failed: { triggerBar: m.triggerBar, falseBar: m.falseBar, moreThanBaseline: m.moreThanBaseline } };
}
