// `whet plan`'s figure for the regression guard's rounds (src/measure/guard-calls.ts): the product's own
// rounds, the guard's included, run on simulated attempts at the plan's chances. What the user reads is the
// total — the plan's expected look calls plus the guard's — so the test holds that total against whole
// simulated evaluations drawn on other seeds, and shows that the look calls alone fall short of them.
import { describe, expect, it } from 'vitest';
import { planWithSurvival, raisedChances } from '../../src/evaluation/plan.js';
import type { SequentialSettings } from '../../src/evaluation/sequential.js';
import { guardTrials, simulatedGuardAttempts } from '../../src/measure/guard-calls.js';
import { laterRoundAttempts } from '../../src/measure/round-calls.js';
import { simulatedCalls } from '../support/simulated-runs.js';

// The defaults: max_attempts 10, significance 0.05 over 5 iterations (0.01 per candidate), min_effect 0.1.
const settings: SequentialSettings = { significance: 0.01, minEffect: 0.1, maxAttempts: 10, run: { significance: 0.05, maxIterations: 5 } };
const H = 60;
// Pass chances spread over 0.3–0.8, as a real suite's are.
const chances = Array.from({ length: H }, (_, i) => 0.3 + (0.5 * ((i * 37) % H)) / (H - 1));

describe('the regression guard’s rounds in whet plan', () => {
  it('with the plan’s look calls, predicts what whole simulated evaluations spend; without them the plan falls short', async () => {
    const { survival } = planWithSurvival({ chances, settings, firstAttempts: 1 }, false);
    for (const [effect, which] of [[0, 'none'], [0.1, 'minEffect']] as const) {
      // The plan's look calls: the first round, and the later ones without the settled tasks.
      const looks = 2 * H + laterRoundAttempts(chances, raisedChances(chances, effect), Array<number>(H).fill(1), survival, which, 1);
      const g = await simulatedGuardAttempts(chances, settings, 1, effect, 100);
      const m = await simulatedCalls(chances, effect, 200, settings);
      expect(Math.abs(looks + g.mean - m.all) / m.all, `effect ${effect}: plan ${looks.toFixed(0)} + guard ${g.mean.toFixed(1)} against ${m.all.toFixed(1)}`).toBeLessThan(0.05);
      expect(Math.abs(g.mean - m.guard)).toBeLessThan(4 * g.se + 5);
      // An edit that does nothing is stopped early, and the guard then follows the tasks it is behind on:
      // about a third of its calls (122 of 379 in these 200 runs), which the plan’s look calls leave out.
      if (effect === 0) expect(m.all - looks).toBeGreaterThan(0.2 * m.all);
    }
  });

  it('is seeded: the same chances and settings give the same figure', async () => {
    const a = await simulatedGuardAttempts(chances, settings, 1, 0, 20);
    const b = await simulatedGuardAttempts(chances, settings, 1, 0, 20);
    expect(a).toEqual(b);
    expect(a.mean).toBeGreaterThan(0);
    expect(a.se).toBeGreaterThan(0);
  });

  it('is zero when max_attempts leaves no attempt past the decision', async () => {
    const g = await simulatedGuardAttempts(chances, { ...settings, maxAttempts: 1 }, 1, 0, 20);
    expect(g).toEqual({ mean: 0, se: 0 });
  });

  it('sizes its candidates to the suite: more on a small one, fewer on a large one', () => {
    expect(guardTrials(20)).toBe(25);
    expect(guardTrials(60)).toBe(10);
    expect(guardTrials(300)).toBe(10);
    expect(guardTrials(100_000)).toBe(10);
  });
});
