// Rounds of attempts on the held-out tasks of a noisy engine (docs/method.md: Deciding on a noisy agent).
// After the first measurement each round adds one attempt per held-out task to the baseline and to the
// candidate, and the sequential design looks again; it stops as soon as keep or stop is decided, or at
// evaluate.max_attempts. Each round's attempts are a measurement of their own (results file, baseline
// cache entry keyed by the round), so a resumed run re-reads the rounds it finished and goes on with the
// one it was in. The baseline's attempts are made in the same rounds as the candidate's, never reused from
// another candidate or another run (issue 38: a model that changed in between is not credited to an edit).
// A task whose every attempt agreed, on both sides, stops getting attempts (after three each when all
// passed, four when all failed: SETTLE_AFTER): under the CMH score it carries no information, and whether
// it stops depends only on its margins, which under an edit that does nothing say nothing of the score —
// so the error control stays what the design spends.
// Once it has decided, the regression guard's rounds follow the held-out tasks that still look worse
// (guardRounds): their attempts are recorded apart, for the guard, and never reach the looks.
import type { TaskTally } from '../evaluation/aggregate.js';
import { lookAt, type Look, type SequentialSettings, type TaskPair } from '../evaluation/sequential.js';
import { toFollow } from '../evaluation/regression-guard.js';

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
  /**
   * One more attempt for both variants on each of `tasks` (the held-out tasks still uncertain), or for
   * `side` alone (the guard's rounds); 'interrupted' when a budget, signal or rate limit stopped it.
   */
  measure: (round: number, tasks: readonly string[], purpose: 'look' | 'guard', side?: 'candidate' | 'baseline') => Promise<RoundMeasurement | 'interrupted'>;
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
  /** The regression guard's rounds after the decision: the tasks it followed and their attempts past `pairs`. */
  guard: GuardRounds;
}

export interface GuardRounds {
  rounds: number;
  /** Only the attempts made after the decision, per followed task; `pairs` stays what the looks counted. */
  pairs: TaskPair[];
  engineCalls: number;
  judgeCalls: number;
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
    const m = await i.measure(round, open, 'look');
    if (m === 'interrupted') return { looks, pairs, rounds: round - 1, attempts: attempts - 1, engineCalls, judgeCalls, interrupted: true, settled: pairs.length - open.length, guard: noGuard() };
    engineCalls += m.engineCalls;
    judgeCalls += m.judgeCalls;
    addRound(pairs, m);
    look = lookAt(looks, pairs, { round, attempts }, i.settings);
    looks.push(look);
    const f = (x: number | null, inf: string) => (x === null ? inf : x.toFixed(2));
    const left = open.length < pairs.length ? ` (${open.length} of ${pairs.length} tasks still uncertain)` : '';
    i.log?.(`round ${round}: ${attempts} attempts per held-out task${left}, z ${f(look.z, '—')}; stop below ${f(look.lower, '−∞')}, keep at ${f(look.upper, '∞')} → ${look.decision}`);
  }
  const guard = await guardRounds(i, pairs, round, attempts, look.decision === 'keep' ? 'keep' : 'stop');
  if (guard === 'interrupted') return { looks, pairs, rounds: round, attempts, engineCalls, judgeCalls, interrupted: true, settled: pairs.filter(settled).length, guard: noGuard() };
  return { looks, pairs, rounds: round, attempts, engineCalls: engineCalls + guard.engineCalls, judgeCalls: judgeCalls + guard.judgeCalls, interrupted: false, settled: pairs.filter(settled).length, guard };
}

const noGuard = (): GuardRounds => ({ rounds: 0, pairs: [], engineCalls: 0, judgeCalls: 0 });

/**
 * After the decision, the held-out tasks that still look worse get more attempts (regression-guard.ts
 * toFollow), up to max_attempts: a round gives each the candidate's attempt first and the baseline's
 * only if the task is still worth following after it, so a task that drew level costs one call, not two.
 * The looks are closed: these attempts feed the guard alone, never the decision or its effect.
 */
