// The gate on a trigger suite at the noise of real agents: hundreds of seeded runs of one description edit
// on a simulated agent whose chance of invoking the skill the test sets per query
// (scripts/trigger-trials.ts: 10 should-trigger and 10 should-not held-out queries, the default bars —
// trigger rate ≥ 0.5, false-trigger rate ≤ 0.2 — and default settings), decided by whetstone's own
// rounds, evaluation artifact and gate. The trigger checks count every attempt the rounds made
// (src/measure/held-out-rounds.ts: countRoundsInTrigger); the false-trigger bar is held to an upper bound
// clustered by query (src/stats/clustered-rate.ts), and a candidate may not false-trigger significantly
// more than the baseline (stages/gate/trigger.ts). `npm run bench` runs the same cases at full counts.
// long-running: hundreds of seeded trigger decisions, ≈ 50 s
import { describe, expect, it } from 'vitest';
import { TRIGGER_CASES, TRIGGER_SETUP, triggerRates, trueRates, type TriggerRates } from '../../scripts/trigger-trials.js';

const TRIALS = 120;
const byName = (name: string) => TRIGGER_CASES.find((c) => c.name.startsWith(name))!;
const none = byName('no effect');
const above = byName('+25 trigger, lands at 0.60');
const below = byName('+25 trigger, lands at 0.40');
const stays30 = byName('+25 trigger, false 0.30 as before');
const rises30 = byName('+25 trigger, false 0.05 → 0.30');
const everything = byName('+40 trigger, +45 false');
const lines: string[] = [];
const note = (r: TriggerRates) =>
  lines.push(`${r.case.padEnd(36)} ${r.count.padEnd(18)} keep ${(r.keepRate * 100).toFixed(1).padStart(5)}%  gain alone ${(r.gainKeepRate * 100).toFixed(1).padStart(5)}%  false-trigger bound failed ${(r.failed.falseBar * 100).toFixed(1).padStart(5)}%  more than baseline ${(r.failed.moreThanBaseline * 100).toFixed(1).padStart(5)}%`);

describe('keep and reject on a trigger suite, noisy agent, default bars', () => {
  it('the cases are what their names say: the true rates sit on the side of the bar the test needs', () => {
    const bar = TRIGGER_SETUP.bars.maxFalseTriggerRate;
    expect(bar).toBe(0.2);
    expect(trueRates(above).trigger).toBeGreaterThan(TRIGGER_SETUP.bars.minTriggerRate);
    expect(trueRates(below).trigger).toBeLessThan(TRIGGER_SETUP.bars.minTriggerRate);
    for (const c of [none, above, below]) expect(trueRates(c).falseTrigger).toBeLessThanOrEqual(0.05);
    for (const c of [stays30, rises30]) expect(trueRates(c).falseTrigger).toBeCloseTo(0.3, 6);
    expect(trueRates(everything).falseTrigger).toBeGreaterThan(0.5);
  });

  it(`keeps a description edit with no effect in at most 5% of ${TRIALS} runs`, async () => {
    const r = await triggerRates(TRIGGER_SETUP, none, 'every attempt', TRIALS, 1);
    note(r);
    expect(r.keepRate).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('a false-trigger rate of 0.30 against the 0.20 bar is kept in at most 5% of runs, though its gain is real', async () => {
    const stays = await triggerRates(TRIGGER_SETUP, stays30, 'every attempt', TRIALS, 5);
    const rises = await triggerRates(TRIGGER_SETUP, rises30, 'every attempt', TRIALS, 6);
    note(stays);
    note(rises);
    // The held-out gain test alone keeps the first more often than not: the bound is what rejects it.
    expect(stays.gainKeepRate).toBeGreaterThanOrEqual(0.5);
    expect(stays.keepRate).toBeLessThanOrEqual(0.05);
    expect(stays.failed.falseBar).toBeGreaterThanOrEqual(0.9);
    expect(rises.keepRate).toBeLessThanOrEqual(0.05);
    // From 0.05 to 0.30 on the same queries: the comparison with the baseline sees it too.
    expect(rises.failed.moreThanBaseline).toBeGreaterThanOrEqual(0.5);
  }, 120_000);

  it('a real gain that lands above both bars is still kept in most runs; the bound is what it costs', async () => {
    const every = await triggerRates(TRIGGER_SETUP, above, 'every attempt', TRIALS, 2);
    const first = await triggerRates(TRIGGER_SETUP, above, 'first measurement', TRIALS, 2);
    note(every);
    note(first);
    expect(every.gainKeepRate).toBeGreaterThanOrEqual(0.7);
    // A description at 0.05 whose bound over ~10 queries × 5 runs stays under 0.2 about four runs in five.
    expect(every.keepRate).toBeGreaterThanOrEqual(0.5);
    expect(every.failed.falseBar).toBeLessThanOrEqual(0.3);
    expect(every.failed.moreThanBaseline).toBeLessThanOrEqual(0.05);
    // One run per query bounds nothing: every attempt the rounds made is what makes the bound usable.
    expect(first.keepRate).toBeLessThan(every.keepRate);
  }, 120_000);

  it('a gain that lands below the trigger bar, or a description that starts triggering on everything, is rarely kept', async () => {
    const low = await triggerRates(TRIGGER_SETUP, below, 'every attempt', TRIALS, 3);
    const all = await triggerRates(TRIGGER_SETUP, everything, 'every attempt', TRIALS, 4);
    note(low);
    note(all);
    expect(low.gainKeepRate).toBeGreaterThanOrEqual(0.65);
    expect(low.keepRate).toBeLessThanOrEqual(0.2);
    expect(all.keepRate).toBeLessThanOrEqual(0.05);
    console.log(['', ...lines].join('\n'));
  }, 120_000);
});
