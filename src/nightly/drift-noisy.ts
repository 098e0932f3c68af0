// Drift on a noisy engine (docs/method.md: Drift on a noisy engine). When the same task passes on one call
// and fails on the next, one result per task says little: a pass→fail flip is often a coin that fell the
// other way. So each night keeps every task's attempt counts, and tonight is compared with the previous
// night by the one-sided Cochran–Mantel–Haenszel score for a DROP, each task a stratum — the same score,
// continuity correction and group-sequential design the gate decides by (src/evaluation/sequential.ts),
// with the previous night on the side tested as better. The previous night's reference attempts are
// fixed; tonight runs its own (night-rounds.ts), then adds rounds of one attempt per task until the design
// says drift or no drift (futility against a drop of min_effect), or max_attempts. Under no change every
// task's attempts are exchangeable between the nights whatever its own chance, so an alert is raised in
// at most `significance` of such nights.
import { heldOutEffect, supportedRegressions } from '../evaluation/noisy-checks.js';
import { designSettings, lookAt, sequentialPValue, type Counts, type Look, type SequentialSettings, type TaskPair } from '../evaluation/sequential.js';
import type { NightSequential, NightTask } from './schema.js';
import { signedPoints as signed } from '../core/numbers.js';

export const NIGHT_METHOD =
  'Cochran–Mantel–Haenszel score for a drop, tonight’s attempts against the previous night’s per task (tasks as strata), one-sided, group-sequential with Hwang–Shih–DeCani error spending (docs/method.md: Drift on a noisy engine)';
export const MCNEMAR = 'exact McNemar';

/** A task's attempt counts as its night recorded them; undefined for a night recorded before they were. */
export function countsOf(t: NightTask): Counts | undefined {
  return t.passes !== undefined && t.judged !== undefined ? { passes: t.passes, judged: t.judged } : undefined;
}

/**
 * What a later night compares with: the attempts the night ran whatever their results (its reference
 * attempts, night-rounds.ts). Attempts a night added only because its own test was undecided are left
 * out: how many there were depends on what they showed, so they would lend the next night a reference
 * chosen by results. (When nights stopped as early as their test allowed and lent every attempt, the
 * next night saw a drop that was not there: 5.7% false alerts at 0.05 in simulated chains of nights.)
 */
export function referenceOf(t: NightTask): Counts | undefined {
  if (t.reference_passes !== undefined && t.reference_judged !== undefined) return { passes: t.reference_passes, judged: t.reference_judged };
  return countsOf(t);
}

/** A night that recorded attempt counts (nights before them are compared by status, as then). */
export const hasCounts = (tasks: readonly NightTask[]) => tasks.length > 0 && tasks.every((t) => countsOf(t) !== undefined);

/**
 * Tasks judged on both nights, tonight as the candidate and the previous night as the baseline (so an
 * effect below 0 is a drop). `tonight` may hold counts that differ from the record (rounds in progress).
 */
export function nightPairs(tonight: ReadonlyMap<string, Counts>, previous: readonly NightTask[]): TaskPair[] {
  const out: TaskPair[] = [];
  for (const b of previous) {
    const before = referenceOf(b);
    const now = tonight.get(b.task_id);
    if (before && now && before.judged > 0 && now.judged > 0) out.push({ task_id: b.task_id, candidate: { passes: now.passes, judged: now.judged }, baseline: { ...before } });
  }
  return out;
}

/** The same pairs with the previous night as the candidate: a "keep" of that test is a drop tonight. */
const asDrop = (pairs: readonly TaskPair[]): TaskPair[] => pairs.map((p) => ({ task_id: p.task_id, candidate: p.baseline, baseline: p.candidate }));

/** One look after `looks`, at `attempts` per task tonight. */
export function dropLook(looks: readonly Look[], pairs: readonly TaskPair[], at: { round: number; attempts: number }, s: SequentialSettings): Look {
  return lookAt(looks, asDrop(pairs), at, s);
}

export interface NoisyOutcome {
  looks: Look[];
  rounds: number;
  attempts: number;
  /** Attempts run whatever the results (src/nightly/night-rounds.ts): the next night's reference. */
  referenceAttempts: number;
  calls: { engine: number; judge: number };
}

/** The drift report's record of the test, from its looks and the counts it ended with. */
export function nightSequential(o: NoisyOutcome, pairs: readonly TaskPair[], s: SequentialSettings): NightSequential {
  const last = o.looks.at(-1)!;
  return {
    method: NIGHT_METHOD,
    settings: designSettings(s),
    looks: o.looks,
    decision: last.decision === 'keep' ? 'drift' : 'no drift',
    rounds: o.rounds,
    attempts: o.attempts,
    previous_attempts: pairs.reduce((m, p) => Math.max(m, p.baseline.judged), 0),
    reference_attempts: o.referenceAttempts,
    tasks: pairs.length,
    effect: heldOutEffect(pairs),
    p_value: sequentialPValue(o.looks, s),
    supported_drops: supportedRegressions(pairs, s.significance),
    calls: o.calls,
  };
}


/** Tonight minus the previous night, with its interval: "−0.12 (95% CI −0.20 to −0.04) over 40 task(s)". */
export function effectWords(q: Pick<NightSequential, 'effect'>): string {
  const e = q.effect;
  if (e.effect === null) return 'no task judged on both nights';
  const ci = e.low !== null && e.high !== null ? ` (${Math.round(e.confidence * 100)}% CI ${signed(e.low)} to ${signed(e.high)})` : '';
  return `${signed(e.effect)}${ci} over ${e.tasks} task(s)`;
}

/** The decision with what it rests on, for the alert, the dated report and `whet report --nightly`. */
export function sequentialWords(q: NightSequential): string {
  const last = q.looks.at(-1)!;
  const z = last.z === null ? 'no information' : `z ${last.z.toFixed(2)}`;
  const bound = q.decision === 'drift' ? `≥ ${last.upper?.toFixed(2)}` : last.final ? `< ${last.upper?.toFixed(2) ?? '∞'} at max_attempts` : last.tasks === 0 || last.z === null ? '' : `≤ ${last.lower?.toFixed(2) ?? '−∞'}`;
  return `${q.decision}: tonight − previous night ${effectWords(q)}, after ${q.attempts} attempt(s) per task tonight (previous night ${q.previous_attempts}, max ${q.settings.max_attempts}); ${z}${bound ? ` ${bound}` : ''}, p ${Number(q.p_value.toPrecision(3))} at significance ${q.settings.significance}`;
}
