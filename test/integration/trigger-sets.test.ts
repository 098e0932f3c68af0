// skill-creator trigger eval sets as trigger suites, measured through claude's installed mode against the
// fake CLI (test/fixtures/bin/claude, mode stream_by_description: it invokes the skill when the prompt
// shares a 5+-letter word with the skill's description). The fixture set has 4 queries that should trigger
// (one of which shares no word: a miss) and 3 that should not (one near miss shares "release").
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync } from 'node:fs';
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

  it('reports trigger rate, false-trigger rate, precision and recall with intervals in every report format', async () => {
    const dir = project();
    const r = await evaluate(dir, 'trigger_evals.json', ['--pass-k', '3']);
    const runId = JSON.parse(r.stdout).run_id as string;
    const report = (format: string, extra: string[] = []) => whet(['report', runId, '--state-root', 'state', '--format', format, ...extra], { cwd: dir, env });
    const md = (await report('md')).stdout;
    expect(md).toContain('## Triggering');
    expect(md).toMatch(/\| skill notes \| 0\.7500 \(9\/12\) \| \[0\.47, 0\.91\] \| 0\.3333 \(3\/9\) \| \[0\.12, 0\.65\] \| 0\.7500 \(9\/12\) \| \[0\.47, 0\.91\] \| 0\.7500 \(9\/12\) \| \[0\.47, 0\.91\] \|/);
    // 3 of 9 runs false-triggered, two of them on one query: far from shown under the default 0.2 bar.
    expect(md).toMatch(/\| trigger_rates \| \*\*failed\*\* \| .*false-trigger rate 0\.3333, its 95% upper bound 0\.\d+ clustered by query \\?> 0\.2 \(3 should-not-trigger queries, 9 runs\)/);
    const html = (await report('html')).stdout;
    expect(html).toMatch(/<tr data-testid="trigger-row"><td>skill notes<\/td><td>0\.7500 \(9\/12\)<\/td><td>\[0\.47, 0\.91\]<\/td><td>0\.3333 \(3\/9\)<\/td>/);
    const junit = (await report('junit')).stdout;
    expect(junit).toContain('<property name="whetstone.trigger.skill_notes.false_trigger_rate" value="0.3333 (3/9) [0.12, 0.65]"/>');
    expect(junit).toMatch(/skill notes: trigger rate 0\.7500 \(9\/12\) \[0\.47, 0\.91\]; false-trigger rate 0\.3333 \(3\/9\) \[0\.12, 0\.65\]; precision 0\.7500 \(9\/12\) \[0\.47, 0\.91\]; recall/);
    const json = JSON.parse((await report('json')).stdout);
    expect(json.trigger[0]).toMatchObject({ label: 'skill notes', trigger_rate: 0.75, false_trigger_rate: 0.3333, precision: 0.75, recall: 0.75 });
    const out = join(dir, 'sc');
    expect((await report('skill-creator', ['-o', out])).code).toBe(0);
    const bench = JSON.parse(readFileSync(join(out, 'benchmark.json'), 'utf8'));
    expect(bench.metadata.skill_name).toBe('notes');
    expect(bench.whetstone.trigger[0]).toMatchObject({ trigger_rate: 0.75, false_trigger_rate: 0.3333, precision: 0.75, recall: 0.75 });
    expect(bench.notes.join('\n')).toMatch(/whetstone: skill notes: trigger rate 0\.7500 \(9\/12\) \[0\.47, 0\.91\]; false-trigger rate 0\.3333/);
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

  it('refuses an engine that cannot tell before its first call: exit 2, what to use instead, state untouched', async () => {
    const dir = project();
    const log = join(dir, 'calls.log');
    // An agent that leaves a line per call: the refusal must come before any.
    const agent = write(join(dir, 'agent.cjs'), `require('fs').appendFileSync(${JSON.stringify(log)}, 'x\\n');\nconsole.log('ok');\n`);
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${process.execPath}", "${agent}"]}\n`);
    const r = await evaluate(dir, 'trigger_evals.json');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/7 task\(s\) are trigger queries \(should_trigger\), but the command engine cannot tell whether the agent invoked the skill/);
    expect(r.stderr).toMatch(/engine: \{type: claude, mode: installed\} or engine: \{type: codex, skill_delivery: installed\}/);
    expect(existsSync(log)).toBe(false);
    expect(existsSync(join(dir, 'state'))).toBe(false);
    // The mock cannot trigger either, in a stand-alone evaluation and in the description loop alike.
    const mock = await evaluate(dir, 'trigger_evals.json', ['--mock']);
    expect(mock.code).toBe(2);
    expect(mock.stderr).toMatch(/the mock engine \(--mock\) cannot tell/);
    write(join(dir, 'pipeline.yaml'), 'state_dir: state\ntargets: [{skill: notes, suite: notes/evals/trigger_evals.json}]\nloop: {proposers: [llm]}\n');
    const loop = await whet(['run', '--mock'], { cwd: dir, env });
    expect(loop.code).toBe(2);
    expect(loop.stderr).toMatch(/the mock engine \(--mock\) cannot tell whether the agent invoked the skill/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('fails a skill that never triggers, however many should-not-trigger queries it passes, and names the run after the skill', async () => {
    const dir = project();
    // No 5-letter word of these queries is in the description: the fake CLI never invokes the skill.
    write(join(dir, 'notes/SKILL.md'), '---\nname: quiet-notes\ndescription: Zzz qqq.\n---\n# Quiet\n\nNothing.\n');
    const queries = [
      ...['Draft the release notes for v2.3', 'Summarise merged changes', 'release notes please'].map((q) => ({ query: q, should_trigger: true })),
      ...['write a haiku about autumn', 'fix the flaky test in ci', 'book a table for two', 'translate this letter', 'sort these numbers', 'rename the branch', 'water the plants'].map((q) => ({ query: q, should_trigger: false })),
    ];
    write(join(dir, 'notes/evals/mostly-negative.json'), JSON.stringify(queries, null, 1));
    const r = await evaluate(dir, 'mostly-negative.json');
    expect(r.code).toBe(1);
    const a = JSON.parse(r.stdout);
    // Pooled, 7 of 10 queries "pass" (0.7 ≥ standalone_min_pass_rate 0.5); the trigger rate 0/3 decides.
    expect(a.evaluation).toMatchObject({ passed: 7, failed: 3, pass_rate: 0.7, min_trigger_rate: 0.5, max_false_trigger_rate: 0.2 });
    expect(a.evaluation.trigger).toMatchObject({ trigger_rate: 0, triggered: 0, should: 3, false_trigger_rate: 0 });
    expect(a.verdict).toBe('fail');
    // No false trigger on 7 queries run once each is still no proof of a rate under 0.2: the bound clustered by query is 0.35.
    expect(a.reason).toMatch(/^trigger rate 0\.0000 \[0\.00, 0\.56\] < 0\.5 \(0\/3 should-trigger runs\); false-trigger rate 0\.0000, its 95% upper bound 0\.350\d clustered by query > 0\.2 \(7 should-not-trigger queries, 7 runs\)/);
    expect(a.skill_id).toBe('quiet-notes');
    expect(a.run_id).toMatch(/-standalone-quiet-notes$/);
    // Its own bars, registered like the others: the false-trigger bar fails the fixture set's 3/9.
    write(join(dir, 'pipeline.yaml'), 'engine: {type: claude, mode: installed}\nevaluate: {max_false_trigger_rate: 0.2}\n');
    cpSync(join(fixture, 'SKILL.md'), join(dir, 'notes/SKILL.md'));
    const strict = JSON.parse((await evaluate(dir, 'trigger_evals.json', ['--pass-k', '3'])).stdout);
    expect(strict.verdict).toBe('fail');
    expect(strict.reason).toMatch(/trigger rate 0\.7500 .*≥ 0\.5.*; false-trigger rate 0\.3333, its 95% upper bound 0\.\d+ clustered by query > 0\.2/);
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

  it('refuses codex outside installed mode before any call', async () => {
    const dir = project();
    write(join(dir, 'pipeline.yaml'), 'engine: {type: codex, skill_delivery: agents_md}\n');
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'notes/evals/trigger_evals.json', '--skill-path', 'notes', '--state-root', 'state', '--json', '--force'], { cwd: dir, env: codexEnv });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the codex engine with skill_delivery: agents_md cannot tell/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });
});
