// scripts/guard-scale-trials.ts, which docs/method.md's "What the guard costs as a suite grows" tables come
// from: the guard's rounds after a stop are a large share of a no-effect candidate's calls on a bigger
// suite and name unchanged tasks the test's own attempts did not; a stricter follow threshold, set in the
// script's process only, spends fewer calls and is put back.
import { describe, expect, it } from 'vitest';
import { FOLLOW_CHANCE } from '../../src/evaluation/regression-guard.js';
import { followRow, scaleRow } from '../../scripts/guard-scale-trials.js';

describe('the regression guard as a suite grows', () => {
  it('costs a no-effect candidate a third more calls on 60 tasks at ½, naming unchanged tasks', async () => {
    const r = await scaleRow(60, 30);
    expect(r.guardCalls).toBeGreaterThan(0.3 * r.lookCalls);
    expect(r.named).toBeGreaterThan(r.namedWithoutRounds);
  });

  it('a stricter follow-after-stop threshold spends less on 300 tasks, and the shipped one is restored', async () => {
    const shipped = FOLLOW_CHANCE.stop;
    const strict = await followRow(0.25, 20);
    const design = await followRow(shipped, 20);
    expect(FOLLOW_CHANCE.stop).toBe(shipped);
    expect(strict.guardCalls300).toBeLessThan(0.7 * design.guardCalls300);
  });
});
