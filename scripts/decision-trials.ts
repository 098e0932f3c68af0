// Seeded trials of the keep/reject decision on a simulated noisy model (issue 27 §6): every task has its
// own chance of being answered right, an edit's true effect on those chances is set by the caller, and
// each attempt is a coin with that chance. The rounds (src/measure/rounds.ts), the evaluation artifact
// (src/measure/verdict.ts) and the gate's decision (stages/gate/decide.ts) are whetstone's own; only the
// engine is simulated, so thousands of runs take seconds. Used by test/integration/decision-rates.test.ts
// and the "decisions" table of `npm run bench`, beside two references on the same draws: the same design
// with every attempt run (one look at max_attempts), and a loop that keeps when the held-out pass rate rose.
import { mulberry32 } from '../src/stats/index.js';
import type { TaskTally } from '../src/evaluation/aggregate.js';
import { newUsage } from '../src/evaluation/aggregate.js';
import { summarizeVariant } from '../src/evaluation/summary.js';
import { pipelineArtifact } from '../src/measure/verdict.js';
import { runRounds } from '../src/measure/rounds.js';
import { sequentialRecord } from '../src/measure/held-out-rounds.js';
import type { SequentialSettings } from '../src/evaluation/sequential.js';
import { THRESHOLD_DEFAULTS, type Thresholds } from '../src/config/thresholds.js';
import { decide } from '../stages/gate/decide.js';

export interface TrialCase {
  name: string;
  /** Added to every held-out task's chance by the edit (clipped to [0, 1]). */
  heldOutEffect: number;
  /** Added to every train task's chance. */
  trainEffect: number;
}

export const CASES: TrialCase[] = [
  { name: 'no effect', heldOutEffect: 0, trainEffect: 0 },
  { name: 'helps train tasks only (+25)', heldOutEffect: 0, trainEffect: 0.25 },
  { name: '+10 points on every task', heldOutEffect: 0.1, trainEffect: 0.1 },
  { name: '+25 points on every task', heldOutEffect: 0.25, trainEffect: 0.25 },
];

export interface TrialSetup {
  tasks: number;
  heldOut: number;
  chance: [number, number];
  maxAttempts: number;
  thresholds: Thresholds;
}

export const ISSUE_SETUP: TrialSetup = { tasks: 40, heldOut: 20, chance: [0.3, 0.8], maxAttempts: 10, thresholds: THRESHOLD_DEFAULTS };

export type Design = 'whetstone' | 'every attempt' | 'kept when it rose';

export interface TrialResult {
  keep: boolean;
  /** Attempts per held-out task per variant. */
  attempts: number;
  /** Engine calls of the run, both variants, every task. */
  calls: number;
}

const clip = (x: number) => Math.min(1, Math.max(0, x));

export function tally(id: string, split: 'train' | 'holdout', k: number, passes: number): TaskTally {
  return { task_id: id, category: 'general', split, negative: false, critical: false, k, judged: k, passes, errors: 0, timeouts: 0, bestScore: passes > 0 ? 1 : 0, reason: passes > 0 ? 'passed' : 'failed' };
}

/** The evaluation artifact the evaluate stage would write for these first-round tallies and rounds. */
export function evaluationOf(base: TaskTally[], cand: TaskTally[], record?: ReturnType<typeof sequentialRecord>) {
  const outcome = (tallies: TaskTally[]) => ({ variant: 'v', tallies, engineCalls: tallies.length, judgeCalls: 0, resumedAttempts: 0, usage: newUsage(), durationsMs: [], interrupted: false, wallMs: 0 });
  const e = pipelineArtifact({
    bits: { run_id: 'trial', iteration: 1, created_at: new Date(0).toISOString(), inputs: {}, task_suite: 'trial.yaml', skill_id: 'trial', pass_k: 1 },
    candidateId: 'c1',
    candidateScore: null,
    evalThreshold: 0,
    baselineMinPassRate: 0,
    maxErrorShare: 0.1,
    measured: { candidate: { summary: summarizeVariant(outcome(cand), 1), tallies: cand }, baseline: { summary: summarizeVariant(outcome(base), 1), tallies: base } },
  });
  if (record) e.evaluation.sequential = record;
  return e;
}

