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
  return JSON.parse(r.stdout) as { calls: { no_effect: number; min_effect: number; every_attempt: number }; plan: { power: number } };
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
});
