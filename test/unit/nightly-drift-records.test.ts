// Which test a night is compared by (issue 27 item 7): nights recorded before attempt counts were kept,
// and deterministic engines, are compared by exact McNemar exactly as before; a noisy night with counts
// on both sides by the CMH drift test, where one critical task flipping is not an alert.
import { describe, expect, it } from 'vitest';
import { compareNights } from '../../src/nightly/drift.js';
import { nightPairs } from '../../src/nightly/drift-noisy.js';
import { referenceAttempts, runNightRounds } from '../../src/nightly/night-rounds.js';
import type { NightRecord, NightTask } from '../../src/nightly/schema.js';

const noisy = { deterministic: false, why: 'command answers may vary from call to call (evaluate.deterministic: auto)' };

function night(tasks: NightTask[], over: Partial<NightRecord> = {}): NightRecord {
  return {
    target: '/s/notes', target_key: 'k1', label: '/s/notes', suite: '/s/notes/tasks.yaml', pass_rate: 0,
    skill_sha256: 'sha256:skill', suite_sha256: 'sha256:suite', engine_sha256: 'sha256:engine', judge_engine_sha256: 'sha256:judge',
    settings: { pass_k: 1, task_timeout_ms: 600_000 },
    tasks,
    ...over,
  };
}
const prev = (r: NightRecord) => ({ ...r, label: '2026-11-01 (run-1)' });
/** Ten tasks, the first `fail` of them failing; with counts (one attempt each) unless `old`. */
const tasks = (fail: number, old = false): NightTask[] =>
  Array.from({ length: 10 }, (_, i) => ({ task_id: `n${i}`, category: 'c', status: i < fail ? 'fail' : 'pass', ...(i === 0 ? { critical: true } : {}), ...(old ? {} : { attempts: 1, judged: 1, passes: i < fail ? 0 : 1 }) }));

describe('compareNights on old records and deterministic engines', () => {
  it('compares a noisy night with a night recorded before attempt counts by exact McNemar, as before', () => {
    // The previous night's record has no attempts/judged/passes and no noise (written by an older whet).
    const { noise: _n, ...old } = night(tasks(0, true));
    const tonight = night(tasks(10), { noise: noisy });
    const d = compareNights(tonight, prev(old), 0.05);
    expect(d.sequential).toBeUndefined();
    expect(d.test).toBe('exact McNemar');
    expect(d.reasons).toEqual(['significant drop: 10 task(s) regressed vs 0 fixed, exact McNemar p = 0.001953 < 0.05', 'critical task(s) newly failing: n0']);
    // Tonight's record with the new fields compares as a record without them did.
    const { test: _t, ...rest } = d;
    const { noise: _m, ...plain } = tonight;
    expect(rest).toEqual(compareNights({ ...plain, tasks: tasks(10, true) }, prev(old), 0.05));
  });

  it('compares a deterministic engine by exact McNemar even when both nights kept counts', () => {
    const d = compareNights(night(tasks(1), { noise: { deterministic: true, why: 'the mock engine answers the same way every time' } }), prev(night(tasks(0))), 0.05);
    expect(d.sequential).toBeUndefined();
    expect(d).toMatchObject({ alert: true, critical_failures: ['n0'], reasons: ['critical task(s) newly failing: n0'] });
  });
});

