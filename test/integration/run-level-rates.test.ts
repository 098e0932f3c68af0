// The run-level claim at the noise of real models (issue 38): seeded single decisions on the simulated noisy
// model (scripts/run-trials.ts, scripts/decision-trials.ts: 40 tasks, 20 held out, chances 0.3–0.8, default
// settings: max_attempts 10, max_iterations 5), each decided by whetstone's own rounds, evaluation artifact and
// gate; whole loops in run-level-loops.test.ts. Sized down to stay quick; `npm run bench` runs the full counts.
// long-running: hundreds of seeded decisions, ≈ 90 s
import { describe, expect, it } from 'vitest';
import { CASES, ISSUE_SETUP, rates } from '../../scripts/decision-trials.js';
import { DRIFT_CASE, POPULATION_CASE, deterministicRates } from '../../scripts/run-trials.js';

const lines: string[] = [];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

describe('one claim per run, held to significance', () => {
  it('a model 10 points easier since the cached baseline is not credited to an edit that does nothing', async () => {
    const fresh = await rates(ISSUE_SETUP, DRIFT_CASE, 'whetstone', 100, 41);
    const cached = await rates(ISSUE_SETUP, DRIFT_CASE, 'cached baseline', 100, 41);
    lines.push(`drift: kept ${pct(fresh.keepRate)} (baseline beside the candidate), ${pct(cached.keepRate)} (the cached baseline)`);
    expect(fresh.keepRate).toBeLessThanOrEqual(0.05);
    // The same draws against the cached baseline: the drift would have been credited to the edit.
    expect(cached.keepRate).toBeGreaterThan(fresh.keepRate + 0.03);
  }, 120_000);

  it('per-task effects of mean 0 and sd 0.2 are kept in at most 5% of runs at max_attempts 10 and 30, one candidate at 0.05', async () => {
    for (const m of [10, 30]) {
      const r = await rates({ ...ISSUE_SETUP, maxAttempts: m, maxIterations: 1 }, POPULATION_CASE, 'whetstone', m === 10 ? 100 : 60, 43 + m);
      lines.push(`${POPULATION_CASE.name}, max_attempts ${m}: kept ${pct(r.keepRate)}`);
      expect(r.keepRate).toBeLessThanOrEqual(0.05);
    }
  }, 120_000);

  it('a deterministic engine whose edits flip 5% of tasks each way keeps at most 5%, where "rose with no new failure" kept more', async () => {
    const r = await deterministicRates(ISSUE_SETUP, 0.05, 400, 47);
    lines.push(`deterministic flips: kept ${pct(r.keep)}, kept when it rose ${pct(r.keptWhenRose)} (400 runs)`);
    expect(r.keep).toBeLessThanOrEqual(0.05);
    expect(r.keptWhenRose).toBeGreaterThan(0.05);
  }, 60_000);

  // Measured 96.0% of 300 runs at 4.4 attempts per held-out task (85.3% when the task-level t test was
  // held to the CMH boundary's nominal level at each look).
  it('+25 points on every task is kept in at least 90% of runs', async () => {
    const r = await rates(ISSUE_SETUP, CASES[3]!, 'whetstone', 120, 53);
    lines.push(`+25: kept ${pct(r.keepRate)} in ${r.meanAttempts.toFixed(2)} attempts, ${r.meanCalls.toFixed(0)} calls`);
    expect(r.keepRate).toBeGreaterThanOrEqual(0.9);
  }, 120_000);

  // Half the held-out tasks nearly always pass or nearly always fail (0.98 or 0.02). Issue 38's bars: a
  // no-effect candidate at most 128 calls (60% of the 212 before it), and +25 kept in 90% at no more than
  // 180. The candidate's train tasks wait for a keep (src/measure/train-after-keep.ts), so a rejection
  // costs its held-out attempts alone, and the regression guard's rounds after the decision
  // (src/measure/rounds.ts). These 400 runs: 127.1 calls, +25 kept in 92.25% at 169; 2,000 runs (npm run
  // bench): 124.7 calls, 92.3% at 168. The design's β = 0.3 leaves the calls the guard spends following
  // tasks that may have fallen (src/evaluation/sequential.ts DESIGN); tasks that failed every attempt on
  // both sides settle after four attempts each, which keeps +25 in 92% rather than 88% (rounds.ts
  // SETTLE_AFTER). Both bars are the issue's; the seeded runs are fixed, so a change that costs calls or
  // keeps fails here.
  it('on a suite whose half of the held-out tasks nearly always pass or fail, a no-effect edit costs at most 128 calls and +25 is kept in 90% at most 180', async () => {
    const extreme = { ...ISSUE_SETUP, extreme: 0.5 };
    // 400 runs each: the bar is about the mean over runs, and 120 runs' mean moved by ±3 calls with the seeds.
    const none = await rates(extreme, CASES[0]!, 'whetstone', 400, 59);
    const plus = await rates(extreme, CASES[3]!, 'whetstone', 400, 61);
    lines.push(`half extreme: no effect kept ${pct(none.keepRate)} at ${none.meanCalls.toFixed(0)} calls; +25 kept ${pct(plus.keepRate)} at ${plus.meanCalls.toFixed(0)} calls`);
    expect(none.keepRate).toBeLessThanOrEqual(0.05);
    expect(none.meanCalls).toBeLessThanOrEqual(128);
    expect(plus.keepRate).toBeGreaterThanOrEqual(0.9);
    expect(plus.meanCalls).toBeLessThanOrEqual(180);
    console.log(['', ...lines].join('\n'));
  }, 120_000);
});