async function guardRounds(i: RoundsInput, decided: readonly TaskPair[], lastRound: number, decidedAttempts: number, decision: 'keep' | 'stop'): Promise<GuardRounds | 'interrupted'> {
  const g = noGuard();
  const alpha = i.settings.run?.significance ?? i.settings.significance;
  const max = i.settings.maxAttempts;
  const now = new Map(decided.map((p) => [p.task_id, { task_id: p.task_id, candidate: { ...p.candidate }, baseline: { ...p.baseline } }]));
  const extra = new Map<string, TaskPair>();
  const made = new Map<string, { candidate: number; baseline: number }>();
  const left = (id: string) => ({ candidate: max - decidedAttempts - (made.get(id)?.candidate ?? 0), baseline: max - decidedAttempts - (made.get(id)?.baseline ?? 0) });
  const worth = (ids: readonly string[], atDecision: boolean) => toFollow(ids.map((id) => now.get(id)!), left, alpha, atDecision, decision);
  let open = worth([...now.keys()], true);
  while (open.length > 0) {
    const round = lastRound + g.rounds + 1;
    g.rounds++;
    for (const side of ['candidate', 'baseline'] as const) {
      const tasks = side === 'candidate' ? open.filter((id) => left(id).candidate > 0) : worth(open, false).filter((id) => left(id).baseline > 0);
      if (tasks.length === 0) continue;
      const m = await i.measure(round, tasks, 'guard', side);
      if (m === 'interrupted') return 'interrupted';
      g.engineCalls += m.engineCalls;
      g.judgeCalls += m.judgeCalls;
      for (const id of tasks) {
        if (!extra.has(id)) extra.set(id, { task_id: id, candidate: { passes: 0, judged: 0 }, baseline: { passes: 0, judged: 0 } });
        const n = made.get(id) ?? { candidate: 0, baseline: 0 };
        n[side]++;
        made.set(id, n);
      }
      addRound([...now.values()], m);
      addRound([...extra.values()], m);
    }
    const followed = open.length;
    open = worth(open, false);
    i.log?.(`guard round ${round}: ${followed} held-out task(s) that looked worse given another attempt${open.length ? `; ${open.length} still followed` : '; none left to follow'}`);
  }
  g.pairs = [...extra.values()];
  return g;
}

/**
 * The attempts each side a task that agreed with itself needs before it settles. Every attempt passed:
 * three each — no gain can show above 1, but a fall can: a task at 0.9 that fell to 0.3 still passes two
 * of two on both sides in 7% of runs, and the regression guard never sees it; at three each in 2%
 * (2,000 seeded runs, the guard following nearly every task behind: named in 83.4% of runs against 79.9%
 * at two, for about 5 calls more on the half-extreme suite). Every attempt failed: four each, since a gain
 * shows most on a task near 0 (0.02 → 0.27 under a +25-point edit), and at two each such a task still
 * fails all four in about half of runs. Measured on the half-extreme suite with β = 0.2 and all-pass ties
 * at two (scripts/settle-trials.ts, 2,000 seeded runs; docs/method.md: What it does on a noisy model):
 * settling those at two kept a +25-point edit in 87.6% of runs, at four in 92.7%, for 4 more calls; a
 * no-effect candidate costs 1.5 more there (6 on the ordinary suite), since its test mostly stops before
 * the extra rounds come.
 */
export const SETTLE_AFTER = { allPass: 3, allFail: 4 };

/** Every attempt of the task the same verdict on both sides, at SETTLE_AFTER's attempts each: the task adds nothing to the score. */
export function settled(p: TaskPair): boolean {
  const c = p.candidate;
  const b = p.baseline;
  if (c.passes === 0 && b.passes === 0) return c.judged >= SETTLE_AFTER.allFail && b.judged >= SETTLE_AFTER.allFail;
  return c.passes === c.judged && b.passes === b.judged && c.judged >= SETTLE_AFTER.allPass && b.judged >= SETTLE_AFTER.allPass;
}
