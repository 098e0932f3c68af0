// The regression guard at the noise of real models (issue 38 §5): seeded runs on the simulated noisy
// model (scripts/regression-trials.ts: 40 tasks, 20 held out, chances 0.3–0.8, default settings) where
// one held-out task falls from 0.9 to 0.3 while the rest gain +10 points, decided by whetstone's own
// rounds (the guard's rounds after the decision included), evaluation artifact and gate; and edits where
// no task falls, for the guard's false alarms. The power the gate line states is checked against the runs
// it is stated for. The bench runs the same cases at 400 runs (docs/method.md: Regressions with stated power).
import { describe, expect, it } from 'vitest';
import { GUARD_CASES, guardRates, guardTrial } from '../../scripts/regression-trials.js';
import { ISSUE_SETUP } from '../../scripts/decision-trials.js';
import { detectableFall, guardPower } from '../../src/evaluation/regression-guard.js';

const TRIALS = 400;
const [fallen, plus10, plus25, unchanged] = GUARD_CASES as [(typeof GUARD_CASES)[0], (typeof GUARD_CASES)[0], (typeof GUARD_CASES)[0], (typeof GUARD_CASES)[0]];

describe('the regression guard on a noisy model', () => {
  it("states the fall it could find: exact power of the one-sided Boschloo test per task", () => {
    // 10 attempts each: a task at 0.9 falling to 0.3 is flagged 91% of the time at 0.05 (Fisher's test: 82%).
    expect(guardPower(10, 0.9, 0.3, 0.05)).toBeCloseTo(0.905, 2);
    expect(detectableFall(10, 0.9, 0.05)).toBe(0.39);
    // Three attempts cannot show even a fall to 0 with 80% power; four can show a fall to 0.1.
    expect(detectableFall(3, 0.9, 0.05)).toBeNull();
    expect(detectableFall(4, 0.9, 0.05)).toBe(0.1);
  });

  it(`finds a held-out task that fell from 0.9 to 0.3 and rejects the candidate (${TRIALS} runs)`, async () => {
    let reported = 0;
    let rejected = 0;
    let atMax = 0;
    let reportedAtMax = 0;
    for (let k = 0; k < TRIALS; k++) {
      const r = await guardTrial(ISSUE_SETUP, fallen, 1 + k * 7919);
      reported += Number(r.reported);
      rejected += Number(r.rejected);
      if (r.attempts === ISSUE_SETUP.maxAttempts) {
        atMax++;
        reportedAtMax += Number(r.reported);
      }
    }
    console.log(`fallen task: reported ${reported}/${TRIALS}, rejected ${rejected}/${TRIALS}; at ${ISSUE_SETUP.maxAttempts} attempts reported ${reportedAtMax}/${atMax}`);
    // Issue 38's bar: named in at least 80% of runs. These 400 runs: 81.75%, rejected 97%; 2,000 runs of the
    // bench: 82.8%, rejected 97.5%. Before the guard followed every task with a 7% chance to show after a
    // stop (it was 60%), with all-pass ties settled after two attempts each and β = 0.2: 67.8% of 400.
    // Fisher's test without the guard's rounds named it in about half. In the runs whose test itself went
    // to 10 attempts, about as often as the power stated there.
    expect(reported / TRIALS).toBeGreaterThanOrEqual(0.8);
    expect(rejected / TRIALS).toBeGreaterThanOrEqual(0.9);
    expect(atMax).toBeGreaterThanOrEqual(25);
    expect(Math.abs(reportedAtMax / atMax - guardPower(10, 0.9, 0.3, 0.05))).toBeLessThanOrEqual(0.15);
  }, 180_000);

  it('costs few keeps: where no task fell, a task is named in at most 30% of +10 runs and 6% of +25 runs, and each unchanged task in at most significance', async () => {
    const a = await guardRates(plus10, TRIALS, 2);
    const b = await guardRates(plus25, TRIALS, 3);
    const c = await guardRates(unchanged, TRIALS, 4);
    console.log(JSON.stringify(a), JSON.stringify(b), JSON.stringify(c));
    expect(a.falseAlarm).toBeLessThanOrEqual(0.3);
    expect(b.falseAlarm).toBeLessThanOrEqual(0.06);
    expect(b.rejected).toBeLessThanOrEqual(0.1);
    // Each task is held to significance (0.05): followed or not, a task whose chance did not move is named
    // in at most that share of runs.
    expect(c.perTaskFalseAlarm).toBeLessThanOrEqual(0.05);
    expect(c.falseAlarm).toBeGreaterThan(0);
  }, 180_000);
});
