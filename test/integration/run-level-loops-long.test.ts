// One claim per run over longer loops (issue 38): 10-iteration loops whose every candidate does nothing,
// and a 5-iteration loop whose third candidate is +25 points, on the simulated noisy model of
// run-level-loops.test.ts (scripts/run-trials.ts, default settings). Full counts: `npm run bench`.
// long-running: whole seeded 10-iteration loops, ≈ 40 s
import { describe, expect, it } from 'vitest';
import { ISSUE_SETUP } from '../../scripts/decision-trials.js';
import { LOOP_CASES, loopRates } from '../../scripts/run-trials.js';

const lines: string[] = [];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const [, ten, onePlus25] = LOOP_CASES as [(typeof LOOP_CASES)[0], (typeof LOOP_CASES)[0], (typeof LOOP_CASES)[0]];

describe('a run keeps an edit that does nothing at most significance of the time, over 10 iterations too; a real gain still ends it better', () => {
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