function gateKeeps(setup: TrialSetup, base: TaskTally[], cand: TaskTally[], record?: ReturnType<typeof sequentialRecord>): boolean {
  return decide({ evaluation: evaluationOf(base, cand, record), thresholds: setup.thresholds, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1 }).decision === 'keep';
}

/** One simulated run of one edit, decided by `design`; the same seed gives the same chances and coins. */
export async function trial(setup: TrialSetup, c: TrialCase, design: Design, seed: number): Promise<TrialResult> {
  const rnd = mulberry32(seed);
  const ids = Array.from({ length: setup.tasks }, (_, i) => `t${String(i).padStart(3, '0')}`);
  const split = (i: number): 'train' | 'holdout' => (i < setup.heldOut ? 'holdout' : 'train');
  const p = ids.map(() => setup.chance[0] + (setup.chance[1] - setup.chance[0]) * rnd());
  const q = p.map((x, i) => clip(x + (split(i) === 'holdout' ? c.heldOutEffect : c.trainEffect)));
  const draw = (chance: number, k: number) => {
    let n = 0;
    for (let a = 0; a < k; a++) if (rnd() < chance) n++;
    return n;
  };
  const first = design === 'every attempt' ? setup.maxAttempts : 1;
  const base = ids.map((id, i) => tally(id, split(i), split(i) === 'holdout' ? first : 1, draw(p[i]!, split(i) === 'holdout' ? first : 1)));
  const cand = ids.map((id, i) => tally(id, split(i), split(i) === 'holdout' ? first : 1, draw(q[i]!, split(i) === 'holdout' ? first : 1)));
  const firstCalls = 2 * (setup.tasks - setup.heldOut) + 2 * setup.heldOut * first;
  const s: SequentialSettings = { significance: setup.thresholds.significance, minEffect: setup.thresholds.min_effect, maxAttempts: setup.maxAttempts };
  if (design === 'kept when it rose') {
    const rate = (ts: TaskTally[]) => ts.filter((t) => t.split === 'holdout').reduce((a, t) => a + t.passes, 0);
    return { keep: rate(cand) > rate(base), attempts: 1, calls: firstCalls };
  }
  const held = ids.flatMap((id, i) => (split(i) === 'holdout' ? [{ id, i }] : []));
  const outcome = await runRounds({
    settings: s,
    firstAttempts: first,
    baseline: base,
    candidate: cand,
    measure: async () => ({
      baseline: held.map(({ id, i }) => tally(id, 'holdout', 1, draw(p[i]!, 1))),
      candidate: held.map(({ id, i }) => tally(id, 'holdout', 1, draw(q[i]!, 1))),
      engineCalls: 2 * held.length,
      judgeCalls: 0,
    }),
  });
  const record = sequentialRecord(outcome, s, first, 1, { withPlan: false });
  return { keep: gateKeeps(setup, base, cand, record), attempts: outcome.attempts, calls: firstCalls + outcome.engineCalls };
}

export interface Rates {
  case: string;
  design: Design;
  trials: number;
  keepRate: number;
  meanAttempts: number;
  meanCalls: number;
}

/** The mean of each figure `trial` gives over `trials` seeds (seed0, seed0 + 7919, …); a yes counts 1. */
export async function meanOver<K extends string>(trials: number, seed0: number, trial: (seed: number) => Promise<Record<K, number | boolean>>): Promise<Record<K, number>> {
  const sums = {} as Record<K, number>;
  for (let k = 0; k < trials; k++) {
    for (const [key, v] of Object.entries(await trial(seed0 + k * 7919)) as [K, number | boolean][]) sums[key] = (sums[key] ?? 0) + Number(v);
  }
  for (const key of Object.keys(sums) as K[]) sums[key] /= trials;
  return sums;
}

export async function rates(setup: TrialSetup, c: TrialCase, design: Design, trials: number, seed0 = 1): Promise<Rates> {
  // The same seeds for every design: the three rules decide on the same simulated models.
  const m = await meanOver(trials, seed0, (seed) => trial(setup, c, design, seed));
  return { case: c.name, design, trials, keepRate: m.keep, meanAttempts: m.attempts, meanCalls: m.calls };
}
