// The gate on a trigger suite at the noise of real agents: hundreds of seeded runs of one description edit
// on a simulated agent whose chance of invoking the skill the test sets per query
// (scripts/trigger-trials.ts: 10 should-trigger and 10 should-not held-out queries, bars 0.5, default
// settings), decided by whetstone's own rounds, evaluation artifact and gate. The trigger checks count
// every attempt the rounds made (src/measure/held-out-rounds.ts: countRoundsInTrigger); the same runs
// with the checks on the first measurement alone, as before, are the reference.
import { describe, expect, it } from 'vitest';
import { TRIGGER_CASES, TRIGGER_SETUP, triggerRates, trueRates, type TriggerRates } from '../../scripts/trigger-trials.js';

const TRIALS = 200;
const [none, above, below, everything] = TRIGGER_CASES as [(typeof TRIGGER_CASES)[0], (typeof TRIGGER_CASES)[0], (typeof TRIGGER_CASES)[0], (typeof TRIGGER_CASES)[0]];
const lines: string[] = [];
const note = (r: TriggerRates) => lines.push(`${r.case.padEnd(28)} ${r.count.padEnd(18)} keep ${(r.keepRate * 100).toFixed(1).padStart(5)}%  gain alone ${(r.gainKeepRate * 100).toFixed(1).padStart(5)}%`);

describe('keep and reject on a trigger suite, noisy agent, default bars', () => {
  it('the cases are what their names say: the true rates sit on the side of the bar the test needs', () => {
    expect(trueRates(above).trigger).toBeGreaterThan(TRIGGER_SETUP.bars.minTriggerRate);
    expect(trueRates(below).trigger).toBeLessThan(TRIGGER_SETUP.bars.minTriggerRate);
    expect(trueRates(everything).falseTrigger).toBeGreaterThan(TRIGGER_SETUP.bars.maxFalseTriggerRate);
    for (const c of TRIGGER_CASES) expect(trueRates(c).falseTrigger).toBeLessThanOrEqual(c === everything ? 1 : 0.2);
  });

  it(`keeps a description edit with no effect in at most 5% of ${TRIALS} runs`, async () => {
    const r = await triggerRates(TRIGGER_SETUP, none, 'every attempt', TRIALS, 1);
    note(r);
    expect(r.keepRate).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('a real gain that lands above the bar loses almost nothing to the trigger checks', async () => {
    const every = await triggerRates(TRIGGER_SETUP, above, 'every attempt', TRIALS, 2);
    const first = await triggerRates(TRIGGER_SETUP, above, 'first measurement', TRIALS, 2);
    note(every);
    note(first);
    // The gain test alone keeps it about 3 runs in 4; the checks on every attempt take at most 5 points off
    // that, where the first measurement alone (one coin per query) took about 10.
    expect(every.gainKeepRate).toBeGreaterThanOrEqual(0.65);
    expect(every.gainKeepRate - every.keepRate).toBeLessThanOrEqual(0.05);
    expect(first.keepRate).toBeLessThan(every.keepRate);
  }, 120_000);

  it('a gain that lands below the bar is kept at most half as often as with the first measurement alone', async () => {
    const every = await triggerRates(TRIGGER_SETUP, below, 'every attempt', TRIALS, 3);
    const first = await triggerRates(TRIGGER_SETUP, below, 'first measurement', TRIALS, 3);
    note(every);
    note(first);
    // Its held-out gain is real (the gain test keeps it most of the time), its trigger rate is not enough.
    expect(every.gainKeepRate).toBeGreaterThanOrEqual(0.65);
    expect(every.keepRate).toBeLessThanOrEqual(0.25);
    expect(every.keepRate).toBeLessThanOrEqual(first.keepRate / 2 + 0.03);
  }, 120_000);

  it('a description that starts triggering on everything is not kept', async () => {
    const r = await triggerRates(TRIGGER_SETUP, everything, 'every attempt', TRIALS, 4);
    note(r);
    expect(r.keepRate).toBeLessThanOrEqual(0.05);
    console.log(['', ...lines].join('\n'));
  }, 120_000);
});
