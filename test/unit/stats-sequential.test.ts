// The statistics the noisy-engine gate rests on (issue 27), pinned to published values: group-sequential
// crossing probabilities against Pocock's and O'Brien–Fleming's constants (Jennison & Turnbull 2000,
// Tables 2.1 and 2.3), Fisher's exact test against the tea-tasting table (Fisher 1935: p = 17/70), the t
// quantile against the standard tables, and the CMH score by hand.
import { describe, expect, it } from 'vitest';
import { boundaries, hsdSpend, nextBoundary, operatingCharacteristics, stagewisePValue, type Boundary, type LookInfo, type SpendingDesign } from '../../src/stats/group-sequential.js';
import { fisherLower } from '../../src/stats/fisher.js';
import { tQuantile } from '../../src/stats/t-quantile.js';
import { cmh, lookAt, replay, sequentialPValue, settingsOfRecord, taskDiffs, zOf, type Look, type TaskPair } from '../../src/evaluation/sequential.js';
import { heldOutEffect, supportedRegressions } from '../../src/evaluation/noisy-checks.js';

const equal = (k: number, upper: (i: number) => number): Boundary[] =>
  Array.from({ length: k }, (_, i) => ({ t: (i + 1) / k, info: i + 1, theta1: null, final: i === k - 1, upper: upper(i + 1), lower: i === k - 1 ? upper(i + 1) : -Infinity, alphaSpent: 0 }));

describe('group-sequential crossing probabilities', () => {
  it("reproduce Pocock's constant: 5 equal looks at 2.413 cross with probability 0.025 under the null", () => {
    expect(operatingCharacteristics(equal(5, () => 2.413), 0).keep).toBeCloseTo(0.025, 3);
  });

  it("reproduce O'Brien–Fleming's constant: 2.040·√(5/k) crosses with probability 0.025", () => {
    expect(operatingCharacteristics(equal(5, (k) => 2.04 * Math.sqrt(5 / k)), 0).keep).toBeCloseTo(0.025, 3);
  });

  it('spend exactly α over the looks, each boundary from the looks before it', () => {
    const looks = [1, 2, 3, 4, 5].map((k) => ({ t: k / 5, info: k * 3.7, theta1: null, final: k === 5 }));
    for (const gammaAlpha of [-4, 0, 2]) {
      const b = boundaries(looks, { alpha: 0.025, beta: 0, gammaAlpha, gammaBeta: 0 });
      b.forEach((x, i) => expect(x.alphaSpent).toBeCloseTo(i === 4 ? 0.025 : hsdSpend(0.025, gammaAlpha, x.t), 6));
      expect(operatingCharacteristics(b, 0).keep).toBeCloseTo(0.025, 4);
    }
  });

  it("compute a plan's design by carrying the undecided mass forward: bit for bit the boundaries each look computes from the looks before it", () => {
    const chain = (looks: readonly LookInfo[], d: SpendingDesign) => looks.reduce<Boundary[]>((out, l) => [...out, nextBoundary(out, l, d)], []);
    const designs: [LookInfo[], SpendingDesign][] = [];
    for (const [theta1, first, max] of [[0.8, 1, 10], [2.9, 3, 10], [null, 1, 6], [0.05, 2, 25]] as const) {
      const looks = Array.from({ length: max - first + 1 }, (_, k) => ({ t: (first + k) / max, info: (first + k) * 37.5, theta1, final: first + k === max }));
      designs.push([looks, { alpha: 0.01, beta: 0.3, gammaAlpha: 2, gammaBeta: 4 }], [looks, { alpha: 0.05, beta: 0.2, gammaAlpha: 2, gammaBeta: 0 }], [looks, { alpha: 0.05, beta: 0, gammaAlpha: -4, gammaBeta: 0 }]);
    }
    // A look with no new information, and looks set under different θ₁: the general path.
    designs.push([[1, 2, 2, 3].map((k, i) => ({ t: k / 3, info: k * 4, theta1: 1 + i / 10, final: i === 3 })), { alpha: 0.025, beta: 0.2, gammaAlpha: 2, gammaBeta: 4 }]);
    for (const [looks, d] of designs) {
      const b = boundaries(looks, d);
      expect(b).toEqual(chain(looks, d));
      expect(b.some((x) => Number.isFinite(x.lower) && !x.final)).toBe(d.beta > 0 && (looks[0]!.theta1 ?? 0) > 0);
    }
  });

  it('share keep boundaries between designs with the same fractions: they are each design\'s own, to the solver\'s precision', () => {
    const d = { alpha: 0.01, beta: 0.3, gammaAlpha: 2, gammaBeta: 4 };
    const at = (v: number, theta1: number) => [1, 2, 3, 4, 5, 6].map((m) => ({ t: m / 6, info: m * v, theta1, final: m === 6 }));
    const unit = boundaries(at(1, 0), { ...d, beta: 0 });
    const keep = { alpha: d.alpha, gammaAlpha: d.gammaAlpha, looks: unit.map(({ t, final, upper, alphaSpent }) => ({ t, final, upper, alphaSpent })) };
    for (const [v, theta1] of [[37.5, 0.4], [3.2, 1.9], [900, 0.02]] as const) {
      const own = boundaries(at(v, theta1), d);
      const shared = boundaries(at(v, theta1), d, keep);
      shared.forEach((b, k) => {
        expect(b.upper).toBeCloseTo(own[k]!.upper, 9);
        expect(b.lower).toBeCloseTo(own[k]!.lower, 9);
        expect(b.alphaSpent).toBeCloseTo(own[k]!.alphaSpent, 12);
      });
      // Keep boundaries of other fractions or another α are not taken.
      expect(boundaries(at(v, theta1), { ...d, alpha: 0.05 }, keep)).toEqual(boundaries(at(v, theta1), { ...d, alpha: 0.05 }));
    }
  });

  it('keep a non-binding futility boundary on the safe side: stopping early only lowers the keep rate', () => {
    const theta1 = 0.8;
    const looks = [1, 2, 3, 4].map((k) => ({ t: k / 4, info: k * 2, theta1, final: k === 4 }));
    const b = boundaries(looks, { alpha: 0.05, beta: 0.2, gammaAlpha: 2, gammaBeta: 0 });
    expect(b.slice(0, 3).every((x) => Number.isFinite(x.lower) && x.lower < x.upper)).toBe(true);
    expect(operatingCharacteristics(b, 0).keep).toBeLessThan(0.05);
    expect(operatingCharacteristics(b, theta1).keep).toBeGreaterThan(0.5);
  });

  it('give a stage-wise p below α exactly when the keep boundary was crossed', () => {
    const b = boundaries([1, 2, 3].map((k) => ({ t: k / 3, info: k, theta1: null, final: k === 3 })), { alpha: 0.05, beta: 0, gammaAlpha: 0, gammaBeta: 0 });
    expect(stagewisePValue(b, b[2]!.upper + 0.01)).toBeLessThan(0.05);
    expect(stagewisePValue(b, b[2]!.upper - 0.01)).toBeGreaterThan(0.05);
  });
});

