// One claim per run, over whole loops (issue 38): seeded runs of 5 and 10 iterations on the simulated noisy
// model (scripts/run-trials.ts: 40 tasks, 20 held out, chances 0.3–0.8, default settings: max_attempts 10,
// max_iterations as the loop's), every candidate gated by whetstone's own rounds, evaluation artifact and
// gate, a kept candidate becoming the next one's baseline. Held to the issue's bar (at most 5% of runs end
// with a keep of an edit that does nothing), beside the same runs with each candidate at the whole 0.05:
// the defect the per-candidate level prevents, which these trials must see. Full counts: `npm run bench`.
import { describe, expect, it } from 'vitest';
import { ISSUE_SETUP } from '../../scripts/decision-trials.js';
import { LOOP_CASES, loopRates } from '../../scripts/run-trials.js';

const lines: string[] = [];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const [five, ten, onePlus25] = LOOP_CASES as [(typeof LOOP_CASES)[0], (typeof LOOP_CASES)[0], (typeof LOOP_CASES)[0]];

describe('a run keeps an edit that does nothing at most significance of the time, over all its iterations', () => {
  it('5 iterations of no-effect candidates: at most 5% of 80 runs end with a keep; uncorrected, the same runs do more often', async () => {
    const a = await loopRates(ISSUE_SETUP, five, 80, 31);
    const raw = await loopRates(ISSUE_SETUP, five, 80, 31, true);
    lines.push(`${five.name}: false keep ${pct(a.falseKeep)}, each candidate at 0.05 instead ${pct(raw.falseKeep)} (80 runs)`);
    expect(a.falseKeep).toBeLessThanOrEqual(0.05);
    expect(raw.falseKeep).toBeGreaterThan(0.05);
  }, 120_000);

  it('10 iterations of no-effect candidates: at most 5% of 40 runs end with a keep', async () => {
    const b = await loopRates(ISSUE_SETUP, ten, 40, 100_034);
    lines.push(`${ten.name}: false keep ${pct(b.falseKeep)} (40 runs)`);
    expect(b.falseKeep).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('a 5-iteration loop with one +25 candidate ends better in at least 80% of runs', async () => {
    const r = await loopRates(ISSUE_SETUP, onePlus25, 40, 200_037);
    lines.push(`${onePlus25.name}: ends better ${pct(r.endsBetter)}, false keep ${pct(r.falseKeep)} (40 runs)`);
    expect(r.endsBetter).toBeGreaterThanOrEqual(0.8);
    console.log(['', ...lines].join('\n'));
  }, 120_000);
});
