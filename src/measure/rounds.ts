// Rounds of attempts on the held-out tasks of a noisy engine (docs/method.md: Deciding on a noisy agent).
// After the first measurement each round adds one attempt per held-out task to the baseline and to the
// candidate, and the sequential design looks again; it stops as soon as keep or stop is decided, or at
// evaluate.max_attempts. Each round's attempts are a measurement of their own (results file, baseline
// cache entry keyed by the round), so a resumed run re-reads the rounds it finished and goes on with the
// one it was in. The baseline's attempts are made in the same rounds as the candidate's, never reused from
// another candidate or another run (issue 38: a model that changed in between is not credited to an edit).
// A task whose every attempt agreed, on both sides, after two each stops getting attempts: under the CMH
// score it carries no information, and whether it stops depends only on its margins, which under an edit
// that does nothing say nothing of the score — so the error control stays what the design spends.
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
  /** One more attempt for both variants on each of `tasks` (the held-out tasks still uncertain), or 'interrupted' (budget, signal, rate limit). */
  measure: (round: number, tasks: readonly string[]) => Promise<RoundMeasurement | 'interrupted'>;
  log?: (line: string) => void;
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
  /** Held-out tasks that stopped early because every attempt agreed on both sides. */
  settled: number;
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
    const open = pairs.filter((p) => !settled(p)).map((p) => p.task_id);
    if (open.length === 0) {
      // Every task agreed with itself on both sides: more attempts can add no information, so it stops here.
      look.decision = 'stop';
      i.log?.(`round ${round}: every held-out task gave one verdict on all of its attempts on both variants: stopped (no evidence either way can come)`);
      break;
    }
    round++;
    attempts++;
    const m = await i.measure(round, open);
    if (m === 'interrupted') return { looks, pairs, rounds: round - 1, attempts: attempts - 1, engineCalls, judgeCalls, interrupted: true, settled: pairs.length - open.length };
    engineCalls += m.engineCalls;
    judgeCalls += m.judgeCalls;
    addRound(pairs, m);
    look = lookAt(looks, pairs, { round, attempts }, i.settings);
    looks.push(look);
    const f = (x: number | null, inf: string) => (x === null ? inf : x.toFixed(2));
    const left = open.length < pairs.length ? ` (${open.length} of ${pairs.length} tasks still uncertain)` : '';
    i.log?.(`round ${round}: ${attempts} attempts per held-out task${left}, z ${f(look.z, '—')}; stop below ${f(look.lower, '−∞')}, keep at ${f(look.upper, '∞')} → ${look.decision}`);
  }
  return { looks, pairs, rounds: round, attempts, engineCalls, judgeCalls, interrupted: false, settled: pairs.filter(settled).length };
}

/** Two attempts at least on each side, every one of them the same verdict: the task adds nothing to the score. */
export function settled(p: TaskPair): boolean {
  const c = p.candidate;
  const b = p.baseline;
  if (c.judged < 2 || b.judged < 2) return false;
  return (c.passes === 0 && b.passes === 0) || (c.passes === c.judged && b.passes === b.judged);
}
