// The regression guard's rounds after the decision (src/measure/rounds.ts guardRounds,
// src/evaluation/regression-guard.ts): a held-out task that still looks worse when the sequential test
// has decided gets more attempts — the candidate's first, the baseline's only while it stays worth
// following — up to max_attempts; the looks stay what they counted; the gate tests the task on every
// attempt and refuses a guard record that runs past max_attempts or follows a task the rounds never had.
import { describe, expect, it } from 'vitest';
import { evaluationOf } from '../../scripts/decision-trials.js';
import { tally } from '../../src/measure/guard-calls.js';
import { decide } from '../../stages/gate/decide.js';
import { recordProblems } from '../../stages/gate/noisy.js';
import { withGuardRounds } from '../../src/measure/guard-verdict.js';
import { runRounds } from '../../src/measure/rounds.js';
import { sequentialRecord } from '../../src/measure/held-out-rounds.js';
import { toFollow } from '../../src/evaluation/regression-guard.js';
import { THRESHOLD_DEFAULTS } from '../../src/config/thresholds.js';
import { runLevel } from '../../src/evaluation/run-level.js';

const s = { significance: 0.05, minEffect: 0.1, maxAttempts: 10, run: { significance: 0.05, maxIterations: 1 } };
const ids = Array.from({ length: 12 }, (_, i) => `h${i}`);

/** Every task but h0 gains clearly; h0 passes every baseline attempt and fails every candidate one. */
async function keptWithAFall() {
  const calls: { round: number; purpose: string; side: string; tasks: string[] }[] = [];
  const pass = (side: 'baseline' | 'candidate', id: string, k: number) => (id === 'h0' ? (side === 'baseline' ? 1 : 0) : side === 'candidate' ? 1 : k % 3 === 0 ? 1 : 0);
  const base = ids.map((id) => tally(id, 'holdout', 1, pass('baseline', id, 1)));
  const cand = ids.map((id) => tally(id, 'holdout', 1, pass('candidate', id, 1)));
  const o = await runRounds({
    settings: s,
    firstAttempts: 1,
    baseline: base,
    candidate: cand,
    measure: async (round, open, purpose, side) => {
      calls.push({ round, purpose, side: side ?? 'both', tasks: [...open] });
      return {
        baseline: side === 'candidate' ? [] : open.map((id) => tally(id, 'holdout', 1, pass('baseline', id, round))),
        candidate: side === 'baseline' ? [] : open.map((id) => tally(id, 'holdout', 1, pass('candidate', id, round))),
        engineCalls: open.length * (side ? 1 : 2),
        judgeCalls: 0,
      };
    },
  });
  return { o, calls, base, cand, record: sequentialRecord(o, s, 1, 1, { withPlan: false }) };
}

