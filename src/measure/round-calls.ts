// The attempts a noisy evaluation's later rounds are expected to make, for the plan's calls (docs/method.md:
// The plan). Each round after a look adds one attempt per variant to every held-out task still open, and a
// task whose every attempt agreed on both sides settles (rounds.ts SETTLE_AFTER) and gets no more: on a
// suite whose tasks nearly always pass or fail, most of them settle by the fourth round, and counting every
// task in every round put a +10-point candidate's calls a fifth too high there. The design's chance of
// going on after each look comes from its own boundaries (plan.ts LookSurvival); a task's chance of being
// open there, from its pass chances, taken as independent of the test's stopping.
import type { LookSurvival } from '../evaluation/plan.js';
import { SETTLE_AFTER } from './rounds.js';

/** The chance that a task whose chances are p (baseline) and q (candidate) is still open after m attempts each, the first look at `first`. */
export function openChance(p: number, q: number, m: number, first: number): number {
  // A task is first checked where it has both its first attempts and SETTLE_AFTER's.
  const pass = Math.max(SETTLE_AFTER.allPass, first);
  const fail = Math.max(SETTLE_AFTER.allFail, first);
  let settled = 0;
  if (m >= pass) settled += (p * q) ** pass;
  if (m >= fail) settled += ((1 - p) * (1 - q)) ** fail;
  return 1 - settled;
}

/**
 * Attempts (both variants) the rounds after the first look are expected to add, each held-out task counted
 * at `weights[t]` (its engine calls per attempt), the baseline's chances `chances` and the candidate's
 * `candidate` (plan.ts raisedChances for an effect; the same for none).
 */
export function laterRoundAttempts(chances: readonly number[], candidate: readonly number[], weights: readonly number[], survival: LookSurvival, which: 'none' | 'minEffect', first: number): number {
  const after = survival[which];
  let total = 0;
  for (let k = 0; k < after.length; k++) {
    if (!(after[k]! > 0)) continue;
    const m = survival.attempts[k]!;
    let open = 0;
    for (let t = 0; t < chances.length; t++) open += weights[t]! * openChance(chances[t]!, candidate[t]!, m, first);
    total += after[k]! * 2 * open;
  }
  return total;
}
