// Calibration figures. The expected numbers come from docs/method.md's check of the arithmetic (Calibrating a judge) (restating
// seed 000: TP=44 TN=21 FP=9 FN=6, TPR 0.8800, TNR 0.7000, accuracy 0.8125, precision 0.8302, harsh
// 9/30 vs 6/50), from exact fractions worked by hand in the comments, and from an independent count.
import { describe, expect, it } from 'vitest';
import { calibrationOf, tally, byCategory, smallSampleWarnings, type Calibration, type LabelPair } from '../../src/calibrate/index.js';
import { ratio4 } from '../../src/calibrate/report.js';
import { checkThresholds, thresholdSources } from '../../src/calibrate/thresholds.js';
import { anchorPairs } from '../fixtures/calibrate/harness.js';

const anchor = () => anchorPairs().map((p, i) => ({ ...p, line: i + 1 }));

/** Wilson (1927) score interval, written out independently of src/stats: centre ± half-width, z = Φ⁻¹(0.975). */
function wilsonRef(k: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z / d) * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  return [c - h, c + h];
}

describe('the method guide\'s check of the arithmetic', () => {
  it('with FAIL positive: TP=44 TN=21 FP=9 FN=6, TPR 0.88, TNR 0.70, accuracy 0.8125, precision 44/53, harsh', () => {
    const c = calibrationOf(tally(anchor()), 'FAIL');
    expect([c.tp, c.tn, c.fp, c.fn]).toEqual([44, 21, 9, 6]);
    expect(c.tpr).toEqual({ count: 44, of: 50, rate: 0.88 });
    expect(c.tnr).toEqual({ count: 21, of: 30, rate: 0.7 });
    expect(c.accuracy).toEqual({ count: 65, of: 80, rate: 0.8125 });
    expect(c.precision).toEqual({ count: 44, of: 53, rate: 44 / 53 });
    expect(ratio4(44, 53)).toBe('0.8302');
    expect(c.bias.reading).toBe('harsh');
    expect(c.bias.wrongly_failed).toEqual({ count: 9, of: 30, rate: 0.3 });
    expect(c.bias.wrongly_passed).toEqual({ count: 6, of: 50, rate: 0.12 });
    // kappa = (65/80 − 3460/6400) / (1 − 3460/6400) = 29/49 (see test/unit/stats-agreement.test.ts).
    expect(c.kappa).toBeCloseTo(29 / 49, 12);
    expect(c.gap).toBe(0.18);
    expect(c.human_labels).toEqual({ FAIL: 50, PASS: 30 });
    expect(c.judge_labels).toEqual({ FAIL: 53, PASS: 27 });
  });

  it('with PASS positive the roles swap (TP=21 TN=44 FP=6 FN=9, precision 21/27) and the bias reading does not', () => {
    const c = calibrationOf(tally(anchor()), 'PASS');
    expect([c.tp, c.tn, c.fp, c.fn]).toEqual([21, 44, 6, 9]);
    expect(c.tpr.rate).toBe(0.7);
    expect(c.tnr.rate).toBe(0.88);
    expect(ratio4(c.precision.count, c.precision.of)).toBe('0.7778');
    expect(c.precision).toMatchObject({ count: 21, of: 27 });
    expect(c.bias.reading).toBe('harsh');
    expect(c.bias.wrongly_failed).toEqual({ count: 9, of: 30, rate: 0.3 });
    expect(c.bias.wrongly_passed).toEqual({ count: 6, of: 50, rate: 0.12 });
    expect(c.kappa).toBeCloseTo(29 / 49, 12);
  });

  it('Wilson 95% intervals on TPR and TNR match the formula computed independently', () => {
    const c = calibrationOf(tally(anchor()), 'FAIL');
    const [tl, th] = wilsonRef(44, 50);
    const [nl, nh] = wilsonRef(21, 30);
    // python3 with the same formula: 44/50 → 0.761952–0.943824; 21/30 → 0.521242–0.833353.
    expect(c.tpr_ci!.low).toBeCloseTo(tl, 10);
    expect(c.tpr_ci!.high).toBeCloseTo(th, 10);
    expect(c.tnr_ci!.low).toBeCloseTo(nl, 10);
    expect(c.tnr_ci!.high).toBeCloseTo(nh, 10);
    expect(c.tpr_ci!.low).toBeCloseTo(0.761952, 6);
    expect(c.tnr_ci!.high).toBeCloseTo(0.833353, 6);
  });
});

