// Seeded trials of the keep/reject decision on a simulated noisy model (issue 27 §6): every task has its
// own chance of being answered right, an edit's true effect on those chances is set by the caller, and
// each attempt is a coin with that chance. The rounds (src/measure/rounds.ts), the evaluation artifact
// (src/measure/verdict.ts) and the gate's decision (stages/gate/decide.ts) are whetstone's own; only the
// engine is simulated, so thousands of runs take seconds. Used by test/integration/decision-rates.test.ts
// and the "decisions" table of `npm run bench`, beside two references on the same draws: the same design
// with every attempt run (one look at max_attempts), and a loop that keeps when the held-out pass rate rose.
// Whole loops, a model that changed, per-task effects and a deterministic engine: scripts/run-trials.ts.
import { mulberry32 } from '../src/stats/index.js';
import type { TaskTally } from '../src/evaluation/aggregate.js';
import { newUsage } from '../src/evaluation/aggregate.js';
import { summarizeVariant } from '../src/evaluation/summary.js';
import { pipelineArtifact } from '../src/measure/verdict.js';
import { runRounds } from '../src/measure/rounds.js';
import { simulatedRound, tally } from '../src/measure/guard-calls.js';
import { sequentialRecord } from '../src/measure/held-out-rounds.js';
import { keepUndoneBy } from '../src/measure/guard-verdict.js';
import type { SequentialSettings } from '../src/evaluation/sequential.js';
import { THRESHOLD_DEFAULTS, type Thresholds } from '../src/config/thresholds.js';
import { decide } from '../stages/gate/decide.js';
import { perCandidateAlpha } from '../src/evaluation/run-level.js';


export interface TrialCase {
  name: string;
  /** Added to every held-out task's chance by the edit (clipped to [0, 1]). */
  heldOutEffect: number;
  /** Added to every train task's chance. */
  trainEffect: number;
  /** The edit's effect varies from held-out task to task: normal, mean heldOutEffect, this standard deviation. */
  taskSd?: number;
  /** Every task's chance moved by this between the cached baseline (another run) and this run: the model changed. */
  drift?: number;
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
  /** The registered loop.max_iterations: each candidate is tested at significance ÷ it (issue 38). */
  maxIterations: number;
  /** Share of the held-out tasks that nearly always pass or nearly always fail (chance 0.98 or 0.02, alternately). */
  extreme?: number;
}

/** Default settings: max_attempts 10, loop.max_iterations 5 (each candidate at 0.05 ÷ 5 = 0.01). */
export const ISSUE_SETUP: TrialSetup = { tasks: 40, heldOut: 20, chance: [0.3, 0.8], maxAttempts: 10, thresholds: THRESHOLD_DEFAULTS, maxIterations: 5 };

/** whetstone's gate; the same with every attempt run; keep when the held-out rate rose; the gate fed a baseline cached before the model changed. */
export type Design = 'whetstone' | 'every attempt' | 'kept when it rose' | 'cached baseline';

export interface TrialResult {
  keep: boolean;
  /** Attempts per held-out task per variant. */
  attempts: number;
  /** Engine calls of the decision: both variants' held-out attempts, and the candidate's train tasks after a keep the guard does not undo. */
  calls: number;
}

export const clip = (x: number) => Math.min(1, Math.max(0, x));

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

export function gateKeeps(setup: TrialSetup, base: TaskTally[], cand: TaskTally[], record?: ReturnType<typeof sequentialRecord>): boolean {
  return decide({ evaluation: evaluationOf(base, cand, record), thresholds: setup.thresholds, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1, maxIterations: setup.maxIterations }).decision === 'keep';
}

/** The gate's sequential settings for this setup: each candidate at significance ÷ max_iterations. */
export function settingsOf(setup: TrialSetup): SequentialSettings {
  const run = { significance: setup.thresholds.significance, maxIterations: setup.maxIterations };
  return { significance: perCandidateAlpha(run.significance, run.maxIterations), minEffect: setup.thresholds.min_effect, maxAttempts: setup.maxAttempts, run };
}

