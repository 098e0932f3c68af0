// Seeded trials of what a user reads at the end of a run (issue 38): whole loops of several candidates on
// the simulated noisy model of decision-trials.ts, each candidate gated by whetstone's own rounds, artifact
// and gate at the run's per-candidate level, a kept candidate becoming the next iteration's baseline; and
// a deterministic engine on which every edit flips a few tasks each way. Used by
// test/integration/run-level-rates.test.ts (sized down) and `npm run bench`'s run-level table (full counts).
// The loop is simulated without its plateau stop, so every registered iteration gates a candidate: the
// most chances a run has to keep something by luck.
import { mulberry32 } from '../src/stats/index.js';
import { clip, decideOnce, editedChances, gateKeeps, meanOver, suiteOf, type TrialCase, type TrialSetup } from './decision-trials.js';
import { tally } from '../src/measure/guard-calls.js';

export interface LoopCase {
  name: string;
  iterations: number;
  /** The edit each iteration's candidate makes; by default none. */
  edits: (iteration: number) => TrialCase;
}

const NONE: TrialCase = { name: 'no effect', heldOutEffect: 0, trainEffect: 0 };
const PLUS25: TrialCase = { name: '+25 points', heldOutEffect: 0.25, trainEffect: 0.25 };

export const LOOP_CASES: LoopCase[] = [
  { name: '5 iterations, every candidate does nothing', iterations: 5, edits: () => NONE },
  { name: '10 iterations, every candidate does nothing', iterations: 10, edits: () => NONE },
  { name: '5 iterations, the third candidate +25, the others nothing', iterations: 5, edits: (i) => (i === 3 ? PLUS25 : NONE) },
];

export interface LoopResult {
  /** The run kept at least one candidate whose edit did nothing (or harm). */
  falseKeep: boolean;
  /** The held-out tasks' mean chance at the end is above the start's by 10 points or more. */
  endsBetter: boolean;
  keeps: number;
  calls: number;
}

/**
 * One whole run: `iterations` candidates, each gated against the skill as the run has it by then.
 * `uncorrected`: each candidate at the run's whole significance (max_iterations taken as 1), the defect
 * the per-candidate level exists to prevent — what the trials must be able to tell apart.
 */
export async function loopTrial(setup: TrialSetup, c: LoopCase, seed: number, uncorrected = false): Promise<LoopResult> {
  const rnd = mulberry32(seed);
  const suite = suiteOf(setup, rnd);
  const loop = { ...setup, maxIterations: uncorrected ? 1 : c.iterations };
  let current = suite.chances;
  let falseKeep = false;
  let keeps = 0;
  let calls = 0;
  for (let i = 1; i <= c.iterations; i++) {
    const edit = c.edits(i);
    const q = editedChances(suite, current, edit, rnd);
    const r = await decideOnce(loop, suite, current, q, 'whetstone', rnd);
    calls += r.calls;
    if (!r.keep) continue;
    keeps++;
    if (edit.heldOutEffect <= 0) falseKeep = true;
    current = q;
  }
  const held = (p: readonly number[]) => p.slice(0, setup.heldOut).reduce((a, x) => a + x, 0) / setup.heldOut;
  return { falseKeep, endsBetter: held(current) - held(suite.chances) >= 0.1, keeps, calls };
}

export async function loopRates(setup: TrialSetup, c: LoopCase, trials: number, seed0 = 1, uncorrected = false) {
  return meanOver(trials, seed0, (seed) => loopTrial(setup, c, seed, uncorrected));
}

/**
 * A deterministic engine (temperature 0): every task has one answer per skill text. An edit that does
 * nothing on average still changes some answers: each task independently turns right with chance `flip`
 * and wrong with chance `flip`. Decided by the gate's exact path (one-sided sign test at the per-candidate
 * level), beside the rule it replaced: kept when the held-out rate rose with no new failure.
 */
export async function deterministicTrial(setup: TrialSetup, flip: number, seed: number): Promise<{ keep: boolean; keptWhenRose: boolean }> {
  const rnd = mulberry32(seed);
  const suite = suiteOf(setup, rnd);
  const base = suite.chances.map((x) => (rnd() < x ? 1 : 0));
  const cand = base.map((b) => {
    const u = rnd();
    return u < flip ? 1 : u < 2 * flip ? 0 : b;
  });
  const bt = suite.ids.map((id, i) => tally(id, suite.split[i]!, 1, base[i]!));
  const ct = suite.ids.map((id, i) => tally(id, suite.split[i]!, 1, cand[i]!));
  const held = (xs: number[]) => xs.slice(0, setup.heldOut).reduce((a, x) => a + x, 0);
  const newFailure = base.some((b, i) => b === 1 && cand[i] === 0);
  return { keep: gateKeeps(setup, bt, ct), keptWhenRose: held(cand) > held(base) && !newFailure };
}

export async function deterministicRates(setup: TrialSetup, flip: number, trials: number, seed0 = 1) {
  return meanOver(trials, seed0, (seed) => deterministicTrial(setup, flip, seed));
}

/** The per-task effect cases of issue 38 (mean 0, sd 0.2) and the model that got 10 points easier. */
export const POPULATION_CASE: TrialCase = { name: 'per-task effects, mean 0, sd 0.2', heldOutEffect: 0, trainEffect: 0, taskSd: 0.2 };
export const DRIFT_CASE: TrialCase = { name: 'model 10 points easier since the cached baseline, edit does nothing', heldOutEffect: 0, trainEffect: 0, drift: 0.1 };
export { clip };
