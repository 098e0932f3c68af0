// Tonight's rounds on a noisy engine (docs/method.md: Drift on a noisy engine): after the night's first
// measurement, one more attempt per task per round, each through the same `measure` the night used (a
// results file and cache entry of its own, `baseline.round-N`). Tonight first runs its reference attempts
// whatever they show — the plan's number, and what the next night will compare with — and looks there;
// then it adds rounds until the drift test decides (drift, or no drift) or max_attempts. The previous
// night's reference is fixed, so only tonight's side grows; each look's boundaries depend only on the
// looks before it. A night whose every attempt passed stops at once: no drop can show.
import { planFigures, TARGET_POWER } from '../evaluation/plan.js';
import type { Counts, Look, SequentialSettings } from '../evaluation/sequential.js';
import { chanceOf } from '../measure/held-out-rounds.js';
import { dropLook, nightPairs, referenceOf, type NoisyOutcome } from './drift-noisy.js';
import type { NightTask } from './schema.js';

export interface RoundCounts {
  /** Tonight's attempts of this round per task: judged and passed. */
  tasks: { task_id: string; passes: number; judged: number; errors: number }[];
  engineCalls: number;
  judgeCalls: number;
}

export interface NightRoundsInput {
  settings: SequentialSettings;
  /** Attempts per task in the night's first measurement (pass_k). */
  firstAttempts: number;
  /** Attempts tonight runs whatever their results, where the test first looks (referenceAttempts). */
  reference: number;
  /** Tonight's first measurement, per task. */
  first: readonly { task_id: string; passes: number; judged: number; errors: number }[];
  /** The previous night's tasks with their recorded counts. */
  previous: readonly NightTask[];
  /** One more attempt per task, or 'interrupted' (budget, signal, rate limit): the night stops there. */
  measure: (round: number) => Promise<RoundCounts | 'interrupted'>;
  log?: (line: string) => void;
}

export type TonightCounts = Counts & { attempts: number; reference: Counts };

export interface NightRounds extends NoisyOutcome {
  /** Every task's attempts tonight over all rounds, and of them the reference attempts'. */
  tonight: Map<string, TonightCounts>;
  interrupted: boolean;
}

/**
 * The attempts every noisy night with a previous night runs before its test first looks: the fewest that
 * would give a fixed comparison of two nights with that many attempts each 80% power for a drop of
 * min_effect (src/evaluation/plan.ts, at the previous night's pass chances), at most max_attempts. They
 * are also what the next night compares with, so every night is as good a reference as the plan asks.
 */
export function referenceAttempts(previous: readonly NightTask[], s: SequentialSettings, firstAttempts: number): number {
  const max = Math.max(s.maxAttempts, firstAttempts);
  const chances = previous.flatMap((t) => {
    const c = referenceOf(t);
    return c && c.judged > 0 ? [chanceOf(c)] : [];
  });
  if (chances.length === 0) return firstAttempts;
  for (let m = firstAttempts; m < max; m++) if (planFigures({ chances, settings: { ...s, maxAttempts: m }, firstAttempts: m }).power >= TARGET_POWER) return m;
  return max;
}

export async function runNightRounds(i: NightRoundsInput): Promise<NightRounds> {
  const settings = { ...i.settings, maxAttempts: Math.max(i.settings.maxAttempts, i.firstAttempts) };
  const reference = Math.min(settings.maxAttempts, Math.max(i.firstAttempts, i.reference));
  const tonight = new Map<string, TonightCounts>(i.first.map((t) => [t.task_id, { passes: t.passes, judged: t.judged, attempts: t.judged + t.errors, reference: { passes: t.passes, judged: t.judged } }]));
  const looks: Look[] = [];
  const calls = { engine: 0, judge: 0 };
  let attempts = i.firstAttempts;
  let round = 1;
  const done = (interrupted: boolean): NightRounds => ({ looks, rounds: round, attempts, referenceAttempts: Math.min(attempts, reference), calls, tonight, interrupted });
  const pairs = () => nightPairs(tonight, i.previous);
  // Tonight passed every attempt of every task compared (or none is): no drop can show, no round is run.
  const first = pairs();
  if (first.every((p) => p.candidate.passes === p.candidate.judged)) {
    looks.push(dropLook(looks, first, { round, attempts }, settings));
    return done(false);
  }
  while (true) {
    if (attempts >= reference) {
      const look = dropLook(looks, pairs(), { round, attempts }, settings);
      looks.push(look);
      i.log?.(`drift round ${round}: ${attempts} attempts per task tonight, z ${look.z ?? '—'} in [${look.lower ?? '−∞'}, ${look.upper ?? '∞'}] → ${look.decision === 'keep' ? 'drift' : look.decision === 'stop' ? 'no drift' : 'continue'}`);
      if (look.decision !== 'continue') return done(false);
    }
    const m = await i.measure(round + 1);
    if (m === 'interrupted') return done(true);
    round++;
    attempts++;
    calls.engine += m.engineCalls;
    calls.judge += m.judgeCalls;
    for (const t of m.tasks) {
      const c = tonight.get(t.task_id) ?? { passes: 0, judged: 0, attempts: 0, reference: { passes: 0, judged: 0 } };
      const ref = attempts <= reference ? { passes: c.reference.passes + t.passes, judged: c.reference.judged + t.judged } : c.reference;
      tonight.set(t.task_id, { passes: c.passes + t.passes, judged: c.judged + t.judged, attempts: c.attempts + t.judged + t.errors, reference: ref });
    }
  }
}