describe('compareNights on a noisy engine with counts on both nights', () => {
  it('does not alert on one critical task failing one attempt: a coin, not evidence', () => {
    const d = compareNights(night(tasks(1), { noise: noisy }), prev(night(tasks(0))), 0.05, undefined, { minEffect: 0.1, maxAttempts: 10 });
    expect(d.test).toMatch(/^Cochran–Mantel–Haenszel score for a drop/);
    expect(d.sequential).toMatchObject({ decision: 'no drift', attempts: 1, previous_attempts: 1, tasks: 10 });
    expect(d).toMatchObject({ alert: false, regressions: ['n0'], critical_failures: [], reasons: [] });
  });

  it('alerts on a critical task whose own attempts fell, though the suite as a whole did not drift', () => {
    // Forty tasks at 5 of 10 both nights, but the critical n0 went from 10 of 10 to 0 of 10.
    const at = (n0: number): NightTask[] => Array.from({ length: 40 }, (_, i) => ({ task_id: `n${i}`, category: 'c', status: 'pass' as const, ...(i === 0 ? { critical: true } : {}), attempts: 10, judged: 10, passes: i === 0 ? n0 : 5 }));
    const d = compareNights(night(at(0), { noise: noisy }), prev(night(at(10))), 0.05, undefined, { minEffect: 0.1, maxAttempts: 10 });
    expect(d.sequential).toMatchObject({ decision: 'no drift', attempts: 10 });
    expect(d.sequential!.supported_drops.map((x) => x.task_id)).toEqual(['n0']);
    expect(d).toMatchObject({ alert: true, critical_failures: ['n0'], reasons: ['critical task(s) newly failing: n0'] });
  });

  it('decides drift in rounds when tonight really fell, saying the attempts and the effect', async () => {
    const previous = night(Array.from({ length: 10 }, (_, i) => ({ task_id: `n${i}`, category: 'c', status: 'pass' as const, attempts: 4, judged: 4, passes: 3 })));
    // Tonight every task fails every attempt.
    const first = previous.tasks.map((t) => ({ task_id: t.task_id, passes: 0, judged: 1, errors: 0 }));
    let rounds = 0;
    const outcome = await runNightRounds({ settings: { significance: 0.05, minEffect: 0.1, maxAttempts: 10 }, firstAttempts: 1, reference: 3, first, previous: previous.tasks, measure: async () => (rounds++, { tasks: first, engineCalls: 10, judgeCalls: 0 }) });
    expect(outcome.looks.at(-1)!.decision).toBe('keep');
    expect(rounds).toBe(outcome.rounds - 1);
    // Decided at the first look, which is at the reference attempts: 3 per task, all of them the reference.
    expect(outcome).toMatchObject({ attempts: 3, referenceAttempts: 3, rounds: 3 });
    expect(outcome.looks.map((l) => l.attempts)).toEqual([3]);
    const tonight = night(first.map((f) => ({ task_id: f.task_id, category: 'c', status: 'fail' as const, attempts: outcome.attempts, judged: outcome.attempts, passes: 0 })), { noise: noisy });
    const d = compareNights(tonight, prev(previous), 0.05, undefined, { minEffect: 0.1, maxAttempts: 10, outcome });
    expect(d.alert).toBe(true);
    expect(d.sequential).toMatchObject({ decision: 'drift', attempts: outcome.attempts, previous_attempts: 4, effect: { effect: -0.75 } });
    expect(d.reasons[0]).toMatch(new RegExp(`^drift on a noisy engine: tonight − previous night −0\\.75 \\(95% CI .*\\) over 10 task\\(s\\), after ${outcome.attempts} attempt\\(s\\) per task tonight \\(previous night 4, max 10\\)`));
  });

  it('stops at once, with no rounds, when tonight passed every attempt: no drop can show', async () => {
    const previous = night(tasks(5));
    const first = previous.tasks.map((t) => ({ task_id: t.task_id, passes: 1, judged: 1, errors: 0 }));
    const outcome = await runNightRounds({ settings: { significance: 0.05, minEffect: 0.1, maxAttempts: 10 }, firstAttempts: 1, reference: 7, first, previous: previous.tasks, measure: async () => { throw new Error('no round should run'); } });
    expect(outcome).toMatchObject({ rounds: 1, attempts: 1 });
    expect(outcome.looks[0]!.decision).toBe('stop');
  });

  it('runs the reference attempts before it looks, and lends the next night only those', async () => {
    // Last night: 3 of 4 attempts passed on every task; tonight about half pass, so the test needs rounds.
    const previous = night(Array.from({ length: 10 }, (_, i) => ({ task_id: `n${i}`, category: 'c', status: 'pass' as const, attempts: 4, judged: 4, passes: 3 })));
    const first = previous.tasks.map((t, i) => ({ task_id: t.task_id, passes: i % 2, judged: 1, errors: 0 }));
    let k = 0;
    const outcome = await runNightRounds({
      settings: { significance: 0.05, minEffect: 0.1, maxAttempts: 10 },
      firstAttempts: 1,
      reference: 4,
      first,
      previous: previous.tasks,
      // Later rounds pass every task: whatever stops the test, attempts after the fourth are not the reference.
      measure: async () => (k++, { tasks: first.map((f) => ({ ...f, passes: k >= 3 ? 1 : f.passes })), engineCalls: 10, judgeCalls: 0 }),
    });
    expect(outcome.looks[0]!.attempts).toBe(4);
    expect(outcome.referenceAttempts).toBe(4);
    const n1 = outcome.tonight.get('n0')!;
    expect(n1.reference).toEqual({ passes: 1, judged: 4 });
    expect(n1.judged).toBe(outcome.attempts);
    // The next night compares with the reference counts, not with every attempt.
    const recorded = { task_id: 'n0', category: 'c', status: 'fail' as const, attempts: n1.attempts, judged: n1.judged, passes: n1.passes, reference_judged: 4, reference_passes: 1 };
    expect(nightPairs(new Map([['n0', { passes: 0, judged: 1 }]]), [recorded])[0]!.baseline).toEqual({ passes: 1, judged: 4 });
  });

  it('plans the reference attempts for 80% power against a drop of min_effect, within max_attempts', () => {
    const s = { significance: 0.05, minEffect: 0.1, maxAttempts: 10 };
    const many = Array.from({ length: 40 }, (_, i) => ({ task_id: `t${i}`, category: 'c', status: 'pass' as const, attempts: 5, judged: 5, passes: 1 + (i % 3) }));
    const r = referenceAttempts(many, s, 1);
    expect(r).toBeGreaterThan(1);
    expect(r).toBeLessThan(10);
    // Ten tasks cannot reach 80% within ten attempts: the most is run.
    expect(referenceAttempts(many.slice(0, 10), s, 1)).toBe(10);
    // A night with nothing to plan from runs its pass_k.
    expect(referenceAttempts([], s, 2)).toBe(2);
  });
});