describe('bias reading', () => {
  const t = (failFail: number, failPass: number, passFail: number, passPass: number) => ({ failFail, failPass, passFail, passPass });

  it('is lenient when the judge passes bad work more often than it fails good work', () => {
    const c = calibrationOf(t(40, 10, 3, 27), 'FAIL');
    expect(c.bias.reading).toBe('lenient');
    expect(c.bias.wrongly_failed).toMatchObject({ count: 3, of: 30 });
    expect(c.bias.wrongly_passed).toMatchObject({ count: 10, of: 50 });
    expect(calibrationOf(t(40, 10, 3, 27), 'PASS').bias.reading).toBe('lenient');
  });

  it('is balanced only when the two rates are exactly equal (compared without floating point)', () => {
    // 3/30 = 5/50 exactly; 1/3 vs 0.3333 would not be.
    expect(calibrationOf(t(45, 5, 3, 27), 'FAIL').bias.reading).toBe('balanced');
    expect(calibrationOf(t(2, 1, 1, 2), 'FAIL').bias.reading).toBe('balanced');
    expect(calibrationOf(t(45, 5, 4, 27), 'FAIL').bias.reading).toBe('harsh');
  });

  it('is undetermined, and rates are null (not 0), when a class has no human-labelled runs', () => {
    const c = calibrationOf(t(5, 1, 0, 0), 'FAIL');
    expect(c.bias.reading).toBe('undetermined');
    expect(c.tnr).toEqual({ count: 0, of: 0, rate: null });
    expect(c.tnr_ci).toBeNull();
    expect(c.gap).toBeNull();
    expect(ratio4(0, 0)).toBe('—');
  });

  it('never depends on the positive class: random tallies read the same both ways round', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let i = 0; i < 500; i++) {
      const x = t(rnd(40), rnd(40), rnd(40), rnd(40));
      const f = calibrationOf(x, 'FAIL');
      const p = calibrationOf(x, 'PASS');
      expect(p.bias).toEqual(f.bias);
      expect([p.tp, p.tn, p.fp, p.fn]).toEqual([f.tn, f.tp, f.fn, f.fp]);
      expect(p.tpr).toEqual(f.tnr);
      expect(p.gap).toEqual(f.gap);
    }
  });
});

describe('ratio4: 4 decimals from the exact fraction', () => {
  it('rounds half up on exact ties and agrees with the fraction elsewhere', () => {
    expect(ratio4(1, 32)).toBe('0.0313'); // 0.03125 exactly: a tie, rounded up
    expect(ratio4(2, 3)).toBe('0.6667');
    expect(ratio4(1, 3)).toBe('0.3333');
    expect(ratio4(7, 9)).toBe('0.7778');
    expect(ratio4(0, 5)).toBe('0.0000');
    expect(ratio4(5, 5)).toBe('1.0000');
    expect(ratio4(1, 160)).toBe('0.0063'); // 0.00625, a tie
    expect(ratio4(99_999, 100_000)).toBe('1.0000');
  });
});

describe('per category and small samples', () => {
  it('computes figures per category, in order of first appearance; pairs without one go under (none)', () => {
    const pairs: LabelPair[] = [
      { human: 'FAIL', judge: 'FAIL', category: 'billing', line: 1 },
      { human: 'PASS', judge: 'FAIL', category: 'refunds', line: 2 },
      { human: 'PASS', judge: 'PASS', category: 'billing', line: 3 },
      { human: 'FAIL', judge: 'PASS', line: 4 },
    ];
    const cats = byCategory(pairs, 'FAIL');
    expect(cats.map((c) => c.category)).toEqual(['billing', 'refunds', '(none)']);
    expect(cats[0]!.calibration).toMatchObject({ tp: 1, tn: 1, fp: 0, fn: 0 });
    expect(cats[1]!.calibration).toMatchObject({ tp: 0, tn: 0, fp: 1, fn: 0 });
    expect(cats[2]!.calibration).toMatchObject({ fn: 1 });
    expect(byCategory(pairs.map(({ category: _c, ...p }) => p), 'FAIL')).toEqual([]);
  });

  it('warns when a class has fewer than 30 human-labelled runs, and not at 30', () => {
    const c = (fails: number, passes: number): Calibration => calibrationOf({ failFail: fails, failPass: 0, passFail: 0, passPass: passes }, 'FAIL');
    expect(smallSampleWarnings(c(30, 30))).toEqual([]);
    const w = smallSampleWarnings(c(50, 6));
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^counts are the signal: only 6 human-PASS runs \(fewer than 30\); TNR over 6 is noise/);
    expect(smallSampleWarnings(c(29, 0))).toHaveLength(2);
  });
});

describe('thresholds', () => {
  const t = tally(anchor());

  it('compares exact figures: a max gap of 0.18 is met by a gap of exactly 0.18', () => {
    const checks = checkThresholds(t, thresholdSources({ max_gap: 0.18, min_tpr: 0.88, min_tnr: 0.71 }, 'FAIL'));
    expect(checks.map((k) => [k.name, k.met])).toEqual([
      ['min_tpr', true],
      ['min_tnr', false],
      ['max_gap', true],
    ]);
    expect(checks[1]!.value).toBe(0.7);
  });

  it("checks a spec's thresholds under the spec's positive class, flags under the displayed one", () => {
    const spec = { values: { min_tpr: 0.85 }, positive: 'FAIL' as const, from: 'judges/x.yaml' };
    // Displayed with PASS positive, TPR is 0.70 — but the spec meant recall of FAIL, 0.88.
    const [fromSpec] = checkThresholds(t, thresholdSources({}, 'PASS', spec));
    expect(fromSpec).toMatchObject({ name: 'min_tpr', positive: 'FAIL', value: 0.88, met: true, from: 'judges/x.yaml' });
    const [fromFlag] = checkThresholds(t, thresholdSources({ min_tpr: 0.85 }, 'PASS', spec));
    expect(fromFlag).toMatchObject({ positive: 'PASS', value: 0.7, met: false, from: 'flag' });
  });

  it('a threshold on a rate that cannot be measured is not met', () => {
    const [k] = checkThresholds({ failFail: 3, failPass: 0, passFail: 0, passPass: 0 }, thresholdSources({ min_tnr: 0.5 }, 'FAIL'));
    expect(k).toMatchObject({ value: null, met: false });
  });
});
