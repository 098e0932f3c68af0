// The regression guard's rounds in `whet plan` (docs/method.md: The plan). After the sequential test has
// decided, the guard follows the held-out tasks that still look worse (rounds.ts guardRounds); how many it
// follows, and for how long, depends on how each task's attempts fell before and after the decision, and
// has no closed form. So the plan runs the product's own rounds — the looks, the settling and the guard,
// runRounds unchanged — on simulated attempts at the plan's pass chances, with no effect and with an edit
// of held-out effect min_effect, and counts the attempts the guard's rounds add. Seeded: the same chances
// and settings give the same figure, so a plan can be compared with the next.
//
// Only `whet plan` runs it: one simulated candidate costs ≈ 10 ms on 20 held-out tasks and ≈ 15–30 ms on
// 300 (the looks' boundaries, the guard's exact tests), too much for the line printed before every run,
// which says the guard's rounds come on top.
import type { TaskTally } from '../evaluation/aggregate.js';
import { raisedChances } from '../evaluation/plan.js';
import type { SequentialSettings } from '../evaluation/sequential.js';
import { mulberry32 } from '../stats/index.js';
import { runRounds, type RoundMeasurement } from './rounds.js';

/** A task's tally after `k` attempts with `passes` passed, as the evaluation counts it (no errors). */
export function tally(id: string, split: 'train' | 'holdout', k: number, passes: number): TaskTally {
  return { task_id: id, category: 'general', split, negative: false, critical: false, k, judged: k, passes, errors: 0, timeouts: 0, bestScore: passes > 0 ? 1 : 0, reason: passes > 0 ? 'passed' : 'failed' };
}

/**
 * One round of a simulated model: an attempt on each open task for each side asked for — both, or the one
 * a guard round asks for — the baseline's coins drawn first.
 */
export function simulatedRound(open: readonly string[], side: 'baseline' | 'candidate' | undefined, chance: Record<'baseline' | 'candidate', (id: string) => number>, coin: (chance: number) => number): RoundMeasurement {
  return {
    baseline: side === 'candidate' ? [] : open.map((id) => tally(id, 'holdout', 1, coin(chance.baseline(id)))),
    candidate: side === 'baseline' ? [] : open.map((id) => tally(id, 'holdout', 1, coin(chance.candidate(id)))),
    engineCalls: (side ? 1 : 2) * open.length,
    judgeCalls: 0,
  };
}

/**
 * Simulated candidates per effect: 25 on a small suite, fewer as each grows dearer, never under 10 — about
 * half a second of `whet plan` on a 2-core machine from 20 to 300 held-out tasks (each look integrates the
 * design's boundaries again, ≈ 10 ms a candidate on 20 tasks). The standard error printed beside the figure
 * says what that buys: ± 3–6 calls on 20 tasks, ± 25–50 on 300.
 */
export function guardTrials(heldOut: number): number {
  return Math.max(10, Math.min(25, Math.round(500 / Math.max(1, heldOut))));
}

export interface GuardCalls {
  /** Mean attempts (both variants) the guard's rounds add per candidate, and the standard error of that mean. */
  mean: number;
  se: number;
}

/**
 * `trials` simulated evaluations of the held-out split whose chances are the baseline's `chances` under an
 * edit of held-out effect `effect` (plan.ts raisedChances), seeded `seed`, `seed + step`, …: each one's
 * attempts (both variants: the first round, the later rounds and the guard's) and the guard's alone.
 */
export async function simulatedEvaluations(chances: readonly number[], settings: SequentialSettings, firstAttempts: number, effect: number, trials: number, seed = 1, step = 7919): Promise<{ all: number; guard: number }[]> {
  const ids = chances.map((_, i) => `h${i}`);
  const index = new Map(ids.map((id, i) => [id, i]));
  const raised = raisedChances(chances, effect);
  const chance = { baseline: (id: string) => chances[index.get(id)!]!, candidate: (id: string) => raised[index.get(id)!]! };
  const out: { all: number; guard: number }[] = [];
  for (let t = 0; t < trials; t++) {
    const rnd = mulberry32(seed + t * step);
    const coin = (p: number) => (rnd() < p ? 1 : 0);
    const draw = (p: number) => {
      let n = 0;
      for (let a = 0; a < firstAttempts; a++) n += coin(p);
      return n;
    };
    const baseline = ids.map((id, i) => tally(id, 'holdout', firstAttempts, draw(chances[i]!)));
    const candidate = ids.map((id, i) => tally(id, 'holdout', firstAttempts, draw(raised[i]!)));
    const o = await runRounds({ settings, firstAttempts, baseline, candidate, measure: async (_round, open, _purpose, side) => simulatedRound(open, side, chance, coin) });
    out.push({ all: 2 * chances.length * firstAttempts + o.engineCalls, guard: o.guard.engineCalls });
  }
  return out;
}

/**
 * The guard's rounds on `trials` simulated candidates (simulatedEvaluations, from seed 1): the mean
 * attempts they add per candidate. Attempts, not calls: a caller multiplies by the calls an attempt makes
 * (the answer and its model-graded judges).
 */
export async function simulatedGuardAttempts(chances: readonly number[], settings: SequentialSettings, firstAttempts: number, effect: number, trials: number, seed = 1): Promise<GuardCalls> {
  const runs = await simulatedEvaluations(chances, settings, firstAttempts, effect, trials, seed);
  const mean = runs.reduce((a, r) => a + r.guard, 0) / trials;
  const variance = trials > 1 ? runs.reduce((a, r) => a + (r.guard - mean) ** 2, 0) / (trials - 1) : 0;
  return { mean, se: Math.sqrt(variance / trials) };
}
