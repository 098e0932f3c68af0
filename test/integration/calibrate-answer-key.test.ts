// `whet calibrate --answer-key KEY --judge SPEC`: the judge runs on each labelled output, the pairs are
// written, the report printed, and the calibration stored under the spec's content hash. The judge must
// never see the human labels: a real engine process records exactly what it receives, and what it
// receives is the same byte for byte when every label in the key is flipped.
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { readCalibration } from '../../src/calibrate/index.js';
import { StateError } from '../../src/core/errors.js';
import { repoRoot, tempDir, write } from '../support/cli.js';
import { runWhet } from '../fixtures/calibrate/harness.js';

const recorder = join(repoRoot, 'test/fixtures/calibrate/recording-judge.mjs');
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function exampleDir(): string {
  const dir = tempDir();
  cpSync(join(repoRoot, 'examples/judges'), join(dir, 'judges'), { recursive: true });
  return dir;
}

const specWith = (engine: string, extra = '') => `name: recorder-judge
labels:
  PASS: Notes a user can act on, grouped under Features and Bug fixes.
  FAIL: Anything a user cannot act on.
few_shots:
  - {output: "## Features\\n- Share links (1a2b3c4)", label: PASS, reasoning: Grouped and traceable.}
  - {output: "feat: add ShareService", label: FAIL, reasoning: A raw commit subject.}
${engine}
${extra}`;

