// `whet plan`'s engine calls per candidate (docs/method.md: What it does on a noisy model): on a noisy
// engine the candidate's train tasks run only once the held-out test has kept it (src/measure/train-after-keep.ts),
// so the plan counts them at the keep rate — none for an edit that does nothing, all of them when every
// attempt ran — and `evaluate.measure_train: always` counts them in the first measurement, as before.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { tempDir, whet, write } from '../support/cli.js';

function project(extra: string): string {
  const dir = tempDir('whet-plan-calls-');
  write(join(dir, 'skill/SKILL.md'), '---\nname: notes\ndescription: Writes notes.\n---\n# Notes\nCite the ticket.\n');
  const tasks = Array.from({ length: 40 }, (_, i) => `  - {id: t${i}, prompt: "note ${i}", split: ${i < 20 ? 'holdout' : 'train'}, judge: {type: contains, expected: ["ticket"]}}`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: mock}\nstate_dir: state\ntargets: [{skill: skill}]\n${extra}`);
  return dir;
}

const plan = async (extra: string) => {
  const r = await whet(['plan', '--json'], { cwd: project(extra) });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { calls: { no_effect: number; min_effect: number; every_attempt: number }; plan: { power: number }; guard_calls: { no_effect: number; min_effect: number; trials: number; se: { no_effect: number } } };
};

describe('whet plan: engine calls per candidate', () => {
  it('counts the candidate’s train tasks at the keep rate, or first with measure_train: always', async () => {
    const waits = await plan('');
    const always = await plan('evaluate: {measure_train: always}\n');
    // Every attempt: 20 held-out tasks × 2 variants × 10, and the kept candidate's 20 train tasks once.
    expect(waits.calls.every_attempt).toBe(2 * 20 * 10 + 20);
    expect(always.calls.every_attempt).toBe(2 * 40 + 2 * 20 * 9);
    // A no-effect edit is kept at most 0.01 of the time (each of 5 candidates at 0.05 ÷ 5): its train tasks cost nothing.
    expect(always.calls.no_effect - waits.calls.no_effect).toBe(40);
    expect(always.calls.min_effect - waits.calls.min_effect).toBe(40 - Math.round(20 * waits.plan.power));
  });

  it('adds the regression guard’s rounds, simulated, to the calls a candidate is expected to make', async () => {
    const dir = project('');
    const json = await whet(['plan', '--json'], { cwd: dir });
    const r = JSON.parse(json.stdout) as Awaited<ReturnType<typeof plan>>;
    // 25 simulated candidates on 20 held-out tasks (src/measure/guard-calls.ts guardTrials), seeded.
    expect(r.guard_calls.trials).toBe(25);
    // At ½ per task an edit that does nothing is stopped early and the guard follows the tasks it is behind
    // on: tens of calls (the trials' half-extreme suite: about 22 of 125), never more than every attempt.
    expect(r.guard_calls.no_effect).toBeGreaterThan(10);
    expect(r.guard_calls.no_effect + r.calls.no_effect).toBeLessThan(r.calls.every_attempt);
    expect(r.guard_calls.se.no_effect).toBeGreaterThan(0);
    const again = JSON.parse((await whet(['plan', '--json'], { cwd: dir })).stdout) as typeof r;
    expect(again.guard_calls).toEqual(r.guard_calls);
    const text = await whet(['plan'], { cwd: dir });
    expect(text.stdout).toContain(`≈ ${r.calls.no_effect + r.guard_calls.no_effect} with no effect, ≈ ${r.calls.min_effect + r.guard_calls.min_effect} at +10 points, ${r.calls.every_attempt} if every attempt ran`);
    expect(text.stdout).toContain(`of which the regression guard's rounds on tasks that look worse after the decision: ≈ ${r.guard_calls.no_effect} (± ${r.guard_calls.se.no_effect})`);
  });

  it('--pilot measures the baseline first, and the guard’s rounds are simulated at its chances', async () => {
    const dir = project('evaluate: {deterministic: false}\n');
    const before = JSON.parse((await whet(['plan', '--json'], { cwd: dir })).stdout) as { chances_from: string };
    expect(before.chances_from).toMatch(/^assumed ½/);
    const r = await whet(['plan', '--pilot', '--json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse(r.stdout) as { chances_from: string; guard_calls: { trials: number } | null };
    expect(after.chances_from).toBe('the cached baseline of this skill (20 held-out task(s))');
    expect(after.guard_calls?.trials).toBe(25);
  });

  it('says so when the suite is too large to simulate the guard’s rounds', async () => {
    const dir = project('');
    const tasks = Array.from({ length: 5001 }, (_, i) => `  - {id: t${i}, prompt: "note ${i}", split: holdout, judge: {type: contains, expected: ["ticket"]}}`);
    write(join(dir, 'skill/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
    const json = JSON.parse((await whet(['plan', '--json'], { cwd: dir })).stdout) as { guard_calls: { skipped?: string } };
    expect(json.guard_calls.skipped).toBe('not simulated above 5000 held-out tasks (each simulated candidate would take seconds)');
    const text = await whet(['plan'], { cwd: dir });
    expect(text.stdout).toContain("the regression guard's rounds on tasks that look worse after the decision, not simulated above 5000 held-out tasks (each simulated candidate would take seconds), come on top of the first two, within the third");
  });
});