describe("the regression guard's rounds", () => {
  it('follows a task that fell after an early keep, to max_attempts, candidate first; the looks count only their own rounds', async () => {
    const { o, calls, record } = await keptWithAFall();
    expect(record.decision).toBe('keep');
    expect(o.attempts).toBeLessThan(10);
    const guard = calls.filter((c) => c.purpose === 'guard');
    expect(guard.length).toBeGreaterThan(0);
    for (const c of guard) expect(c.tasks).toEqual(['h0']);
    // Each guard round: the candidate's attempt, then the baseline's.
    expect(guard[0]!.side).toBe('candidate');
    expect(guard[1]!.side).toBe('baseline');
    expect(record.guard?.tasks.map((t) => t.task_id)).toEqual(['h0']);
    const h0 = withGuardRounds(record).find((t) => t.task_id === 'h0')!;
    expect(h0.candidate).toEqual({ passes: 0, judged: 10 });
    expect(h0.baseline).toEqual({ passes: 10, judged: 10 });
    // The record's tasks are what the looks counted: h0 at the decision's attempts.
    expect(record.tasks.find((t) => t.task_id === 'h0')!.candidate.judged).toBe(o.attempts);
    expect(record.calls.engine).toBe(calls.reduce((a, c) => a + c.tasks.length * (c.side === 'both' ? 2 : 1), 0));
    expect(record.guard!.calls.engine).toBe(guard.reduce((a, c) => a + c.tasks.length, 0));
  });

  it('the gate names the fallen task from every attempt and rejects with max_new_failures 0; 1 allows it', async () => {
    const { base, cand, record } = await keptWithAFall();
    const gate = (max: number) => decide({ evaluation: evaluationOf(base, cand, record), thresholds: { ...THRESHOLD_DEFAULTS, max_new_failures: max }, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1, maxIterations: 1 });
    const strict = gate(0);
    expect(strict.holdout?.regressions).toEqual(['h0']);
    expect(strict.decision).not.toBe('keep');
    const line = strict.checks.find((c) => c.id === 'new_failures')!;
    expect(line.detail).toMatch(/Boschloo/);
    expect(line.detail).toMatch(/1 task\(s\) that looked worse when the test stopped at \d+ were followed toward 10 attempts/);
    expect(line.detail).toMatch(/falling from 0\.9 to 0\.39 at 10 attempt/);
    expect(gate(1).decision).toBe('keep');
    // Without the guard's rounds the fall cannot show at the decision's attempts.
    const bare = decide({ evaluation: evaluationOf(base, cand, { ...record, guard: undefined }), thresholds: THRESHOLD_DEFAULTS, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1, maxIterations: 1 });
    expect(bare.holdout?.regressions).toEqual([]);
  });

  it('refuses a guard record past max_attempts or on a task the rounds never had', async () => {
    const { record } = await keptWithAFall();
    const level = runLevel(0.05, 1, true);
    expect(recordProblems(record, THRESHOLD_DEFAULTS, level)).toEqual([]);
    const over = { ...record, guard: { ...record.guard!, tasks: record.guard!.tasks.map((t) => ({ ...t, candidate: { passes: 0, judged: t.candidate.judged + 1 } })) } };
    expect(recordProblems(over, THRESHOLD_DEFAULTS, level).join(' ')).toMatch(/h0: more than max_attempts 10/);
    const stranger = { ...record, guard: { ...record.guard!, tasks: [{ task_id: 'x9', candidate: { passes: 0, judged: 1 }, baseline: { passes: 1, judged: 1 } }] } };
    expect(recordProblems(stranger, THRESHOLD_DEFAULTS, level).join(' ')).toMatch(/followed x9/);
  });

  it('follows only a task the candidate is behind on, with a real chance to show at max_attempts; a task flagged already at the decision is not followed', () => {
    const left = () => ({ candidate: 7, baseline: 7 });
    const pair = (id: string, c: number, b: number, n = 3) => ({ task_id: id, candidate: { passes: c, judged: n }, baseline: { passes: b, judged: n } });
    expect(toFollow([pair('fell', 1, 3)], left, 0.05, true, 'stop')).toEqual(['fell']);
    expect(toFollow([pair('level', 2, 2), pair('ahead', 3, 1)], left, 0.05, true, 'keep')).toEqual([]);
    // 3 of 5 against 1 of 5 (a 44% chance to show by 10 attempts) is worth following after a keep, where
    // the guard decides whether it stands, and after a stop; one attempt apart of three (22%) only after a
    // stop, where the guard follows whatever has a chance of 7% or more, to name what fell; with one
    // attempt left each it could not show at all.
    const five = () => ({ candidate: 5, baseline: 5 });
    expect(toFollow([pair('two apart', 1, 3, 5)], five, 0.05, true, 'stop')).toEqual(['two apart']);
    expect(toFollow([pair('two apart', 1, 3, 5)], five, 0.05, true, 'keep')).toEqual(['two apart']);
    expect(toFollow([pair('near', 2, 3)], left, 0.05, true, 'keep')).toEqual([]);
    expect(toFollow([pair('near', 2, 3)], left, 0.05, true, 'stop')).toEqual(['near']);
    expect(toFollow([pair('near', 2, 3)], () => ({ candidate: 1, baseline: 1 }), 0.05, true, 'stop')).toEqual([]);
    const flagged = pair('flagged', 0, 8, 8);
    const few = () => ({ candidate: 2, baseline: 2 });
    expect(toFollow([flagged], few, 0.05, true, 'stop')).toEqual([]);
    expect(toFollow([flagged], few, 0.05, false, 'stop')).toEqual(['flagged']);
    expect(toFollow([pair('fell', 1, 3)], () => ({ candidate: 0, baseline: 0 }), 0.05, true, 'stop')).toEqual([]);
  });
});
