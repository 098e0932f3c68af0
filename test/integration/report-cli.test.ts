// `whet report` and `whet schemas` on real state: a loop run and a standalone run made by the CLI on the
// mock engine in a temp project. The report's numbers are checked against the artifacts they come from,
// the JUnit file against the schema with xmllint, the exported JSON Schemas against the real artifacts
// with ajv, and the state directory is left exactly as it was.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { reportModel } from '../../src/report/model-schema.js';
import { copyExample, readJson, repoRoot, snapshotTree, tempDir, whet, write } from '../support/cli.js';
import { anchorCalibration, historyLine } from '../fixtures/report/artifacts.js';
import { runCommand } from '../fixtures/report/cli.js';

let dir = '';
let state = '';
let loopRun = '';
const iter = (n: number, file: string) => readJson(join(state, 'runs', loopRun, `iter-00${n}`, file));

beforeAll(async () => {
  dir = tempDir('whet-report-');
  copyExample('release-notes', join(dir, 'release-notes'));
  write(join(dir, 'pipeline.yaml'), 'state_dir: state\nengine: {type: mock}\ntargets: [{skill: release-notes, suite: release-notes/tasks.yaml}]\nloop: {max_iterations: 3, plateau_window: 2, proposers: [feedback, structural]}\nevaluate: {concurrency: 2}\n');
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  state = join(dir, 'state');
  loopRun = readdirSync(join(state, 'runs')).sort().pop()!;
});

