// Rounds of attempts on the held-out tasks of a noisy engine (docs/method.md: Deciding on a noisy agent).
// After the first measurement each round adds one attempt per held-out task to the baseline and to the
// candidate, and the sequential design looks again; it stops as soon as keep or stop is decided, or at
// evaluate.max_attempts. Each round's attempts are a measurement of their own (results file, baseline
// cache entry keyed by the round), so a resumed run re-reads the rounds it finished and goes on with the
// one it was in, and every later candidate of the run reuses the baseline's rounds instead of paying again.
import type { TaskTally } from '../evaluation/aggregate.js';
import { lookAt, type Look, type SequentialSettings, type TaskPair } from '../evaluation/sequential.js';

export interface RoundMeasurement {
  baseline: TaskTally[];
  candidate: TaskTally[];
  engineCalls: number;
  judgeCalls: number;
}

export interface RoundsInput {
  settings: SequentialSettings;
  /** Attempts per task in the first measurement (the suite's pass_k). */
  firstAttempts: number;
  baseline: readonly TaskTally[];
  candidate: readonly TaskTally[];
  /** One more attempt per held-out task for both variants, or 'interrupted' (budget, signal, rate limit). */
  measure: (round: number) => Promise<RoundMeasurement | 'interrupted'>;
  log?: (line: string) => void;
  /**
   * `auto`: an engine not known to be deterministic is watched: when every held-out task gave the same
   * verdict on every attempt of both variants (two at least), the rounds stop and say so.
   */
  watchDeterminism?: boolean;
}

export interface RoundsOutcome {
  looks: Look[];
  pairs: TaskPair[];
  rounds: number;
  /** Attempts per held-out task per variant when it stopped. */
  attempts: number;
  engineCalls: number;
  judgeCalls: number;
  interrupted: boolean;
  /** Set when the attempts showed an engine that answers the same way every time (watchDeterminism). */
  sameEveryTime?: string;
}

/** Held-out tasks' attempt counts, summed over the measurements so far, paired by task. */
export function pairsOf(baseline: readonly TaskTally[], candidate: readonly TaskTally[]): TaskPair[] {
  const base = new Map<string, TaskPair['baseline']>();
  for (const t of baseline) if (t.split === 'holdout') base.set(t.task_id, { passes: t.passes, judged: t.judged });
  const out: TaskPair[] = [];
  for (const t of candidate) {
    const b = base.get(t.task_id);
    if (t.split === 'holdout' && b) out.push({ task_id: t.task_id, candidate: { passes: t.passes, judged: t.judged }, baseline: { ...b } });
  }
  return out;
}

function addRound(pairs: TaskPair[], m: RoundMeasurement): void {
  const byId = new Map(pairs.map((p) => [p.task_id, p]));
  for (const [side, tallies] of [['baseline', m.baseline], ['candidate', m.candidate]] as const) {
    for (const t of tallies) {
      const p = byId.get(t.task_id);
      if (!p) continue;
      p[side].passes += t.passes;
      p[side].judged += t.judged;
    }
  }
}

export async function runRounds(i: RoundsInput): Promise<RoundsOutcome> {
  const pairs = pairsOf(i.baseline, i.candidate);
  const looks: Look[] = [];
  let attempts = i.firstAttempts;
  let round = 1;
  let engineCalls = 0;
  let judgeCalls = 0;
  let look = lookAt(looks, pairs, { round, attempts }, i.settings);
  looks.push(look);
  while (look.decision === 'continue') {
    const same = i.watchDeterminism ? sameEveryTime(pairs) : undefined;
    if (same) return { looks, pairs, rounds: round, attempts, engineCalls, judgeCalls, interrupted: false, sameEveryTime: same };
    round++;
    attempts++;
    const m = await i.measure(round);
    if (m === 'interrupted') return { looks, pairs, rounds: round - 1, attempts: attempts - 1, engineCalls, judgeCalls, interrupted: true };
    engineCalls += m.engineCalls;
    judgeCalls += m.judgeCalls;
    addRound(pairs, m);
    look = lookAt(looks, pairs, { round, attempts }, i.settings);
    looks.push(look);
    const f = (x: number | null, inf: string) => (x === null ? inf : x.toFixed(2));
    i.log?.(`round ${round}: ${attempts} attempts per held-out task, z ${f(look.z, '—')}; stop below ${f(look.lower, '−∞')}, keep at ${f(look.upper, '∞')} → ${look.decision}`);
  }
  return { looks, pairs, rounds: round, attempts, engineCalls, judgeCalls, interrupted: false };
}

/**
 * Why the attempts look like an engine that answers the same way every time, or undefined. Two attempts
 * of each variant on every held-out task, each task's verdicts all alike: a model whose tasks pass
 * between 0.3 and 0.8 of the time does that on 20 tasks about once in a million runs.
 */
export function sameEveryTime(pairs: readonly TaskPair[]): string | undefined {
  const alike = (c: TaskPair['baseline']) => c.judged >= 2 && (c.passes === 0 || c.passes === c.judged);
  // Tasks that errored on a side say nothing of how the engine answers; the others must all agree.
  const seen = pairs.filter((p) => p.candidate.judged > 0 && p.baseline.judged > 0);
  if (seen.length === 0 || !seen.every((p) => alike(p.candidate) && alike(p.baseline))) return undefined;
  const n = Math.min(...seen.flatMap((p) => [p.candidate.judged, p.baseline.judged]));
  return `every held-out task gave the same verdict on all of its attempts (at least ${n} per variant): the engine answers the same way every time, so one attempt per task decides (set evaluate.deterministic: true to skip the second attempt)`;
}
