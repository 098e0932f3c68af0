// The plan's calls in the rounds after the first look (src/measure/round-calls.ts): only tasks not yet
// settled get attempts. Held against whole simulated evaluations through the product's rounds on a suite
// whose half of the held-out tasks nearly always pass or fail, where counting every task in every round
// put a +10-point candidate's calls a fifth too high.
import { describe, expect, it } from 'vitest';
import { planWithSurvival, raisedChances } from '../../src/evaluation/plan.js';
import type { SequentialSettings } from '../../src/evaluation/sequential.js';
import { simulatedGuardAttempts } from '../../src/measure/guard-calls.js';
import { laterRoundAttempts, openChance } from '../../src/measure/round-calls.js';
import { simulatedCalls } from '../support/simulated-runs.js';

const settings: SequentialSettings = { significance: 0.01, minEffect: 0.1, maxAttempts: 10, run: { significance: 0.05, maxIterations: 5 } };

describe('the plan’s later-round calls', () => {
  it('counts a task open until its attempts could have settled it (all passed by 3 each, all failed by 4)', () => {
    expect(openChance(1, 1, 2, 1)).toBe(1);
    expect(openChance(1, 1, 3, 1)).toBe(0);
    expect(openChance(0, 0, 3, 1)).toBe(1);
    expect(openChance(0, 0, 4, 1)).toBe(0);
    expect(openChance(0.5, 0.5, 3, 1)).toBeCloseTo(1 - 1 / 64, 12);
    expect(openChance(0.5, 0.5, 4, 1)).toBeCloseTo(1 - 1 / 64 - 1 / 256, 12);
    // A first measurement of 5 attempts each is checked there.
    expect(openChance(0.9, 0.9, 5, 5)).toBeCloseTo(1 - 0.81 ** 5 - 0.01 ** 5, 12);
  });

  it('reads +10 points as the held-out effect: a mean rise of 0.1, none past 1', () => {
    const mean = (a: number[], b: readonly number[]) => a.reduce((x, q, i) => x + q - b[i]!, 0) / a.length;
    const spread = [0.3, 0.5, 0.7];
    expect(raisedChances(spread, 0.1).map((x) => Number(x.toFixed(9)))).toEqual([0.4, 0.6, 0.8]);
    // 70% of the tasks at 0.97: they rise by 0.03, the others by enough to make the mean 0.1.
    const high = Array.from({ length: 10 }, (_, i) => (i < 7 ? 0.97 : 0.5));
    const raised = raisedChances(high, 0.1);
    expect(mean(raised, high)).toBeCloseTo(0.1, 9);
    expect(Math.max(...raised)).toBeLessThanOrEqual(1);
    expect(raised[9]! - high[9]!).toBeCloseTo((10 * 0.1 - 7 * 0.03) / 3, 9);
    expect(raisedChances([0.95, 0.99], 0.1)).toEqual([1, 1]);
    expect(raisedChances(high, 0)).toEqual(high);
  });

  it('on tasks near 0 or 1, predicts what whole simulated evaluations spend under +10 points', async () => {
    // 20 held-out tasks: half at 0.98 or 0.02 in turn, half spread over 0.3–0.8.
    const chances = Array.from({ length: 20 }, (_, i) => (i < 10 ? (i % 2 ? 0.02 : 0.98) : 0.3 + (0.5 * (i - 10)) / 9));
    const H = chances.length;
    const { plan, survival } = planWithSurvival({ chances, settings, firstAttempts: 1 }, false);
    const settledLooks = 2 * H + laterRoundAttempts(chances, raisedChances(chances, 0.1), Array<number>(H).fill(1), survival, 'minEffect', 1);
    const everyTask = 2 * H + (plan.expectedAttempts.minEffect - 1) * 2 * H;
    const guard = (await simulatedGuardAttempts(chances, settings, 1, 0.1, 100)).mean;
    const measured = (await simulatedCalls(chances, 0.1, 200, settings)).all;
    // Measured here: 183 + 5 against 195 (−3.7%); every task in every round, 236 (+20.6%).
    expect(Math.abs(settledLooks + guard - measured) / measured, `${settledLooks.toFixed(0)} + ${guard.toFixed(1)} against ${measured.toFixed(1)}`).toBeLessThan(0.06);
    expect((everyTask + guard) / measured, `every task in every round: ${(everyTask + guard).toFixed(0)} against ${measured.toFixed(1)}`).toBeGreaterThan(1.15);
  });
});
