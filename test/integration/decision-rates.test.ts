// Decisions at the noise of real models (issue 27 §6): hundreds of seeded runs of one edit on a simulated
// noisy model (scripts/decision-trials.ts: every task its own chance between 0.3 and 0.8, 40 tasks with
// 20 held out, an edit whose true effect the test sets), decided by whetstone's own rounds, evaluation
// artifact and gate at default settings. Reported as rates, beside the same design with every attempt
// run and a loop that keeps when the held-out pass rate rose; held to the issue's bars.
// long-running: hundreds of seeded decisions, ≈ 40 s
import { describe, expect, it } from 'vitest';
import { CASES, ISSUE_SETUP as DEFAULTS, rates, type Rates } from '../../scripts/decision-trials.js';
import { planFigures } from '../../src/evaluation/plan.js';

const TRIALS = 250;
// One candidate decided alone (loop.max_iterations 1: its level is the run's 0.05). Whole runs of the
// default 5 iterations, each candidate at 0.01: test/integration/run-level-rates.test.ts (issue 38).
const ISSUE_SETUP = { ...DEFAULTS, maxIterations: 1 };
const table: Rates[] = [];
const row = (r: Rates) => `${r.case.padEnd(30)} ${r.design.padEnd(18)} keep ${(r.keepRate * 100).toFixed(1).padStart(5)}%  attempts ${r.meanAttempts.toFixed(2)}  calls ${r.meanCalls.toFixed(0)}`;

describe('keep and reject on a noisy model, default settings', () => {
  const [none, trainOnly, plus10, plus25] = CASES as [(typeof CASES)[0], (typeof CASES)[0], (typeof CASES)[0], (typeof CASES)[0]];

  it(`keeps an edit with no effect in at most 5% of ${TRIALS} runs, and stops early`, async () => {
    const w = await rates(ISSUE_SETUP, none, 'whetstone', TRIALS, 101);
    const every = await rates(ISSUE_SETUP, none, 'every attempt', TRIALS, 101);
    const rose = await rates(ISSUE_SETUP, none, 'kept when it rose', TRIALS, 101);
    table.push(w, every, rose);
    expect(w.keepRate).toBeLessThanOrEqual(0.05);
    expect(every.keepRate).toBeLessThanOrEqual(0.06);
    // The rule users fall back on keeps noise about two runs in five.
    expect(rose.keepRate).toBeGreaterThan(0.25);
    expect(w.meanCalls / every.meanCalls).toBeLessThanOrEqual(0.7);
  }, 120_000);

  it(`keeps an edit that helps only the train tasks in at most 5% of ${TRIALS} runs`, async () => {
    const w = await rates(ISSUE_SETUP, trainOnly, 'whetstone', TRIALS, 20_001);
    table.push(w, await rates(ISSUE_SETUP, trainOnly, 'every attempt', TRIALS, 20_001), await rates(ISSUE_SETUP, trainOnly, 'kept when it rose', TRIALS, 20_001));
    expect(w.keepRate).toBeLessThanOrEqual(0.05);
  }, 120_000);

  // 3.5: a keep also needs the task-level t test (issue 38), a few tenths of a round more than the CMH score alone.
  it(`keeps a +25-point edit in at least 85% of ${TRIALS} runs with at most 3.5 attempts per held-out task on average`, async () => {
    const w = await rates(ISSUE_SETUP, plus25, 'whetstone', TRIALS, 303);
    const every = await rates(ISSUE_SETUP, plus25, 'every attempt', TRIALS, 303);
    table.push(w, every, await rates(ISSUE_SETUP, plus25, 'kept when it rose', TRIALS, 303));
    expect(w.keepRate).toBeGreaterThanOrEqual(0.85);
    expect(w.meanAttempts).toBeLessThanOrEqual(3.5);
    expect(every.keepRate).toBeGreaterThanOrEqual(0.85);
    expect(w.meanCalls / every.meanCalls).toBeLessThanOrEqual(0.7);
  }, 120_000);

  it(`keeps a +10-point edit in at least half of ${TRIALS} runs within max_attempts 10, or the plan said this suite cannot find it`, async () => {
    const w = await rates(ISSUE_SETUP, plus10, 'whetstone', TRIALS, 404);
    table.push(w, await rates(ISSUE_SETUP, plus10, 'every attempt', TRIALS, 404), await rates(ISSUE_SETUP, plus10, 'kept when it rose', TRIALS, 404));
    const chances = Array.from({ length: ISSUE_SETUP.heldOut }, (_, i) => 0.3 + (0.5 * (i + 0.5)) / ISSUE_SETUP.heldOut);
    const plan = planFigures({ chances, settings: { significance: 0.05, minEffect: 0.1, maxAttempts: 10 }, firstAttempts: 1 });
    // The plan's power and the measured keep rate agree within the trials' noise: the plan is not a guess.
    expect(Math.abs(plan.power - w.keepRate)).toBeLessThan(0.12);
    expect(w.keepRate >= 0.5 || plan.power < 0.8).toBe(true);
    console.log(['', ...table.map(row), `plan for this suite: power ${plan.power.toFixed(2)} for +10 points`].join('\n'));
  }, 120_000);
});
