import { describe, expect, it } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, findFiles, readJson, snapshotTree, tempDir, whet, write, fixturesBin, sharedDir } from '../support/cli.js';

const standalone = (dir: string, extra: string[] = []) => ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', ...extra];

describe('evaluate --standalone', () => {
  it('evaluates the bundled example on the mock engine and writes the seed fields plus honest extras', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    const r = await whet(standalone(dir, ['--mock']), { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/pass rate 0\.7000 \(7\/10 judged\) 95% CI \[0\.40, 0\.89\]/);
    expect(r.stdout).toMatch(/offline mock engine/);
    const [file] = findFiles(join(dir, 'state/runs'), 'evaluation.json');
    const a = readJson(file!);
    expect(a).toMatchObject({ schema: 'whetstone.evaluation/1', stage: 'evaluated', mode: 'standalone', verdict: 'pass', iteration: 0 });
    expect(a.evaluation).toMatchObject({ total_tasks: 10, passed: 7, failed: 3, errors: 0, pass_rate: 0.7, engine_calls: 10 });
    expect(a.evaluation.pass_rate_ci95.low).toBeCloseTo(0.3968, 4);
    expect(a.evaluation.per_category['breaking-changes']).toMatchObject({ passed: 0, failed: 2 });
    expect(a.evaluation.per_split).toHaveProperty('holdout');
    expect(a.task_results.find((t: any) => t.task_id === 'rn-security-01')).toMatchObject({ passed: false, status: 'fail', reason: 'contains: missing 1/1: "Security"' });
    expect(a.inputs.suite).toMatch(/^sha256:/);
    const lines = readFileSync(findFiles(join(dir, 'state/runs'), 'baseline.jsonl')[0]!, 'utf8').trim().split('\n');
    expect(lines).toHaveLength(10);
    expect(readJson(findFiles(join(dir, 'state/runs'), 'run.json')[0]!)).toMatchObject({ status: 'completed', mode: 'standalone' });
  });

  it('makes 0 engine calls the second time, re-runs after the TTL, and with --force', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    let now = new Date('2026-11-01T00:00:00Z');
    const run = async (extra: string[] = []) => {
      const r = await whet(standalone(dir, ['--mock', '--json', ...extra]), { cwd: dir, now: () => now });
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout);
    };
    expect((await run()).evaluation.engine_calls).toBe(10);
    now = new Date('2026-11-03T00:00:00Z');
    const second = await run();
    expect(second.evaluation.engine_calls).toBe(0);
    expect(second.evaluation.cache).toMatchObject({ hit: true, age_ms: 2 * 86_400_000 });
    expect(second.evaluation.pass_rate).toBe(0.7);
    // The summary and status agree on what a cache hit spent in this run: nothing; the cached
    // measurement's own tokens are named as such.
    const text = await whet(standalone(dir, ['--mock']), { cwd: dir, now: () => now });
    const u = second.evaluation.usage;
    expect(u.input_tokens).toBeGreaterThan(0);
    expect(text.stdout).toContain(`0 call(s) · tokens 0 in / 0 out this run (cached result; its measurement used tokens ${u.input_tokens} in / ${u.output_tokens} out`);
    const status = await whet(['status', '--state-root', join(dir, 'state')], { cwd: dir, now: () => now });
    const newest = status.stdout.split(/\n(?=\S)/).sort().pop()!;
    expect(newest).toContain('0 call(s): engine 0 · judge 0 · generator 0, tokens 0 in / 0 out');
    expect((await run(['--force'])).evaluation.engine_calls).toBe(10);
    now = new Date('2026-11-20T00:00:00Z');
    const expired = await run();
    expect(expired.evaluation.engine_calls).toBe(10);
    expect(expired.evaluation.cache).toMatchObject({ hit: false, why: 'expired' });
    now = new Date('2026-11-20T01:00:00Z');
    expect((await run(['--cache-ttl', '30m'])).evaluation.engine_calls).toBe(10);
  });

  it('re-runs when the skill, the suite or pass-k changes', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    const calls = async (extra: string[] = []) => JSON.parse((await whet(standalone(dir, ['--mock', '--json', ...extra]), { cwd: dir })).stdout).evaluation.engine_calls;
    expect(await calls()).toBe(10);
    write(join(dir, 'skill/SKILL.md'), readFileSync(join(dir, 'skill/SKILL.md'), 'utf8') + '\nList breaking changes first under "Breaking changes", with the migration step.\n');
    expect(await calls()).toBe(10);
    write(join(dir, 'skill/tasks.yaml'), readFileSync(join(dir, 'skill/tasks.yaml'), 'utf8').replace('Does the skill', 'Does this skill'));
    expect(await calls()).toBe(10);
    expect(await calls(['--pass-k', '2'])).toBe(20);
    expect(await calls()).toBe(0);
  });

  it('counts engine failures as errors apart from failures, and does not cache them', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    // 2 of 10 tasks erroring is over the default max_error_share (0.1), which stops the calls once it is
    // reached (spend-guard.ts) — after a varying number of calls; this test is about the counting.
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {max_error_share: 0.5}\n`);
    const env = { ...process.env, AGENT_FAIL: 'rn-group-01,rn-title-01' };
    const r = await whet(standalone(dir, ['--json']), { cwd: dir, env });
    const a = JSON.parse(r.stdout);
    expect(a.evaluation).toMatchObject({ total_tasks: 10, errors: 2, engine_calls: 10 });
    expect(a.evaluation.passed + a.evaluation.failed).toBe(8);
    expect(a.task_results.find((t: any) => t.task_id === 'rn-group-01')).toMatchObject({ status: 'error', passed: false });
    expect(a.task_results.find((t: any) => t.task_id === 'rn-group-01').reason).toMatch(/exit.*refusing task rn-group-01/);
    expect(a.evaluation.cache).toMatchObject({ hit: false, stored: false });
    // The next run resumes the same run: only the two errored tasks go to the engine again.
    const again = JSON.parse((await whet(standalone(dir, ['--json']), { cwd: dir })).stdout);
    expect(again.run_id).toBe(a.run_id);
    expect(again.evaluation).toMatchObject({ engine_calls: 2, errors: 0, resumed_attempts: 8 });
  });

  it('exits 3 when no task can be judged, and never falls back to the mock engine', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    write(join(dir, 'pipeline.yaml'), 'engine: {type: command, command: ["no-such-agent-binary"]}\n');
    const r = await whet(standalone(dir), { cwd: dir });
    expect(r.code).toBe(3);
    // The second errored task of 10 puts evaluate.max_error_share (10%) out of reach: the rest is not run.
    expect(r.stdout).toMatch(/verdict: error — stopped early: 2 of 10 tasks errored \(20%\), more than evaluate\.max_error_share 10% allows, so the verdict could only be error \(last error: engine spawn: .*cannot run no-such-agent-binary.*\); fix the engine/);
    const none = tempDir();
    copyExample('release-notes', join(none, 'skill'));
    const u = await whet(standalone(none), { cwd: none });
    expect(u.code).toBe(2);
    expect(u.stderr).toMatch(/no engine configured: set "engine:" in pipeline\.yaml .* or pass --mock/);
    expect(existsSync(join(none, 'state'))).toBe(false);
  });

  it('runs llm-rubric judges through the judge engine (mock grader with --mock)', async () => {
    const dir = tempDir();
    write(join(dir, 'skill/SKILL.md'), '# S\nAlways mention the migration guide and security notes.\n');
    write(join(dir, 'skill/tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: a\n    prompt: what about the migration guide\n    judge: {type: llm-rubric, rubric: "mentions migration guide security", pass_threshold: 0.7}\n');
    const a = JSON.parse((await whet(standalone(dir, ['--mock', '--json']), { cwd: dir })).stdout);
    // mock grader: 3 of the rubric's 4 words (mention ≠ mentions) are in the quoted line → 0.75 ≥ 0.7
    expect(a.task_results[0]).toMatchObject({ passed: true, score: 0.75 });
    expect(a.judge_engine).toMatchObject({ type: 'mock' });
    expect(a.evaluation.judge_calls).toBe(1);
  });

  it('runs all eight compat suites on the mock engine', async () => {
    const root = join(sharedDir, 'compat/auto-improvement-orchestrator/skills');
    const suites = [...findFiles(root, 'task_suite.yaml'), ...findFiles(root, 'sample_task_suite.yaml')];
    expect(suites).toHaveLength(8);
    const dir = tempDir();
    for (const suite of suites) {
      const skillDir = suite.endsWith('sample_task_suite.yaml') ? join(root, 'improvement-evaluator/tests/fixtures/sample_skill') : join(root, 'improvement-evaluator');
      const r = await whet(['evaluate', '--standalone', '--mock', '--json', '--task-suite', suite, '--skill-path', skillDir, '--state-root', 'state'], { cwd: dir });
      expect([0, 1]).toContain(r.code);
      const a = JSON.parse(r.stdout);
      expect(a.evaluation.errors).toBe(0);
      expect(a.evaluation.total_tasks).toBeGreaterThan(0);
      expect(a.evaluation.passed + a.evaluation.failed).toBe(a.evaluation.total_tasks);
    }
  });

  it('leaves the state directory unchanged on bad input (exit 2)', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    await whet(standalone(dir, ['--mock']), { cwd: dir });
    const before = snapshotTree(join(dir, 'state'));
    write(join(dir, 'bad.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: a\n    prompt: p\n    judge: {type: nope}\n');
    for (const argv of [
      ['evaluate', '--standalone', '--mock', '--task-suite', 'bad.yaml', '--skill-path', 'skill', '--state-root', 'state'],
      ['evaluate', '--standalone', '--mock', '--task-suite', 'missing.yaml', '--skill-path', 'skill', '--state-root', 'state'],
      ['evaluate', '--standalone', '--mock', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'nowhere', '--state-root', 'state'],
      ['evaluate', '--standalone', '--mock', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--pass-k', 'x'],
      ['evaluate', '--standalone', '--mock', '--task-suite', 'skill/tasks.yaml', '--state-root', 'state'],
    ]) {
      const r = await whet(argv, { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.length).toBeGreaterThan(0);
    }
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  });

  it('names a --state-root that is a file (or lies under one) as a usage error, not a crash', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    write(join(dir, 'afile'), 'x');
    for (const [root, said] of [
      ['afile', /state directory \S*afile is a file, not a directory/],
      ['afile/sub', /state directory \S*afile\/sub cannot be created: \S*afile is a file/],
    ] as const) {
      const r = await whet(['evaluate', '--standalone', '--mock', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', root], { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(said);
      expect(r.stderr).not.toMatch(/internal error|ENOTDIR|EEXIST|\n\s+at /);
    }
  });
});
