// Drift on a noisy engine (issue 27 item 7), measured: seeded simulated nights through the real rounds
// loop (runNightRounds, with the reference attempts the nightly plans) and the real comparison
// (compareNights), 40 tasks whose pass chances lie between 0.3 and 0.8. Each trial is a chain of nights as
// `whet nightly` makes them: a first night of one attempt per task, four nights with nothing changed (each
// with its rounds against the one before), and a sixth that is tested — nothing changed, or every task's
// chance down by 0.10 or 0.25. A chain, not a pair, because each night is the next one's reference: a
// reference chosen by its own night's stopping rule raised false alerts to 5.7% in such chains.
import { describe, expect, it } from 'vitest';
import { compareNights } from '../../src/nightly/drift.js';
import { referenceAttempts, runNightRounds } from '../../src/nightly/night-rounds.js';
import type { NightRecord, NightTask } from '../../src/nightly/schema.js';
import type { SequentialSettings } from '../../src/evaluation/sequential.js';

const SETTINGS: SequentialSettings = { significance: 0.05, minEffect: 0.1, maxAttempts: 10 };
const TASKS = 40;
const TRIALS = 200;

/** mulberry32: a small seeded generator, so every run of this test sees the same nights. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

async function trials(drop: number, seed: number) {
  const r = rng(seed);
  let alerts = 0;
  let attempts = 0;
  let nullNights = 0;
  let nullAlerts = 0;
  for (let k = 0; k < TRIALS; k++) {
    const chances = ids.map(() => 0.3 + 0.5 * r());
    let last = (await night(chances, undefined, r)).rec;
    for (let n = 1; n <= 4; n++) {
      const same = await night(chances, last, r);
      // The second night's reference is the first night's one attempt per task; from the third on, a planned one.
      if (n >= 2) (nullNights++, same.drift.alert && nullAlerts++);
      last = same.rec;
    }
    const tested = await night(chances.map((p) => p - drop), last, r);
    expect(tested.drift.test).toMatch(/^Cochran–Mantel–Haenszel/);
    if (tested.drift.alert) alerts++;
    attempts += tested.attempts;
  }
  return { rate: alerts / TRIALS, attempts: attempts / TRIALS, nullNights, nullAlerts };
}

describe('drift on a noisy engine, simulated (40 tasks, chances 0.3–0.8, 200 chains of six nights per case)', () => {
  it('raises an alert on nights that differ only by noise at most at the registered 0.05, and catches a drop of 0.25 on every task', async () => {
    const none = await trials(0, 27);
    const small = await trials(0.1, 28);
    const large = await trials(0.25, 29);
    const row = (name: string, x: typeof none) => ({ case: name, alert_rate: x.rate, attempts_per_task: Number(x.attempts.toFixed(2)) });
    const pooled = [none, small, large].reduce((a, x) => ({ nights: a.nights + x.nullNights, alerts: a.alerts + x.nullAlerts }), { nights: TRIALS, alerts: none.rate * TRIALS });
    console.table([row('nothing changed', none), row('drop 0.10', small), row('drop 0.25', large), { case: `every night with nothing changed (${pooled.nights})`, alert_rate: Number((pooled.alerts / pooled.nights).toFixed(4)) }]);
    expect(none.rate).toBeLessThanOrEqual(0.05);
    // 1,800 more nights that changed nothing, each against a night that ran its own rounds.
    expect(pooled.alerts / pooled.nights).toBeLessThanOrEqual(0.05);
    expect(large.rate).toBeGreaterThanOrEqual(0.85);
    // A real drop of min_effect is caught far more often than noise raises an alert.
    expect(small.rate).toBeGreaterThanOrEqual(0.7);
  }, 300_000);
});
