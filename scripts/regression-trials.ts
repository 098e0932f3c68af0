// Seeded trials of the gate's regression guard (issue 38 §5) on the simulated noisy model of
// scripts/decision-trials.ts (40 tasks, 20 held out, chances 0.3–0.8, default settings): one held-out
// task falls from 0.9 to 0.3 while every other task gains +10 points, decided by whetstone's own rounds
// (the guard's rounds after the decision included), evaluation artifact and gate. Counted per run: whether
// the guard named the fallen task, whether the gate rejected, whether it flagged any task that did not fall
// (its false alarms, which cost keeps) and how many, and the engine calls.
// Used by test/integration/regression-guard-rates.test.ts and the bench's regression-guard table
// (bench-decisions.ts guardRows).
import { mulberry32 } from '../src/stats/index.js';
import type { TaskTally } from '../src/evaluation/aggregate.js';
import { runRounds } from '../src/measure/rounds.js';
import { sequentialRecord } from '../src/measure/held-out-rounds.js';
import type { SequentialSettings } from '../src/evaluation/sequential.js';
import { decide } from '../stages/gate/decide.js';
import { evaluationOf, ISSUE_SETUP, meanOver, settingsOf, type TrialSetup } from './decision-trials.js';
import { simulatedRound, tally } from '../src/measure/guard-calls.js';

export interface GuardCase {
  name: string;
  /** The held-out task that falls (task 0): its chance before and after; null: no task falls. */
  fall: [number, number] | null;
  /** Added to every other task's chance. */
  rest: number;
}

export const GUARD_CASES: GuardCase[] = [
  { name: 'one held-out task 0.9 → 0.3, the rest +10', fall: [0.9, 0.3], rest: 0.1 },
  { name: 'no task falls, every task +10', fall: null, rest: 0.1 },
  { name: 'no task falls, every task +25', fall: null, rest: 0.25 },
  { name: 'nothing changes', fall: null, rest: 0 },
];

export interface GuardTrial {
  /** The fallen task was named by the guard. */
  reported: boolean;
  rejected: boolean;
  /** A task that did not fall was named. */
  falseAlarm: boolean;
  /** Tasks named that did not fall, of the held-out tasks: the guard's false alarms task by task. */
  wronglyNamed: number;
  attempts: number;
  /** Engine calls of the decision (both variants' held-out attempts, the guard's included). */
  calls: number;
}

export async function guardTrial(setup: TrialSetup, c: GuardCase, seed: number): Promise<GuardTrial> {
  const rnd = mulberry32(seed);
  const ids = Array.from({ length: setup.tasks }, (_, i) => `t${String(i).padStart(3, '0')}`);
  const split = (i: number): 'train' | 'holdout' => (i < setup.heldOut ? 'holdout' : 'train');
  const p = ids.map((_, i) => (i === 0 && c.fall ? c.fall[0] : setup.chance[0] + (setup.chance[1] - setup.chance[0]) * rnd()));
  const q = p.map((x, i) => (i === 0 && c.fall ? c.fall[1] : Math.min(1, x + c.rest)));
  const draw = (chance: number) => (rnd() < chance ? 1 : 0);
  const base: TaskTally[] = ids.map((id, i) => tally(id, split(i), 1, draw(p[i]!)));
  const cand: TaskTally[] = ids.map((id, i) => tally(id, split(i), 1, draw(q[i]!)));
  // The gate's own design: each candidate at significance ÷ max_iterations (issue 38).
  const s: SequentialSettings = settingsOf(setup);
  const index = new Map(ids.map((id, i) => [id, i]));
  const outcome = await runRounds({
    settings: s,
    firstAttempts: 1,
    baseline: base,
    candidate: cand,
    measure: async (_round, open, _purpose, side) => simulatedRound(open, side, { baseline: (id) => p[index.get(id)!]!, candidate: (id) => q[index.get(id)!]! }, draw),
  });
  const e = evaluationOf(base, cand, sequentialRecord(outcome, s, 1, 1, { withPlan: false }));
  const d = decide({ evaluation: e, thresholds: setup.thresholds, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1, maxIterations: setup.maxIterations });
  const named = d.holdout?.regressions ?? [];
  const wrong = named.filter((id) => !(c.fall && id === ids[0])).length;
  return { reported: c.fall !== null && named.includes(ids[0]!), rejected: d.decision !== 'keep', falseAlarm: wrong > 0, wronglyNamed: wrong, attempts: outcome.attempts, calls: 2 * setup.heldOut + outcome.engineCalls };
}

export interface GuardRates {
  case: string;
  trials: number;
  reported: number;
  rejected: number;
  falseAlarm: number;
  /** Of the held-out tasks that did not fall, the share named per run. */
  perTaskFalseAlarm: number;
  meanAttempts: number;
  meanCalls: number;
}

export async function guardRates(c: GuardCase, trials: number, seed0 = 1, setup: TrialSetup = ISSUE_SETUP): Promise<GuardRates> {
  const m = await meanOver(trials, seed0, (seed) => guardTrial(setup, c, seed));
  const unchanged = setup.heldOut - (c.fall ? 1 : 0);
  return { case: c.name, trials, reported: m.reported, rejected: m.rejected, falseAlarm: m.falseAlarm, perTaskFalseAlarm: m.wronglyNamed / unchanged, meanAttempts: m.attempts, meanCalls: m.calls };
}
