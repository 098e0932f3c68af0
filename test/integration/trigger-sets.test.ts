// skill-creator trigger eval sets as trigger suites, measured through claude's installed mode against the
// fake CLI (test/fixtures/bin/claude, mode stream_by_description: it invokes the skill when the prompt
// shares a 5+-letter word with the skill's description). The fixture set has 4 queries that should trigger
// (one of which shares no word: a miss) and 3 that should not (one near miss shares "release").
import { describe, expect, it } from 'vitest';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuite } from '../../src/config/suite.js';
import { ConfigError } from '../../src/core/errors.js';
import { fixturesBin, repoRoot, tempDir, whet, write } from '../support/cli.js';

const fixture = join(repoRoot, 'test/fixtures/trigger-sets/notes');
const env = { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CLAUDE_MODE: 'stream_by_description' };

function project(): string {
  const dir = tempDir();
  cpSync(fixture, join(dir, 'notes'), { recursive: true });
  write(join(dir, 'pipeline.yaml'), 'engine: {type: claude, mode: installed}\n');
  return dir;
}

const evaluate = (dir: string, suite: string, extra: string[] = []) =>
  whet(['evaluate', '--standalone', '--task-suite', `notes/evals/${suite}`, '--skill-path', 'notes', '--state-root', 'state', '--json', '--force', ...extra], { cwd: dir, env });

describe('trigger eval sets through claude installed mode', () => {
  it.each(['trigger_evals.json', 'cases.json', 'split.json'])('measures trigger rate, false-trigger rate, precision and recall with intervals over pass_k runs per query (%s)', async (suite) => {
    const dir = project();
    const r = await evaluate(dir, suite, ['--pass-k', '3']);
    expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
    const a = JSON.parse(r.stdout);
    const t = a.evaluation.trigger;
    expect(t).toMatchObject({ should: 12, triggered: 9, trigger_rate: 0.75, recall: 0.75, should_not: 9, false_triggered: 3, false_trigger_rate: 0.3333, precision: 0.75 });
    // Wilson 95% intervals: 9/12 → [0.4677, 0.9111]; 3/9 → [0.1206, 0.6458].
    expect(t.trigger_rate_ci95.low).toBeCloseTo(0.4677, 3);
    expect(t.trigger_rate_ci95.high).toBeCloseTo(0.9111, 3);
    expect(t.false_trigger_rate_ci95.low).toBeCloseTo(0.1206, 3);
    expect(t.false_trigger_rate_ci95.high).toBeCloseTo(0.6458, 3);
    expect(t.precision_ci95.low).toBeCloseTo(0.4677, 3);
    expect(a.evaluation).toMatchObject({ total_tasks: 7, passed: 5, failed: 2, errors: 0, engine_calls: 21 });
    expect(a.evaluation.per_category).toMatchObject({ 'should-trigger': { passed: 3, failed: 1 }, 'should-not-trigger': { passed: 2, failed: 1 } });
  });

  it('keeps the author\'s ids and gives safe ones to queries without', () => {
    expect(loadSuite(join(fixture, 'evals/trigger_evals.json')).tasks.map((t) => [t.id, t.shouldTrigger, t.origin?.id])).toEqual([
      ['trigger-q1', true, 'q1'],
      ['trigger-q2', true, 'q2'],
      ['trigger-q3', true, 'q3'],
      ['trigger-q4', true, 'q4'],
      ['trigger-n1', false, 'n1'],
      ['trigger-n2', false, 'n2'],
      ['trigger-n3', false, 'n3'],
    ]);
    // An optional split per query places it; the others are left to loop.holdout_ratio.
    expect(loadSuite(join(repoRoot, 'test/fixtures/trigger-sets/loop/trigger_evals.json')).tasks.map((t) => t.split)).toEqual(['train', 'train', 'train', 'train', 'train', 'holdout', 'holdout', 'holdout']);
    expect(loadSuite(join(fixture, 'evals/trigger_evals.json')).tasks.every((t) => t.split === undefined)).toBe(true);
    expect(loadSuite(join(fixture, 'evals/split.json')).tasks.map((t) => t.id)).toEqual(['trigger-0', 'trigger-1', 'trigger-2', 'trigger-3', 'trigger-4', 'trigger-5', 'trigger-6']);
  });

  it('refuses a multi-skill router set at the value that names a skill', () => {
    let err: unknown;
    try {
      loadSuite(join(fixture, 'evals/router.json'));
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as Error).message).toMatch(/router\.json:2:67 \[0\]\.should_trigger: this is a multi-skill router set/);
  });

  it('refuses a query whose should_trigger is not true or false, with its place', () => {
    const f = write(join(tempDir(), 'evals/t.json'), '[\n  {"query": "a", "should_trigger": true},\n  {"query": "b", "should_trigger": "yes please"}\n]\n');
    expect(() => loadSuite(f)).toThrow(/t\.json:3:36 \[1\]\.should_trigger: expected true or false/);
  });

  it('counts a trigger set run on an engine that cannot tell as errors, never as triggers or misses', async () => {
    const dir = project();
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\n`);
    const a = JSON.parse((await evaluate(dir, 'trigger_evals.json')).stdout);
    expect(a.evaluation).toMatchObject({ errors: 7, passed: 0, failed: 0 });
  });
});

// The same set through codex's installed mode (test/fixtures/bin/codex, mode skill_by_description: it
// opens the installed SKILL.md when the prompt shares a 5+-letter word with its description), so the
// figures are those of claude's run above, measured from codex's command_execution events.
describe('trigger eval sets through codex installed mode', () => {
  const codexEnv = { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CODEX_MODE: 'skill_by_description' };

  it.each(['trigger_evals.json', 'cases.json', 'split.json'])('measures trigger rate on positives and false-trigger rate on negatives (%s)', async (suite) => {
    const dir = project();
    write(join(dir, 'pipeline.yaml'), 'engine: {type: codex, skill_delivery: installed}\n');
    const r = await whet(['evaluate', '--standalone', '--task-suite', `notes/evals/${suite}`, '--skill-path', 'notes', '--state-root', 'state', '--json', '--force', '--pass-k', '3'], { cwd: dir, env: codexEnv });
    expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
    const a = JSON.parse(r.stdout);
    expect(a.evaluation.trigger).toMatchObject({ should: 12, triggered: 9, trigger_rate: 0.75, recall: 0.75, should_not: 9, false_triggered: 3, false_trigger_rate: 0.3333, precision: 0.75 });
    expect(a.evaluation.trigger.false_trigger_rate_ci95.low).toBeCloseTo(0.1206, 3);
    expect(a.evaluation).toMatchObject({ total_tasks: 7, passed: 5, failed: 2, errors: 0, engine_calls: 21 });
    expect(a.evaluation.per_category).toMatchObject({ 'should-trigger': { passed: 3, failed: 1 }, 'should-not-trigger': { passed: 2, failed: 1 } });
  });

  it('is no measurement when codex is not in installed mode: every query an error', async () => {
    const dir = project();
    write(join(dir, 'pipeline.yaml'), 'engine: {type: codex, skill_delivery: agents_md}\n');
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'notes/evals/trigger_evals.json', '--skill-path', 'notes', '--state-root', 'state', '--json', '--force'], { cwd: dir, env: codexEnv });
    expect(JSON.parse(r.stdout).evaluation).toMatchObject({ errors: 7, passed: 0, failed: 0 });
  });
});