describe('the example answer key on the mock engine', () => {
  it('prints the report, writes the pairs beside the key, and stores the calibration by spec hash', async () => {
    const dir = exampleDir();
    const r = await runWhet(['calibrate', '--answer-key', 'judges/answer-key.jsonl', '--judge', 'judges/release-notes-quality.yaml', '--mock'], { cwd: dir });
    expect(r.stderr).toBe('');
    // The spec sets min_tnr 0.8 and max_gap 0.15 in advance; the mock grader misses both.
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('on engine mock (offline mock: its verdicts demonstrate the tool, they do not measure a judge)');
    expect(r.stdout).toContain('answer key: judges/answer-key.jsonl (12 labelled outputs); pairs written to judges/answer-key.pairs.jsonl');
    expect(r.stdout).toContain('TP=5 TN=4 FP=2 FN=1 (positive class: FAIL;');
    expect(r.stdout).toContain('bias: harsh: wrongly failed 2/6 (0.3333) vs wrongly passed 1/6 (0.1667)');
    expect(r.stdout).toContain('  min TNR 0.8000 (judges/release-notes-quality.yaml, positive FAIL): 0.6667 MISSED');
    expect(r.stdout).toContain('warning: counts are the signal: only 6 human-FAIL runs');

    const pairs = readFileSync(join(dir, 'judges/answer-key.pairs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(pairs).toHaveLength(12);
    expect(pairs[0]).toMatchObject({ human: 'PASS', judge: 'PASS', id: 'notes-dark-mode', category: 'grouping' });

    const hex = sha(join(dir, 'judges/release-notes-quality.yaml'));
    expect(r.stdout).toContain(`stored: state/calibrations/${hex}.json`);
    const rec = readCalibration(join(dir, 'state'), `sha256:${hex}`)!;
    expect(rec).toMatchObject({ positive: 'FAIL', n: 12, counts: { tp: 5, tn: 4, fp: 2, fn: 1 }, thresholds_met: false, errors: 0, small_sample: true });
    expect(rec.judge).toMatchObject({ name: 'release-notes-quality', spec_hash: `sha256:${hex}`, temperature: 0, engine: { type: 'mock', mock: true } });
    expect(readCalibration(join(dir, 'state'), hex)).toEqual(rec);

    // The pairs file is itself a calibration file: reading it back gives the same figures.
    const again = await runWhet(['calibrate', 'judges/answer-key.pairs.jsonl'], { cwd: dir });
    expect(again.stdout).toContain('TP=5 TN=4 FP=2 FN=1 (positive class: FAIL;');
  });

  it('an edited spec is a different judge: it has no calibration until measured again', async () => {
    const dir = exampleDir();
    await runWhet(['calibrate', '--answer-key', 'judges/answer-key.jsonl', '--judge', 'judges/release-notes-quality.yaml', '--mock'], { cwd: dir });
    const spec = join(dir, 'judges/release-notes-quality.yaml');
    writeFileSync(spec, `${readFileSync(spec, 'utf8')}\n# sharpened\n`);
    expect(readCalibration(join(dir, 'state'), sha(spec))).toBeUndefined();
  });
});

describe('the judge never sees the human labels', () => {
  it('what reaches a real engine process is identical when every label is flipped, and holds no label, id or category', async () => {
    const dir = tempDir();
    const items = [
      { id: 'zq-item-alpha', category: 'cat-kx9-billing', task: 'Write notes for 2.0.', output: '## Features\n- Dark mode (a1b2c3d)' },
      { id: 'zq-item-beta', category: 'cat-kx9-refunds', task: 'Write notes for 2.1.', output: 'feat: dark mode' },
      { id: 'zq-item-gamma', category: 'cat-kx9-billing', output: 'Features: none. Bug fixes: login (9f2c1e7)' },
    ];
    const key = (labels: string[]) => items.map((it, i) => JSON.stringify({ ...it, human: labels[i] })).join('\n');
    const received: Record<string, string>[] = [];
    for (const [n, labels] of [['a', ['PASS', 'FAIL', 'PASS']], ['b', ['FAIL', 'PASS', 'FAIL']]] as const) {
      const rec = join(dir, `rec-${n}`);
      mkdirSync(rec);
      write(join(dir, `judge-${n}.yaml`), specWith(`engine: {type: command, command: ["${process.execPath}", "${recorder}"], env: {RECORD_DIR: "${rec}"}}`));
      write(join(dir, `key-${n}.jsonl`), key([...labels]));
      const r = await runWhet(['calibrate', '--answer-key', `key-${n}.jsonl`, '--judge', `judge-${n}.yaml`, '--state-root', 'state'], { cwd: dir });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      const got: Record<string, string> = {};
      for (const f of readdirSync(rec).sort()) got[f] = readFileSync(join(rec, f), 'utf8');
      received.push(got);
    }
    expect(Object.keys(received[0]!)).toEqual(['calibration-item-1.json', 'calibration-item-2.json', 'calibration-item-3.json']);
    expect(received[1]).toEqual(received[0]);
    const all = JSON.stringify(received);
    for (const secret of ['zq-item', 'cat-kx9', '"human"', 'human:']) expect(all).not.toContain(secret);
    // The request did carry the output and its task, so the check above is not vacuous.
    expect(all).toContain('Dark mode (a1b2c3d)');
    expect(all).toContain('Write notes for 2.0.');
    const pairs = readFileSync(join(dir, 'key-a.pairs.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(pairs.map((p) => [p.id, p.human, p.judge])).toEqual([
      ['zq-item-alpha', 'PASS', 'PASS'],
      ['zq-item-beta', 'FAIL', 'FAIL'],
      ['zq-item-gamma', 'PASS', 'PASS'],
    ]);
  });
});

describe('failures', () => {
  it('items the engine could not judge are errors, left out of the figures, exit 3, recorded', async () => {
    const dir = tempDir();
    write(join(dir, 'judge.yaml'), specWith(`engine: {type: command, command: ["${process.execPath}", "-e", "process.exit(4)"]}`));
    write(join(dir, 'key.jsonl'), '{"id":"a","output":"x","human":"PASS"}\n{"id":"b","output":"y","human":"FAIL"}\n');
    const r = await runWhet(['calibrate', '--answer-key', 'key.jsonl', '--judge', 'judge.yaml', '--state-root', 'st'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toMatch(/^error: a could not be judged and is left out of every figure: judge engine failed \(exit\)/m);
    expect(r.stdout).toContain('0 labelled runs: 0 human FAIL, 0 human PASS');
    expect(readCalibration(join(dir, 'st'), sha(join(dir, 'judge.yaml')))).toMatchObject({ errors: 2, n: 0 });
    expect(readFileSync(join(dir, 'key.pairs.jsonl'), 'utf8')).toBe('');
  });

  it('refuses to guess an engine: no spec engine, no pipeline, no --mock is exit 2', async () => {
    const dir = tempDir();
    write(join(dir, 'judge.yaml'), specWith(''));
    write(join(dir, 'key.jsonl'), '{"id":"a","output":"x","human":"PASS"}\n');
    const r = await runWhet(['calibrate', '--answer-key', 'key.jsonl', '--judge', 'judge.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('whet: no judge engine: set "engine:" in judge.yaml, judge_engine in pipeline.yaml, or pass --mock for the offline mock\n');
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it("uses the pipeline's judge_engine and state_dir from -c", async () => {
    const dir = tempDir();
    write(join(dir, 'judge.yaml'), specWith(''));
    write(join(dir, 'key.jsonl'), '{"id":"a","output":"x","human":"PASS"}\n');
    write(join(dir, 'conf/p.yaml'), 'judge_engine: {type: mock}\nstate_dir: ../my-state\n');
    const r = await runWhet(['calibrate', '--answer-key', 'key.jsonl', '--judge', 'judge.yaml', '-c', 'conf/p.yaml', '--out', 'out/p.jsonl'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('on engine mock');
    expect(existsSync(join(dir, 'out/p.jsonl'))).toBe(true);
    expect(readCalibration(join(dir, 'my-state'), sha(join(dir, 'judge.yaml')))).toBeDefined();
  });

  it('reports bad answer-key lines at file:line, all at once', async () => {
    const dir = tempDir();
    write(join(dir, 'judge.yaml'), specWith(''));
    write(join(dir, 'key.jsonl'), '{"id":"a","output":"x","human":"PASS"}\n{"id":"a","output":"y","human":"FAIL"}\n{"id":"c","human":"ok"}\n');
    const r = await runWhet(['calibrate', '--answer-key', 'key.jsonl', '--judge', 'judge.yaml', '--mock'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('key.jsonl:2: id: duplicate id "a" (first at line 1)');
    expect(r.stderr).toContain('key.jsonl:3: output: expected the output text as a string, got undefined');
    expect(r.stderr).toContain('key.jsonl:3: human: expected PASS or FAIL, got "ok"');
    write(join(dir, 'key.jsonl'), '{"id":"a","output":"x","human":"PASS"}\n');
    const self = await runWhet(['calibrate', '--answer-key', 'key.jsonl', '--judge', 'judge.yaml', '--mock', '--out', 'key.jsonl'], { cwd: dir });
    expect(self.code).toBe(2);
    expect(readFileSync(join(dir, 'key.jsonl'), 'utf8')).toBe('{"id":"a","output":"x","human":"PASS"}\n');
  });

  it('warns when answer-key outputs are also the judge few-shots', async () => {
    const dir = tempDir();
    write(join(dir, 'judge.yaml'), specWith(''));
    write(join(dir, 'key.jsonl'), '{"id":"dup","output":"feat:   add ShareService","human":"FAIL"}\n{"id":"ok","output":"fine","human":"PASS"}\n');
    const r = await runWhet(['calibrate', '--answer-key', 'key.jsonl', '--judge', 'judge.yaml', '--mock', '--json'], { cwd: dir });
    const j = JSON.parse(r.stdout);
    expect(j.warnings).toContain("leakage: 1 answer-key output is also the judge's few-shot examples (dup); agreement on them is memorised, not measured");
  });
});

describe('readCalibration', () => {
  it('is undefined for a spec never calibrated, and refuses a damaged record', () => {
    const state = tempDir();
    const hex = 'a'.repeat(64);
    expect(readCalibration(state, `sha256:${hex}`)).toBeUndefined();
    write(join(state, 'calibrations', `${hex}.json`), '{"schema": "whetstone.calibration/1"}');
    expect(() => readCalibration(state, hex)).toThrow(StateError);
    expect(() => readCalibration(state, 'not-a-hash')).toThrow(RangeError);
  });
});