describe('exact and small-sample helpers', () => {
  it("Fisher's exact test: the tea-tasting table gives 17/70", () => {
    expect(fisherLower(1, 4, 3, 4)).toBeCloseTo(17 / 70, 12);
    expect(fisherLower(0, 0, 3, 4)).toBe(1);
    expect(() => fisherLower(5, 4, 0, 4)).toThrow(RangeError);
  });

  it('the t quantile matches the tables to 1e-3', () => {
    expect(tQuantile(0.975, 1)).toBeCloseTo(12.7062, 3);
    expect(tQuantile(0.975, 2)).toBeCloseTo(4.3027, 3);
    expect(tQuantile(0.975, 5)).toBeCloseTo(2.5706, 2);
    expect(tQuantile(0.975, 10)).toBeCloseTo(2.2281, 3);
    expect(tQuantile(0.975, 19)).toBeCloseTo(2.093, 3);
  });
});

const pair = (task_id: string, cp: number, cj: number, bp: number, bj: number): TaskPair => ({ task_id, candidate: { passes: cp, judged: cj }, baseline: { passes: bp, judged: bj } });

describe('the CMH score and the looks', () => {
  it('sums each task\'s passes above what equal chances give, with the hypergeometric variance', () => {
    // Task a: 2 of 2 vs 0 of 2 → 2 − 2·2/4 = 1, variance 2·2·2·2/(16·3) = 1/3. Task b: 1 of 2 vs 1 of 2 → 0, 2·2·2·2/(16·3).
    const c = cmh([pair('a', 2, 2, 0, 2), pair('b', 1, 2, 1, 2)]);
    expect(c.score).toBeCloseTo(1, 12);
    expect(c.info).toBeCloseTo(2 / 3, 12);
    expect(c.weight).toBeCloseTo(2, 12);
    expect(zOf(c)).toBeCloseTo(0.5 / Math.sqrt(2 / 3), 12);
  });

  it('stops at once when the baseline passed every attempt: no gain can show', () => {
    const l = lookAt([], [pair('a', 1, 1, 1, 1), pair('b', 0, 1, 1, 1)], { round: 1, attempts: 1 }, { significance: 0.05, minEffect: 0.1, maxAttempts: 10 });
    expect(l.decision).toBe('stop');
  });

  it('replays recorded looks, and names a boundary or decision that was edited', () => {
    const s = { significance: 0.05, minEffect: 0.1, maxAttempts: 4 };
    const tasks = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const looks: Look[] = [];
    for (let m = 1; m <= 4; m++) {
      const pairs = tasks.map((id, i) => pair(id, Math.min(m, Math.round(m * (0.5 + (i % 3) * 0.15))), m, Math.round(m * 0.4), m));
      const l = lookAt(looks, pairs, { round: m, attempts: m }, s);
      looks.push(l);
      if (l.decision !== 'continue') break;
    }
    expect(replay(looks, s)).toEqual({ ok: true, problems: [] });
    const edited = looks.map((l) => ({ ...l }));
    edited[0] = { ...edited[0]!, upper: 0.5 };
    expect(replay(edited, s).problems[0]).toMatch(/round 1: recorded boundaries/);
    const flipped = looks.map((l, i) => (i === looks.length - 1 ? { ...l, decision: l.decision === 'keep' ? ('stop' as const) : ('keep' as const) } : l));
    expect(replay(flipped, s).ok).toBe(false);
    expect(sequentialPValue(looks, s)).toBeGreaterThan(0);
  });

  it("replays a record on the spending constants it was made with (its beta, gamma_alpha, gamma_beta), not today's", () => {
    const made = { significance: 0.05, minEffect: 0.1, maxAttempts: 6, recorded: { beta: 0.2, gammaAlpha: 2, gammaBeta: 4 } };
    const tasks = Array.from({ length: 12 }, (_, i) => `t${i}`);
    const looks: Look[] = [];
    for (let m = 1; m <= 6; m++) {
      const pairs = tasks.map((id, i) => pair(id, Math.round(m * (0.45 + (i % 3) * 0.05)), m, Math.round(m * 0.5), m));
      const l = lookAt(looks, pairs, { round: m, attempts: m }, made);
      looks.push(l);
      if (l.decision !== 'continue') break;
    }
    expect(looks.some((l) => l.lower !== null && Number.isFinite(l.lower))).toBe(true);
    const settings = settingsOfRecord({ significance: 0.05, min_effect: 0.1, max_attempts: 6, beta: 0.2, gamma_alpha: 2, gamma_beta: 4 });
    expect(settings.recorded).toEqual(made.recorded);
    expect(replay(looks, settings)).toEqual({ ok: true, problems: [] });
    // The same looks held to other futility spending: their stop boundaries are not that design's.
    expect(replay(looks, { ...settings, recorded: { ...made.recorded, beta: 0.3 } }).problems[0]).toMatch(/recorded boundaries/);
  });

  it('counts a task as a new failure only when its attempts show it, Holm-corrected over the tasks', () => {
    // One flipped coin is no evidence; ten of ten against zero of ten is, even among 20 tasks.
    const noise = Array.from({ length: 20 }, (_, i) => pair(`n${i}`, 0, 1, 1, 1));
    expect(supportedRegressions(noise, 0.05)).toEqual([]);
    const broken = [...noise.slice(1), pair('broken', 0, 10, 10, 10)];
    expect(supportedRegressions(broken, 0.05).map((r) => r.task_id)).toEqual(['broken']);
  });

  it('gives the held-out effect with a t interval over tasks', () => {
    const e = heldOutEffect([pair('a', 2, 2, 1, 2), pair('b', 1, 2, 1, 2), pair('c', 2, 2, 0, 2)]);
    expect(e.effect).toBeCloseTo(0.5, 4);
    // d = 0.5, 0, 1: sd 0.5, half-width t(0.975, 2) · 0.5/√3.
    expect(e.high! - e.effect!).toBeCloseTo(Math.min(1 - 0.5, 4.3027 * 0.5 / Math.sqrt(3)), 3);
  });

  it('never gives an interval of width 0 because every informative task moved alike', () => {
    // An engine whose attempts agree: three tasks pass only with the skill, three fail either way. Over the
    // informative three the spread is 0; over all six, d = 1, 1, 1, 0, 0, 0: sd 0.5477, t(0.975, 5) = 2.5706.
    const e = heldOutEffect([pair('a', 2, 2, 0, 2), pair('b', 2, 2, 0, 2), pair('c', 2, 2, 0, 2), pair('d', 0, 2, 0, 2), pair('e', 0, 2, 0, 2), pair('f', 0, 2, 0, 2)]);
    expect(e.effect).toBeCloseTo(0.5, 4);
    expect(e.low!).toBeCloseTo(0.5 - 2.5706 * 0.5477 / Math.sqrt(6), 3);
    expect(e.high).toBe(1); // 1.07, clipped
    // The gate's task-level test takes the same tasks: a keep never stands beside an interval that includes 0.
    expect(taskDiffs([pair('a', 2, 2, 0, 2), pair('b', 2, 2, 0, 2), pair('d', 0, 2, 0, 2)])).toEqual([1, 1, 0]);
    expect(taskDiffs([pair('a', 2, 2, 0, 2), pair('b', 1, 2, 0, 2), pair('d', 0, 2, 0, 2)])).toEqual([1, 0.5]);
  });
});
