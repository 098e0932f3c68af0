// Property test: on random label sets, every figure the report prints equals a straightforward,
// independent count from the definitions (docs/method.md: Calibrating a judge) and the precise definitions,
// formatted independently (toFixed on the double; on an exact 4-decimal tie the report rounds the exact
// fraction half up, so there only the value is compared, to within half a unit in the last place).
import { describe, expect, it } from 'vitest';
import { buildReport, renderReport, type LabelPair } from '../../src/calibrate/index.js';
import { mulberry32 } from '../../src/stats/index.js';

type L = 'PASS' | 'FAIL';

function independent(pairs: { human: L; judge: L }[], positive: L) {
  let tp = 0, tn = 0, fp = 0, fn = 0, failedGood = 0, good = 0, passedBad = 0, bad = 0;
  for (const { human, judge } of pairs) {
    if (human === positive && judge === positive) tp++;
    else if (human !== positive && judge !== positive) tn++;
    else if (human !== positive && judge === positive) fp++;
    else fn++;
    if (human === 'PASS') {
      good++;
      if (judge === 'FAIL') failedGood++;
    } else {
      bad++;
      if (judge === 'PASS') passedBad++;
    }
  }
  const wf = failedGood / good;
  const wp = passedBad / bad;
  const reading = good === 0 || bad === 0 ? 'undetermined' : wf > wp ? 'harsh' : wf < wp ? 'lenient' : 'balanced';
  return { tp, tn, fp, fn, tpr: [tp, tp + fn], tnr: [tn, tn + fp], acc: [tp + tn, pairs.length], prec: [tp, tp + fp], wf: [failedGood, good], wp: [passedBad, bad], reading };
}

function expectFigure(printed: string, [k, n]: number[]) {
  if (n === 0) {
    expect(printed).toBe('—');
    return;
  }
  const x = k! / n!;
  const scaled = x * 10_000;
  const nearTie = Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6;
  if (nearTie) expect(Math.abs(Number(printed) - x)).toBeLessThanOrEqual(0.00005 + 1e-12);
  else expect(printed).toBe(x.toFixed(4));
}

const grab = (text: string, re: RegExp): string => {
  const m = re.exec(text);
  if (!m || m[1] === undefined) throw new Error(`not found: ${re} in\n${text}`);
  return m[1];
};

describe('calibration report against an independent count', () => {
  it('matches on 400 random label sets, both positive classes, sizes 1–300 with lopsided classes', () => {
    const rnd = mulberry32(20261130);
    for (let round = 0; round < 400; round++) {
      const n = 1 + Math.floor(rnd() * (round % 4 === 0 ? 12 : 300));
      const pFail = [0, 1, 0.5, 0.9, 0.1, rnd()][round % 6]!;
      const agree = rnd();
      const pairs: LabelPair[] = [];
      for (let i = 0; i < n; i++) {
        const human: L = rnd() < pFail ? 'FAIL' : 'PASS';
        const judge: L = rnd() < agree ? human : human === 'FAIL' ? 'PASS' : 'FAIL';
        pairs.push({ human, judge, line: i + 1 });
      }
      for (const positive of ['FAIL', 'PASS'] as const) {
        const want = independent(pairs, positive);
        const text = renderReport(buildReport('x.jsonl', pairs, positive, []));
        expect(text).toContain(`TP=${want.tp} TN=${want.tn} FP=${want.fp} FN=${want.fn} (positive class: ${positive};`);
        expectFigure(grab(text, /^TPR (\S+)/m), want.tpr);
        expectFigure(grab(text, /^TNR (\S+)/m), want.tnr);
        expectFigure(grab(text, /^accuracy (\S+)/m), want.acc);
        expectFigure(grab(text, /^precision (\S+)/m), want.prec);
        expect(text).toContain(`(recall of ${positive}: ${want.tpr[0]}/${want.tpr[1]}`);
        expect(text).toContain(`accuracy ${text.match(/^accuracy (\S+)/m)![1]} (${want.acc[0]}/${want.acc[1]})`);
        expect(grab(text, /^bias: (\w+):/m)).toBe(want.reading);
        const wf = /wrongly failed (\d+)\/(\d+) \((\S+)\) vs wrongly passed (\d+)\/(\d+) \((\S+)\)/.exec(text)!;
        expect([Number(wf[1]), Number(wf[2])]).toEqual(want.wf);
        expect([Number(wf[4]), Number(wf[5])]).toEqual(want.wp);
        expectFigure(wf[3]!, want.wf);
        expectFigure(wf[6]!, want.wp);
      }
    }
  });
});
