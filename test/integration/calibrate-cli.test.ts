// `whet calibrate LABELS` end to end: the docs/method.md check of the arithmetic (80 runs: 50 FAIL, 30 PASS; the judge
// fails 44/50 and passes 21/30) must print exactly its figures, from JSONL and from CSV, with FAIL and
// with PASS as the positive class. Source: docs/method.md "Calibrating a judge", restating seed 000.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { repoRoot, tempDir, write } from '../support/cli.js';
import { anchorPairs, runWhet } from '../fixtures/calibrate/harness.js';

const fixtures = join(repoRoot, 'test/fixtures/calibrate');

const FAIL_POSITIVE = [
  'TP=44 TN=21 FP=9 FN=6 (positive class: FAIL; FP = human PASS judged FAIL, FN = human FAIL judged PASS)',
  'TPR 0.8800 (recall of FAIL: 44/50; Wilson 95% CI 0.7620–0.9438; positive class: FAIL)',
  'TNR 0.7000 (specificity, PASS kept PASS: 21/30; Wilson 95% CI 0.5212–0.8334)',
  'accuracy 0.8125 (65/80)',
  'precision 0.8302 (judge FAIL verdicts that humans also gave FAIL: 44/53)',
  "kappa 0.5918 (Cohen's κ: agreement beyond chance)",
  'gap |TPR-TNR| 0.1800',
  'bias: harsh: wrongly failed 9/30 (0.3000) vs wrongly passed 6/50 (0.1200): the judge fails good work more often than it passes bad work',
];
const PASS_POSITIVE = [
  'TP=21 TN=44 FP=6 FN=9 (positive class: PASS; FP = human FAIL judged PASS, FN = human PASS judged FAIL)',
  'TPR 0.7000 (recall of PASS: 21/30; Wilson 95% CI 0.5212–0.8334; positive class: PASS)',
  'TNR 0.8800 (specificity, FAIL kept FAIL: 44/50; Wilson 95% CI 0.7620–0.9438)',
  'accuracy 0.8125 (65/80)',
  'precision 0.7778 (judge PASS verdicts that humans also gave PASS: 21/27)',
  "kappa 0.5918 (Cohen's κ: agreement beyond chance)",
  'gap |TPR-TNR| 0.1800',
  // Harshness is about the direction of the errors, not the name of the positive class: unchanged.
  'bias: harsh: wrongly failed 9/30 (0.3000) vs wrongly passed 6/50 (0.1200): the judge fails good work more often than it passes bad work',
];

describe('the sanity anchor, printed', () => {
  for (const file of ['anchor.jsonl', 'anchor.csv']) {
    it(`${file}, FAIL positive (the default)`, async () => {
      const r = await runWhet(['calibrate', join(fixtures, file)], { cwd: fixtures });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(`whet calibrate: ${file}`);
      expect(lines[1]).toBe('80 labelled runs: 50 human FAIL, 30 human PASS; positive class: FAIL');
      expect(lines.slice(2, 10)).toEqual(FAIL_POSITIVE);
    });

    it(`${file}, --positive PASS`, async () => {
      const r = await runWhet(['calibrate', join(fixtures, file), '--positive', 'PASS'], { cwd: fixtures });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines[1]).toBe('80 labelled runs: 50 human FAIL, 30 human PASS; positive class: PASS');
      expect(lines.slice(2, 10)).toEqual(PASS_POSITIVE);
    });
  }

  it('generated here in a fresh order, in both formats, gives the same figures', async () => {
    const dir = tempDir();
    const rows = anchorPairs().reverse();
    write(join(dir, 'pairs.jsonl'), rows.map((p) => JSON.stringify(p)).join('\n'));
    write(join(dir, 'pairs.csv'), rows.map((p) => `${p.human.toLowerCase()},${p.judge}`).join('\n'));
    for (const f of ['pairs.jsonl', 'pairs.csv']) {
      const fail = await runWhet(['calibrate', f], { cwd: dir });
      expect(fail.stdout.split('\n').slice(2, 10)).toEqual(FAIL_POSITIVE);
      const pass = await runWhet(['calibrate', f, '--positive', 'pass'], { cwd: dir });
      expect(pass.stdout.split('\n').slice(2, 10)).toEqual(PASS_POSITIVE);
    }
  });

  it('--json carries the same figures, exact, with the positive class', async () => {
    const r = await runWhet(['calibrate', join(fixtures, 'anchor.jsonl'), '--json'], { cwd: fixtures });
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({
      positive: 'FAIL',
      n: 80,
      tp: 44,
      tn: 21,
      fp: 9,
      fn: 6,
      tpr: { count: 44, of: 50, rate: 0.88 },
      tnr: { count: 21, of: 30, rate: 0.7 },
      accuracy: { count: 65, of: 80, rate: 0.8125 },
      precision: { count: 44, of: 53 },
      bias: { reading: 'harsh', wrongly_failed: { count: 9, of: 30, rate: 0.3 }, wrongly_passed: { count: 6, of: 50, rate: 0.12 } },
      thresholds: [],
      thresholds_met: null,
    });
    expect(j.warnings).toEqual([]);
  });
});