describe('whet report on a loop run', () => {
  it('defaults to the newest run and its outcome (the newest kept iteration, else the newest evaluated); its numbers are the artifacts’ numbers', async () => {
    const r = await runCommand(['report', '--format', 'json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const m = reportModel.parse(JSON.parse(r.stdout));
    expect(m.run.run_id).toBe(loopRun);
    const evaluated = m.run.iterations.filter((n) => readdirSync(join(state, 'runs', loopRun, `iter-00${n}`)).includes('evaluation.json'));
    const kept = evaluated.filter((n) => iter(n, 'gate.json')?.decision === 'keep');
    expect(kept.length, 'the example run keeps a candidate').toBeGreaterThan(0);
    expect(m.run.iteration).toBe(kept[kept.length - 1]);
    const ev = iter(m.run.iteration!, 'evaluation.json');
    expect(m.system.primary?.summary.pass_rate).toBe(ev.evaluation.execution_pass_rate);
    expect(m.system.reference?.summary.pass_rate).toBe(ev.evaluation.baseline_pass_rate);
    expect(m.system.primary?.summary.pass_rate_ci95).toEqual({ low: ev.evaluation.candidate.pass_rate_ci95.low, high: ev.evaluation.candidate.pass_rate_ci95.high });
    expect(m.system.paired).toMatchObject({ both_pass: ev.evaluation.paired.both_pass, fixed: ev.evaluation.paired.fixed, regressed: ev.evaluation.paired.regressed, p_value: ev.evaluation.paired.p_value });
    for (const c of m.system.per_category) expect(c.primary?.pass_rate).toBe(ev.evaluation.per_category[c.category].candidate.pass_rate);
    expect(m.gate?.decision).toBe(iter(m.run.iteration!, 'gate.json').decision);
    expect(m.candidate?.diff).toBe(iter(m.run.iteration!, 'candidates.json').candidates.find((c: { id: string }) => c.id === ev.candidate_id).diff);
    expect(m.thresholds.sha256).toBe(readJson(join(state, 'runs', loopRun, 'run.json')).thresholds_sha256);
    expect(m.suite).toMatchObject({ source: 'suite', tasks: 10, negative_controls: 2, grid: { cells_total: 6, cells_filled: 5 } });
  });

  it('reports the iteration asked for and refuses one that does not exist', async () => {
    const r = await runCommand(['report', loopRun, '--format', 'json', '--iteration', '1', '--state-root', state], { cwd: repoRoot });
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(r.stdout);
    expect(m.run.iteration).toBe(1);
    expect(m.gate.decision).toBe(iter(1, 'gate.json').decision);
    const missing = await runCommand(['report', '--iteration', '99'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/has no iteration 99/);
    expect((await runCommand(['report', 'no-such-run'], { cwd: dir })).code).toBe(2);
    expect((await runCommand(['report', '--format', 'pdf'], { cwd: dir })).code).toBe(2);
  });

  it('writes each format to a file without changing the state directory; the JUnit file validates', async () => {
    const before = snapshotTree(state);
    const out = tempDir('whet-report-out-');
    for (const f of ['md', 'json', 'junit', 'html']) {
      const r = await runCommand(['report', '--format', f, '-o', join(out, `r.${f}`)], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toBe('');
    }
    expect(snapshotTree(state)).toEqual(before);
    expect(readFileSync(join(out, 'r.md'), 'utf8')).toMatch(/## Evidence\n\n- eval set: 10 tasks/);
    expect(readFileSync(join(out, 'r.html'), 'utf8')).toContain('data-testid="trend-chart" data-source="iterations"');
    const xml = readFileSync(join(out, 'r.junit'), 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(20);
    const v = spawnSync('xmllint', ['--noout', '--schema', join(repoRoot, 'test/fixtures/report/junit.xsd'), join(out, 'r.junit')], { encoding: 'utf8' });
    expect(v.status, v.stderr).toBe(0);
  });

  it('shows calibrations and the nightly trend when the state directory has them, skipping unreadable records', async () => {
    mkdirSync(join(state, 'calibrations'), { recursive: true });
    writeFileSync(join(state, 'calibrations', `${'a'.repeat(64)}.json`), JSON.stringify(anchorCalibration()));
    writeFileSync(join(state, 'calibrations', 'broken.json'), '{not json');
    const target = readJson(join(state, 'runs', loopRun, 'run.json')).target.skill_dir;
    mkdirSync(join(state, 'nightly'), { recursive: true });
    writeFileSync(join(state, 'nightly', 'history.jsonl'), [historyLine('2026-11-28', target, 6, 4), historyLine('2026-11-29', target, 8, 2, true, 'pass rate rose'), historyLine('2026-11-29', '/elsewhere', 1, 1)].map((l) => JSON.stringify(l)).join('\n') + '\n{oops\n');
    const r = await runCommand(['report'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('| release-notes-rubric (mock engine) | no | FAIL | 80 | 44 | 21 | 9 | 6 | 0.8800 | 0.7000 | 0.8125 | 0.8302 |');
    expect(r.stdout).toContain("shown are the state directory's current calibration records, read at report time");
    expect(r.stdout).toContain('## Nightly trend');
    expect(r.stdout).toContain('| 2026-11-29 | 0.8000 (8/10) | [0.1000, 0.9000] | **alert**: pass rate rose |');
    // The other target's night (1 of 2 passed) is not this target's trend.
    expect(r.stdout).not.toMatch(/\| 2026-11-29 \| 0\.5000 \(1\/2\)/);
  });
});

describe('whet report on GitHub Actions', () => {
  it('appends the md report to $GITHUB_STEP_SUMMARY, after what earlier steps wrote; other formats leave it alone', async () => {
    const summary = join(tempDir('whet-step-summary-'), 'summary.md');
    writeFileSync(summary, '## an earlier step\n');
    const env = { ...process.env, GITHUB_STEP_SUMMARY: summary };
    const md = await runCommand(['report'], { cwd: dir, env });
    expect(md.code, md.stderr).toBe(0);
    expect(md.stderr).toContain(`appended to the job summary (GITHUB_STEP_SUMMARY=${summary})`);
    expect(readFileSync(summary, 'utf8')).toBe(`## an earlier step\n${md.stdout}`);
    const out = join(dir, 'to-file.md');
    expect((await runCommand(['report', '-o', out], { cwd: dir, env })).code).toBe(0);
    expect(readFileSync(summary, 'utf8')).toBe(`## an earlier step\n${md.stdout}${readFileSync(out, 'utf8')}`);
    const before = readFileSync(summary, 'utf8');
    for (const f of ['json', 'junit', 'html']) expect((await runCommand(['report', '--format', f], { cwd: dir, env })).code).toBe(0);
    expect(readFileSync(summary, 'utf8')).toBe(before);
    // An unwritable summary is a warning; the report itself still comes out.
    const bad = await runCommand(['report'], { cwd: dir, env: { ...process.env, GITHUB_STEP_SUMMARY: join(dir, 'no-such-dir', 's.md') } });
    expect(bad.code).toBe(0);
    expect(bad.stdout).toMatch(/^# whetstone report/);
    expect(bad.stderr).toMatch(/warning: could not append the report to GITHUB_STEP_SUMMARY=/);
  });
});

describe('whet report on a standalone run', () => {
  it('reports the evaluated skill alone with its verdict as a check', async () => {
    const sroot = tempDir('whet-report-standalone-');
    const e = await whet(['evaluate', '--standalone', '--task-suite', join(repoRoot, 'examples/release-notes/tasks.yaml'), '--skill-path', join(repoRoot, 'examples/release-notes'), '--state-root', sroot, '--mock'], { cwd: sroot });
    expect(e.code, e.stderr).toBeLessThan(2);
    const r = await runCommand(['report', '--state-root', sroot, '--format', 'json'], { cwd: sroot });
    expect(r.code, r.stderr).toBe(0);
    const m = JSON.parse(r.stdout);
    const run = readdirSync(join(sroot, 'runs'))[0]!;
    const ev = readJson(join(sroot, 'runs', run, 'evaluation.json'));
    expect(m.run).toMatchObject({ run_id: run, mode: 'standalone', iteration: null });
    expect(m.system.primary).toMatchObject({ role: 'skill', summary: { passed: ev.evaluation.passed, failed: ev.evaluation.failed, pass_rate: ev.evaluation.pass_rate } });
    expect(m.verdict.checks[0]).toMatchObject({ id: 'min_pass_rate', passed: ev.verdict === 'pass' });
    expect(m.trend.source).toBe('run');
  });
});

describe('whet schemas', () => {
  it('exports a JSON Schema per artifact that the real artifacts validate against, and a broken one does not', async () => {
    const out = tempDir('whet-schemas-');
    const r = await runCommand(['schemas', '--out', out], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(out).sort()).toEqual(['calibration', 'candidates', 'evaluation', 'feedback', 'gate', 'learning', 'nightly-history', 'nightly', 'ranking', 'report', 'run-loop', 'run'].map((n) => `${n}.schema.json`));
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const check = (name: string, value: unknown) => {
      const validate = ajv.compile(readJson(join(out, `${name}.schema.json`)));
      return validate(value) ? 'valid' : JSON.stringify(validate.errors?.[0]);
    };
    for (const [name, file] of [['evaluation', 'evaluation.json'], ['evaluation', 'baseline.json'], ['candidates', 'candidates.json'], ['ranking', 'ranking.json'], ['gate', 'gate.json'], ['learning', 'learning.json']] as const) {
      expect(check(name, iter(1, file)), `${file}`).toBe('valid');
    }
    expect(check('run-loop', readJson(join(state, 'runs', loopRun, 'run.json')))).toBe('valid');
    expect(check('calibration', anchorCalibration())).toBe('valid');
    const report = await runCommand(['report', '--format', 'json'], { cwd: dir });
    expect(check('report', JSON.parse(report.stdout))).toBe('valid');
    const broken = { ...iter(1, 'evaluation.json'), candidate_results: 'none' };
    expect(check('evaluation', broken)).not.toBe('valid');
    const printed = await runCommand(['schemas'], { cwd: dir });
    expect(Object.keys(JSON.parse(printed.stdout))).toContain('gate');
  });
});