/** A suite's tasks, their split and their chances on the skill as it starts (the same seed, the same suite). */
export function suiteOf(setup: TrialSetup, rnd: () => number): { ids: string[]; split: ('train' | 'holdout')[]; chances: number[] } {
  const ids = Array.from({ length: setup.tasks }, (_, i) => `t${String(i).padStart(3, '0')}`);
  const split = ids.map((_, i): 'train' | 'holdout' => (i < setup.heldOut ? 'holdout' : 'train'));
  const extreme = Math.round((setup.extreme ?? 0) * setup.heldOut);
  const chances = ids.map((_, i) => {
    const drawn = setup.chance[0] + (setup.chance[1] - setup.chance[0]) * rnd();
    return i < extreme ? (i % 2 === 0 ? 0.98 : 0.02) : drawn;
  });
  return { ids, split, chances };
}

/** A standard normal draw (Box–Muller) from the trial's stream. */
export function normal(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}

/** The candidate's chances: the baseline's moved by the case's effect, task by task. */
export function editedChances(suite: { split: ('train' | 'holdout')[] }, p: readonly number[], c: TrialCase, rnd: () => number): number[] {
  return p.map((x, i) => clip(x + (suite.split[i] === 'holdout' ? c.heldOutEffect + (c.taskSd ? c.taskSd * normal(rnd) : 0) : c.trainEffect)));
}

/**
 * One gate decision between a baseline of chances `p` and a candidate of chances `q` on a noisy engine,
 * decided by `design`. `cached`: the baseline's chances when another run measured it (the 'cached
 * baseline' design pairs the candidate with those, what the gate did before issue 38).
 */
export async function decideOnce(setup: TrialSetup, suite: { ids: string[]; split: ('train' | 'holdout')[] }, p: readonly number[], q: readonly number[], design: Design, rnd: () => number, cached?: readonly number[]): Promise<TrialResult> {
  const { ids, split } = suite;
  const draw = (chance: number, k: number) => {
    let n = 0;
    for (let a = 0; a < k; a++) if (rnd() < chance) n++;
    return n;
  };
  const b = design === 'cached baseline' && cached ? cached : p;
  const first = design === 'every attempt' ? setup.maxAttempts : 1;
  const k = (i: number) => (split[i] === 'holdout' ? first : 1);
  const base = ids.map((id, i) => tally(id, split[i]!, k(i), draw(b[i]!, k(i))));
  const cand = ids.map((id, i) => tally(id, split[i]!, k(i), draw(q[i]!, k(i))));
  const s = settingsOf(setup);
  if (design === 'kept when it rose') {
    // The rule users fall back on: every task of both variants once, keep when the held-out rate rose.
    const rate = (ts: TaskTally[]) => ts.filter((t) => t.split === 'holdout').reduce((a, t) => a + t.passes, 0);
    return { keep: rate(cand) > rate(base), attempts: 1, calls: 2 * setup.tasks };
  }
  // The gate's evaluation on a noisy engine (src/measure/train-after-keep.ts): the held-out tasks of both
  // variants first; the candidate's train tasks once the held-out test keeps it (one attempt each, the
  // baseline's from the iteration's baseline stage, 0 calls). Train tallies decide nothing here.
  const firstCalls = 2 * setup.heldOut * first;
  const trainCalls = setup.tasks - setup.heldOut;
  const index = new Map(ids.map((id, i) => [id, i]));
  const outcome = await runRounds({
    settings: s,
    firstAttempts: first,
    baseline: base,
    candidate: cand,
    measure: async (_round, open, _purpose, side) => simulatedRound(open, side, { baseline: (id) => b[index.get(id)!]!, candidate: (id) => q[index.get(id)!]! }, (c) => draw(c, 1)),
  });
  const record = sequentialRecord(outcome, s, first, 1, { withPlan: false });
  // As the evaluate stage does: no train tasks for a keep the regression guard will undo (src/measure/guard-verdict.ts).
  const trained = record.decision === 'keep' && keepUndoneBy(record, setup.thresholds).length === 0;
  return { keep: gateKeeps(setup, base, cand, record), attempts: outcome.attempts, calls: firstCalls + outcome.engineCalls + (trained ? trainCalls : 0) };
}

/** One simulated run of one edit, decided by `design`; the same seed gives the same chances and coins. */
export async function trial(setup: TrialSetup, c: TrialCase, design: Design, seed: number): Promise<TrialResult> {
  const rnd = mulberry32(seed);
  const suite = suiteOf(setup, rnd);
  // The model as this run finds it: every chance moved by the drift since the cached baseline was measured.
  const now = suite.chances.map((x) => clip(x + (c.drift ?? 0)));
  const q = editedChances(suite, now, c, rnd);
  return decideOnce(setup, suite, now, q, design, rnd, suite.chances);
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
