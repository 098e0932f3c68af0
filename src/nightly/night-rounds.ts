// Tonight's rounds on a noisy engine (docs/method.md: Drift on a noisy engine): after the night's first
// measurement, one more attempt per task per round, each through the same `measure` the night used (a
// results file and cache entry of its own, `baseline.round-N`), until the drift test decides — drift,
// or no drift — or every task has had evaluate.max_attempts. The previous night's attempts are fixed, so
// only tonight's side grows; the design's boundaries at each look depend only on the looks before it.
import type { Counts, Look, SequentialSettings } from '../evaluation/sequential.js';
import { dropLook, nightPairs, type NoisyOutcome } from './drift-noisy.js';
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
  /** Tonight's first measurement, per task. */
  first: readonly { task_id: string; passes: number; judged: number; errors: number }[];
  /** The previous night's tasks with their recorded counts. */
  previous: readonly NightTask[];
  /** One more attempt per task, or 'interrupted' (budget, signal, rate limit): the night stops there. */
  measure: (round: number) => Promise<RoundCounts | 'interrupted'>;
  log?: (line: string) => void;
}

export interface NightRounds extends NoisyOutcome {
  /** Every task's attempts tonight over all rounds. */
  tonight: Map<string, Counts & { attempts: number }>;
  interrupted: boolean;
}

export async function runNightRounds(i: NightRoundsInput): Promise<NightRounds> {
  const tonight = new Map(i.first.map((t) => [t.task_id, { passes: t.passes, judged: t.judged, attempts: t.judged + t.errors }]));
  const looks: Look[] = [];
  const calls = { engine: 0, judge: 0 };
  let attempts = i.firstAttempts;
  let round = 1;
  const settings = { ...i.settings, maxAttempts: Math.max(i.settings.maxAttempts, i.firstAttempts) };
  let look = dropLook(looks, nightPairs(tonight, i.previous), { round, attempts }, settings);
  looks.push(look);
  while (look.decision === 'continue') {
    const m = await i.measure(round + 1);
    if (m === 'interrupted') return { looks, rounds: round, attempts, calls, tonight, interrupted: true };
    round++;
    attempts++;
    calls.engine += m.engineCalls;
    calls.judge += m.judgeCalls;
    for (const t of m.tasks) {
      const c = tonight.get(t.task_id) ?? { passes: 0, judged: 0, attempts: 0 };
      tonight.set(t.task_id, { passes: c.passes + t.passes, judged: c.judged + t.judged, attempts: c.attempts + t.judged + t.errors });
    }
    look = dropLook(looks, nightPairs(tonight, i.previous), { round, attempts }, settings);
    looks.push(look);
    i.log?.(`drift round ${round}: ${attempts} attempts per task tonight, z ${look.z ?? '—'} in [${look.lower ?? '−∞'}, ${look.upper ?? '∞'}] → ${look.decision === 'keep' ? 'drift' : look.decision === 'stop' ? 'no drift' : 'continue'}`);
  }
  return { looks, rounds: round, attempts, calls, tonight, interrupted: false };
}
