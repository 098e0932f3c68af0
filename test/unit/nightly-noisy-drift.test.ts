// Drift on a noisy engine (issue 27 item 7), measured: seeded simulated nights through the real rounds
// loop (runNightRounds) and the real comparison (compareNights), 40 tasks whose pass chances lie between
// 0.3 and 0.8. Each trial is a chain of nights as `whet nightly` makes them: a first night of one attempt
// per task, a second night with nothing changed (its rounds against the first), and a third night that
// is tested — nothing changed, or every task's chance down by 0.10 or 0.25. The third night's reference
// is the second night's attempts, whatever its own test took, as it would be in use.
import { describe, expect, it } from 'vitest';
import { compareNights } from '../../src/nightly/drift.js';
import { runNightRounds } from '../../src/nightly/night-rounds.js';
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
  const outcome = previous ? await runNightRounds({ settings: SETTINGS, firstAttempts: 1, first, previous: previous.tasks, measure: async () => ({ tasks: attempt(), engineCalls: TASKS, judgeCalls: 0 }) }) : undefined;
  const tasks: NightTask[] = first.map((f) => {
    const c = outcome?.tonight.get(f.task_id) ?? { passes: f.passes, judged: 1, attempts: 1 };
    return { task_id: f.task_id, category: 'c', status: f.passes ? 'pass' : 'fail', attempts: c.attempts, judged: c.judged, passes: c.passes };
  });
  const rec = record(tasks);
  const drift = compareNights(rec, previous && { ...previous, label: 'last night' }, SETTINGS.significance, undefined, { minEffect: SETTINGS.minEffect, maxAttempts: SETTINGS.maxAttempts, ...(outcome ? { outcome } : {}) });
  return { rec, drift, attempts: outcome?.attempts ?? 1 };
}

async function trials(drop: number, seed: number) {
  const r = rng(seed);
  let alerts = 0;
  let secondNight = 0;
  let attempts = 0;
  let reference = 0;
  for (let k = 0; k < TRIALS; k++) {
    const chances = ids.map(() => 0.3 + 0.5 * r());
    const n0 = await night(chances, undefined, r);
    const n1 = await night(chances, n0.rec, r);
    const n2 = await night(chances.map((p) => Math.max(0, p - drop)), n1.rec, r);
    expect(n2.drift.test).toMatch(/^Cochran–Mantel–Haenszel/);
    if (n2.drift.alert) alerts++;
    // The second night changed nothing either: against a first night of one attempt per task.
    if (n1.drift.alert) secondNight++;
    attempts += n2.attempts;
    reference += n1.attempts;
  }
  return { rate: alerts / TRIALS, secondNight: secondNight / TRIALS, attempts: attempts / TRIALS, reference: reference / TRIALS };
}

describe('drift on a noisy engine, simulated (40 tasks, chances 0.3–0.8, 200 chains of nights each)', () => {
  it('raises an alert on a night that differs only by noise at most at the registered 0.05, and catches a drop of 0.25 on every task', async () => {
    const none = await trials(0, 27);
    const small = await trials(0.1, 28);
    const large = await trials(0.25, 29);
    const row = (name: string, x: typeof none) => ({ case: name, alert_rate: x.rate, attempts_tonight: Number(x.attempts.toFixed(2)), attempts_last_night: Number(x.reference.toFixed(2)), second_night_false_alerts: x.secondNight });
    console.table([row('nothing changed', none), row('drop 0.10', small), row('drop 0.25', large)]);
    expect(none.rate).toBeLessThanOrEqual(0.05);
    // Every second night changed nothing (600 of them, against one attempt per task): noise alone.
    expect((none.secondNight + small.secondNight + large.secondNight) / 3).toBeLessThanOrEqual(0.05);
    expect(large.rate).toBeGreaterThanOrEqual(0.85);
    // A real drop of min_effect is caught far more often than noise raises an alert.
    expect(small.rate).toBeGreaterThan(4 * Math.max(none.rate, 0.05));
  }, 120_000);
});
