// Drift on a noisy engine (issue 27 item 7), simulated: seeded chains of nights through the real rounds loop
// (runNightRounds, with the reference attempts the nightly plans) and the real comparison (compareNights),
// 40 tasks whose pass chances lie between 0.3 and 0.8. Each trial is a chain of nights as `whet nightly`
// makes them: a first night of one attempt per task, four nights with nothing changed (each with its rounds
// against the one before), and a sixth that is tested — nothing changed, or every task's chance down by
// `drop`. A chain, not a pair, because each night is the next one's reference: a reference chosen by its own
// night's stopping rule raised false alerts to 5.7% in such chains. Used by
// test/unit/nightly-noisy-drift.test.ts (a count sized for the suite) and `npm run bench` (the full count).
import { compareNights } from '../src/nightly/drift.js';
import { mulberry32 } from '../src/stats/index.js';
import { referenceAttempts, runNightRounds } from '../src/nightly/night-rounds.js';
import type { NightRecord, NightTask } from '../src/nightly/schema.js';
import type { SequentialSettings } from '../src/evaluation/sequential.js';

export interface DriftRates {
  /** The share of chains whose tested night raised an alert. */
  rate: number;
  /** Mean attempts per task of the tested night. */
  attempts: number;
  /** Nights with nothing changed tested against a night with its own rounds, and their alerts. */
  nullNights: number;
  nullAlerts: number;
}

export const SETTINGS: SequentialSettings = { significance: 0.05, minEffect: 0.1, maxAttempts: 10 };
export const TASKS = 40;

const ids = Array.from({ length: TASKS }, (_, i) => `t${i}`);

function record(tasks: NightTask[]): NightRecord {
  return {
    target: '/s', target_key: 'k', label: '/s', suite: '/s/tasks.yaml', pass_rate: 0,
    skill_sha256: 's', suite_sha256: 'u', engine_sha256: 'e', judge_engine_sha256: 'j',
    settings: { pass_k: 1, task_timeout_ms: 1 },
    noise: { deterministic: false, why: 'simulated noisy engine' },
    tasks,
  };
}

/** One night: one attempt per task, then rounds against `previous` (when it has counts) as the nightly runs them. */
async function night(chances: number[], previous: NightRecord | undefined, r: () => number) {
  const attempt = () => chances.map((p, i) => ({ task_id: ids[i]!, passes: r() < p ? 1 : 0, judged: 1, errors: 0 }));
  const first = attempt();
  const outcome = previous
    ? await runNightRounds({ settings: SETTINGS, firstAttempts: 1, reference: referenceAttempts(previous.tasks, SETTINGS, 1), first, previous: previous.tasks, measure: async () => ({ tasks: attempt(), engineCalls: TASKS, judgeCalls: 0 }) })
    : undefined;
  const tasks: NightTask[] = first.map((f) => {
    const c = outcome?.tonight.get(f.task_id);
    const counts = c ? { attempts: c.attempts, judged: c.judged, passes: c.passes, reference_judged: c.reference.judged, reference_passes: c.reference.passes } : { attempts: 1, judged: 1, passes: f.passes };
    return { task_id: f.task_id, category: 'c', status: f.passes ? 'pass' : 'fail', ...counts };
  });
  const rec = record(tasks);
  const drift = compareNights(rec, previous && { ...previous, label: 'last night' }, SETTINGS.significance, undefined, { minEffect: SETTINGS.minEffect, maxAttempts: SETTINGS.maxAttempts, ...(outcome ? { outcome } : {}) });
  return { rec, drift, attempts: outcome?.attempts ?? 1 };
}

/** `trials` seeded chains of six nights, the sixth with every task's chance down by `drop`. */
export async function driftTrials(drop: number, seed: number, trials: number): Promise<DriftRates> {
  // mulberry32, seeded: every run of this test sees the same nights.
  const r = mulberry32(seed);
  let alerts = 0;
  let attempts = 0;
  let nullNights = 0;
  let nullAlerts = 0;
  for (let k = 0; k < trials; k++) {
    const chances = ids.map(() => 0.3 + 0.5 * r());
    let last = (await night(chances, undefined, r)).rec;
    for (let n = 1; n <= 4; n++) {
      const same = await night(chances, last, r);
      // The second night's reference is the first night's one attempt per task; from the third on, a planned one.
      if (n >= 2) (nullNights++, same.drift.alert && nullAlerts++);
      last = same.rec;
    }
    const tested = await night(chances.map((p) => p - drop), last, r);
    if (!tested.drift.test?.startsWith('Cochran–Mantel–Haenszel')) throw new Error(`drift tested by ${tested.drift.test}, not the CMH score`);
    if (tested.drift.alert) alerts++;
    attempts += tested.attempts;
  }
  return { rate: alerts / trials, attempts: attempts / trials, nullNights, nullAlerts };
}