describe('thresholds and bad input', () => {
  it('exits 1 when a configured minimum or maximum gap is missed, 0 when all are met', async () => {
    const file = join(fixtures, 'anchor.jsonl');
    const miss = await runWhet(['calibrate', file, '--min-tpr', '0.85', '--min-tnr', '0.75', '--max-gap', '0.1'], { cwd: fixtures });
    expect(miss.code).toBe(1);
    expect(miss.stdout).toContain('  min TPR 0.8500 (flag, positive FAIL): 0.8800 met');
    expect(miss.stdout).toContain('  min TNR 0.7500 (flag, positive FAIL): 0.7000 MISSED');
    expect(miss.stdout).toContain('  max gap |TPR-TNR| 0.1000 (flag, positive FAIL): 0.1800 MISSED');
    expect(miss.stdout).toContain('result: 2 of 3 thresholds missed');
    const met = await runWhet(['calibrate', file, '--min-tpr', '0.88', '--min-tnr', '0.7', '--max-gap', '0.18'], { cwd: fixtures });
    expect(met.code).toBe(0);
    expect(met.stdout).toContain('result: all 3 thresholds met');
  });

  it("takes the positive class and thresholds from a judge spec's calibration block", async () => {
    const dir = tempDir();
    write(join(dir, 'judge.yaml'), SPEC.replace('positive: FAIL', 'positive: PASS'));
    write(join(dir, 'pairs.jsonl'), anchorPairs().map((p) => JSON.stringify(p)).join('\n'));
    const r = await runWhet(['calibrate', 'pairs.jsonl', '--judge', 'judge.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('positive class: PASS');
    expect(r.stdout).toContain('  min TPR 0.7500 (judge.yaml, positive PASS): 0.7000 MISSED');
    const flag = await runWhet(['calibrate', 'pairs.jsonl', '--judge', 'judge.yaml', '--min-tpr', '0.7'], { cwd: dir });
    expect(flag.code).toBe(0);
  });

  it('warns on small samples: counts are the signal', async () => {
    const dir = tempDir();
    write(join(dir, 'few.jsonl'), '{"human":"FAIL","judge":"FAIL"}\n{"human":"PASS","judge":"FAIL"}\n');
    const r = await runWhet(['calibrate', 'few.jsonl'], { cwd: dir });
    expect(r.stdout).toContain('warning: counts are the signal: only 1 human-FAIL run (fewer than 30); TPR over 1 is noise, not a measurement.');
    expect(r.stdout).toContain('warning: counts are the signal: only 1 human-PASS run (fewer than 30)');
  });

  it('exits 2 with file:line on a bad label, and on bad flags', async () => {
    const dir = tempDir();
    write(join(dir, 'bad.csv'), 'human,judge\nFAIL,PASS\nPASS,MAYBE\n');
    const r = await runWhet(['calibrate', 'bad.csv'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('whet: bad.csv:3: judge (column 2): expected PASS or FAIL, got "MAYBE"\n');
    expect(r.stdout).toBe('');
    expect((await runWhet(['calibrate', 'bad.csv', '--positive', 'MAYBE'], { cwd: dir })).code).toBe(2);
    expect((await runWhet(['calibrate', 'bad.csv', '--min-tpr', '1.5'], { cwd: dir })).code).toBe(2);
    expect((await runWhet(['calibrate'], { cwd: dir })).code).toBe(2);
    expect((await runWhet(['calibrate', 'bad.csv', '--mock'], { cwd: dir })).stderr).toMatch(/only apply with --answer-key/);
  });

  it('reads a CSV\'s third column as the category, says so, and refuses a fourth', async () => {
    const dir = tempDir();
    write(join(dir, 'c.csv'), 'human,judge,category\nFAIL,FAIL,billing\nPASS,FAIL,refunds\nPASS,PASS,billing\n');
    const r = await runWhet(['calibrate', 'c.csv'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('per category (each pair\'s category: JSONL "category", or a CSV\'s third column; positive class: FAIL):');
    expect(r.stdout).toContain('  billing: n=2 TP=1 TN=1 FP=0 FN=0');
    write(join(dir, 'four.csv'), 'FAIL,FAIL,billing,extra\n');
    const four = await runWhet(['calibrate', 'four.csv'], { cwd: dir });
    expect(four.code).toBe(2);
    expect(four.stderr).toBe('whet: four.csv:1: expected 2 columns (human, judge) or 3 (human, judge, category), found 4\n');
    expect((await runWhet(['calibrate', '--help'], { cwd: dir })).stdout).toMatch(/optional\s+third\s+column\s+is\s+the\s+category/);
  });

  it('prints per-category figures when pairs carry a category', async () => {
    const dir = tempDir();
    write(join(dir, 'c.jsonl'), ['{"human":"FAIL","judge":"FAIL","category":"billing"}', '{"human":"PASS","judge":"FAIL","category":"refunds"}', '{"human":"PASS","judge":"PASS","category":"billing"}'].join('\n'));
    const r = await runWhet(['calibrate', 'c.jsonl'], { cwd: dir });
    expect(r.stdout).toContain('per category (each pair\'s category: JSONL "category", or a CSV\'s third column; positive class: FAIL):');
    expect(r.stdout).toContain('  billing: n=2 TP=1 TN=1 FP=0 FN=0 TPR 1.0000 TNR 1.0000 accuracy 1.0000 precision 1.0000 bias balanced: wrongly failed 0/1 (0.0000) vs wrongly passed 0/1 (0.0000)');
    expect(r.stdout).toContain('  refunds: n=1 TP=0 TN=0 FP=1 FN=0 TPR — TNR 0.0000 accuracy 0.0000 precision 0.0000 bias undetermined: wrongly failed 1/1 (1.0000) vs wrongly passed 0/0 (—)');
  });
});

const SPEC = `name: t-judge
positive: FAIL
labels:
  PASS: The answer does what was asked.
  FAIL: The answer does not do what was asked.
few_shots:
  - {output: "Done: the notes are grouped.", label: PASS, reasoning: It did the job.}
  - {output: "I cannot help.", label: FAIL, reasoning: It did not do the job.}
calibration:
  min_tpr: 0.75
`;
