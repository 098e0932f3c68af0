import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir, whet, write } from '../support/cli.js';
import { loadSuite } from '../../src/config/suite.js';
import { judgeCalibrations } from '../../src/evaluation/judge-calibration.js';

describe('calibrated judges in evaluations', () => {
  it('reports whether each model-graded judge is calibrated, with the judge-corrected pass rate', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'skill/judges'), { recursive: true });
    copyFileSync(join(repoRoot, 'examples/judges/release-notes-quality.yaml'), join(dir, 'skill/judges/q.yaml'));
    write(join(dir, 'skill/SKILL.md'), '# Notes\nGroup commits into Features and Bug fixes with the version heading.\n');
    write(
      join(dir, 'skill/tasks.yaml'),
      'skill_id: s\nversion: "1.0"\ntasks:\n  - {id: a, prompt: "group commits into features", judge: {type: llm-rubric, spec: judges/q.yaml}}\n  - {id: b, prompt: "x", judge: {type: llm-rubric, rubric: "mentions features"}}\n',
    );
    const args = ['evaluate', '--standalone', '--mock', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--json', '--force'];
    const before = JSON.parse((await whet(args, { cwd: dir })).stdout);
    expect(before.judge_calibration).toEqual([
      expect.objectContaining({ judge: 'judges/q.yaml', calibrated: false, tasks: ['a'] }),
      expect.objectContaining({ judge: 'inline rubric', calibrated: false, detail: expect.stringMatching(/cannot be calibrated/) }),
    ]);
    const cal = await whet(['calibrate', '--answer-key', join(repoRoot, 'examples/judges/answer-key.jsonl'), '--judge', 'skill/judges/q.yaml', '--mock', '--state-root', 'state', '--out', 'pairs.jsonl'], { cwd: dir });
    expect([0, 1]).toContain(cal.code);
    const after = JSON.parse((await whet(args, { cwd: dir })).stdout);
    const q = after.judge_calibration.find((c: any) => c.judge === 'judges/q.yaml');
    expect(q).toMatchObject({ calibrated: true, spec_hash: expect.stringMatching(/^sha256:/) });
    expect(typeof q.pass_sensitivity).toBe('number');
    expect(q.observed_pass_rate).toBeDefined();
    expect('corrected_pass_rate' in q).toBe(true);
    // The calibration was made on the mock engine: it says nothing about a real judge grading the same spec.
    const suite = loadSuite(join(dir, 'skill/tasks.yaml'));
    const real = { type: 'claude', identity: () => ({ type: 'claude', model: 'haiku' }) };
    expect(judgeCalibrations(suite, join(dir, 'state'), real).find((c) => c.judge === 'judges/q.yaml')).toMatchObject({
      calibrated: false,
      detail: expect.stringMatching(/calibrated with the mock engine, but claude grades in this run/),
    });
    const mock = { type: 'mock', identity: () => ({ type: 'mock', rules: 'mock/1' }) };
    expect(judgeCalibrations(suite, join(dir, 'state'), mock).find((c) => c.judge === 'judges/q.yaml')).toMatchObject({ calibrated: true });
    expect(q.record).toMatchObject({ engine: { type: 'mock', mock: true }, n: expect.any(Number) });

    // The printed summary has the calibration line, the corrected rate beside the raw one, and the mock marked.
    const printed = (await whet(args.filter((a) => a !== '--json'), { cwd: dir })).stdout;
    expect(printed).toMatch(/judges\/q\.yaml \(1 task\): calibrated on \d+ labelled outputs, .*offline mock engine.*not agreement with people; raw \d\.\d{4} \(\d\/1\) → corrected /);
    expect(printed).toMatch(/inline rubric \(1 task\): not calibrated — inline rubrics cannot be calibrated/);

    // A recalibration after the run must not change what the run's report says the judge was.
    const calDir = join(dir, 'state/calibrations');
    const file = join(calDir, readdirSync(calDir).find((f) => f.endsWith('.json'))!);
    writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), created_at: '2099-01-01T00:00:00.000Z' }));
    const report = JSON.parse((await whet(['report', '--format', 'json', '--state-root', 'state'], { cwd: dir })).stdout);
    expect(report.judges.source).toBe('evaluation');
    expect(report.judges.calibrations).toEqual([expect.objectContaining({ judge: 'judges/q.yaml', created_at: q.record.created_at, engine_mock: true })]);
    expect(report.judges.model_graded.map((g: any) => [g.judge, g.calibrated, g.corrected_pass_rate])).toEqual([
      ['judges/q.yaml', true, q.corrected_pass_rate],
      ['inline rubric', false, null],
    ]);
  });
});
