import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesBin, readJson, tempDir, whet, write } from '../support/cli.js';

const echo = join(fixturesBin, 'echo-agent');

function project(engine: string): string {
  const dir = tempDir();
  write(join(dir, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number and the owner.\n');
  const tasks = Array.from({ length: 10 }, (_, i) => `  - {id: n${i}, category: ${i < 5 ? 'cite' : 'own'}, ${i === 9 ? 'critical: true, ' : ''}prompt: "note ${i}", judge: {type: contains, expected: ["${i < 5 ? 'ticket number' : 'owner'}"]}}`);
  write(join(dir, 'skills/notes/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  write(join(dir, 'skills/other/SKILL.md'), '# Other\nSay hello.\n');
  write(join(dir, 'skills/other/tasks.yaml'), 'skill_id: other\nversion: "1.0"\ntasks:\n  - {id: o1, prompt: hi, judge: {type: contains, expected: ["hello"]}}\n');
  setEngine(dir, engine);
  return dir;
}

function setEngine(dir: string, engine: string): void {
  write(join(dir, 'pipeline.yaml'), `engine: ${engine}\ntargets: [{skill: "skills/*/SKILL.md"}]\n`);
}

describe('whet baseline over several targets', () => {
  it('runs the targets at the same time under one shared concurrency limit', async () => {
    const dir = tempDir();
    for (const name of ['alpha', 'beta']) {
      write(join(dir, `skills/${name}/SKILL.md`), `# ${name}\nSay ${name}.\n`);
      const tasks = Array.from({ length: 6 }, (_, i) => `  - {id: ${name}${i}, prompt: "p ${i}", judge: {type: contains, expected: ["${name}"]}}`);
      write(join(dir, `skills/${name}/tasks.yaml`), `skill_id: ${name}\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
    }
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${echo}"]}\nevaluate: {concurrency: 3}\ntargets: [{skill: "skills/*/SKILL.md"}]\n`);
    const spans = join(dir, 'spans.jsonl');
    const r = await whet(['baseline'], { cwd: dir, env: { ...process.env, AGENT_SLEEP_MS: '200', AGENT_SPAN_LOG: spans } });
    expect(r.code, r.stderr).toBe(0);
    const calls = readFileSync(spans, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { skill: string; start: number; end: number });
    expect(calls).toHaveLength(12);
    // Most calls in flight at once, from the agents' own start and end times.
    const edges = calls.flatMap((c) => [{ t: c.start, d: 1 }, { t: c.end, d: -1 }]).sort((a, b) => a.t - b.t || a.d - b.d);
    let now = 0;
    let peak = 0;
    for (const e of edges) peak = Math.max(peak, (now += e.d));
    expect(peak).toBeLessThanOrEqual(3);
    expect(peak).toBeGreaterThanOrEqual(2);
    // The two targets overlap in time: one limit is shared, not one target after the other.
    const of = (skill: string) => calls.filter((c) => c.skill === `# ${skill}`);
    const [a, b] = [of('alpha'), of('beta')];
    expect(Math.min(...b.map((c) => c.start))).toBeLessThan(Math.max(...a.map((c) => c.end)));
    expect(Math.min(...a.map((c) => c.start))).toBeLessThan(Math.max(...b.map((c) => c.end)));
  });
});

describe('whet nightly', () => {
  it('measures every task again on the second night and raises no alert when nothing changed', async () => {
    const dir = project(`{type: command, command: ["${echo}"]}`);
    const night1 = await whet(['nightly', '--json'], { cwd: dir, now: () => new Date(2026, 10, 1, 3) });
    expect(night1.code, night1.stderr).toBe(0);
    const a = JSON.parse(night1.stdout);
    expect(a.targets.map((t: any) => t.target.split('/').pop())).toEqual(['notes', 'other']);
    expect(a.targets[0]).toMatchObject({ engine_calls: 10, pass_rate: 1 });
    const night2 = await whet(['nightly', '--json'], { cwd: dir, now: () => new Date(2026, 10, 2, 3) });
    expect(night2.code).toBe(0);
    const b = JSON.parse(night2.stdout);
    expect(b.alert).toBe(false);
    expect(b.targets.map((t: any) => t.engine_calls)).toEqual([10, 1]);
    expect(b.engine_calls).toBe(11);
    expect(b.targets[0].drift).toMatchObject({ alert: false, tasks_compared: 10, regressions: [], engine_behaviour_changed: false, cause: expect.stringMatching(/^nothing changed .* same result$/) });
    const history = readFileSync(join(dir, 'state/nightly/history.jsonl'), 'utf8').trim().split('\n');
    expect(history).toHaveLength(4);
    expect(existsSync(join(dir, 'state/nightly/2026-11-02.md'))).toBe(true);
  });

  it('raises a drift alert naming the cause when the engine changed over a week, and exits 1', async () => {
    const dir = project(`{type: command, command: ["${echo}"]}`);
    expect((await whet(['nightly'], { cwd: dir, now: () => new Date(2026, 10, 1, 3) })).code).toBe(0);
    // A week later the engine answers without the skill's guidance.
    setEngine(dir, `{type: command, command: ["${echo}"], skill_delivery: none}`);
    const r = await whet(['nightly'], { cwd: dir, now: () => new Date(2026, 10, 8, 3) });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/## ⚠ Drift alert/);
    expect(r.stdout).toMatch(/significant drop: 10 task\(s\) regressed vs 0 fixed, exact McNemar p = 0\.001953 < 0\.01/);
    // A command engine may vary from call to call: its night-over-night test runs at the nightly significance (a fifth).
    expect(r.stdout).toMatch(/critical task\(s\) newly failing: n9/);
    expect(r.stdout).toMatch(/engine changed, skill and suite unchanged/);
    const md = readFileSync(join(dir, 'state/nightly/2026-11-08.md'), 'utf8');
    expect(md.indexOf('Drift alert')).toBeLessThan(md.indexOf('## /'));
    const day = readJson(join(dir, 'state/nightly/2026-11-08.json'));
    expect(day.alert).toBe(true);
    // Two nights of a command engine's rounds: ≈ 20 s of CPU in spawned agents, more than the default 30 s
    // allows beside another file on two cores.
  }, 90_000);

  it('states which of skill, suite and engine changed', async () => {
    const { describeChange } = await import('../../src/nightly/drift.js');
    expect(describeChange({ skill: true, suite: false, engine: false })).toBe('skill changed, suite and engine unchanged');
    expect(describeChange({ skill: true, suite: true, engine: false })).toBe('skill and suite changed, engine unchanged');
  });

  it('prunes old runs and expired cache (promoted runs: see loop.test.ts)', async () => {
    const dir = project(`{type: command, command: ["${echo}"]}`);
    await whet(['baseline'], { cwd: dir, now: () => new Date('2026-10-01T03:00:00Z') });
    const dry = await whet(['prune', '--older-than', '30d', '--dry-run', '--json'], { cwd: dir, now: () => new Date('2026-11-15T00:00:00Z') });
    const r = JSON.parse(dry.stdout);
    expect(r.removed_runs).toHaveLength(2);
    expect(r.removed_cache).toHaveLength(2);
    expect(existsSync(join(dir, 'state/runs', r.removed_runs[0]))).toBe(true);
    await whet(['prune', '--older-than', '30d'], { cwd: dir, now: () => new Date('2026-11-15T00:00:00Z') });
    expect(existsSync(join(dir, 'state/runs', r.removed_runs[0]))).toBe(false);
  });
});
