// The mock engine as a judge scores expectations and rubrics by word overlap (src/engines/mock.ts): on a
// skill-creator suite the run says so before it starts and points at judge_engine, and a baseline it
// grades too low is put down to the mock judge, not to "a broken suite" (issue 40, item 7).
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readJson, tempDir, whet, write } from '../support/cli.js';

/** A skill-creator skill whose expectations share no words with anything the mock agent can answer. */
function project(): string {
  const dir = tempDir('whet-mock-judges-');
  write(join(dir, 'skills/haiku/SKILL.md'), '---\nname: haiku\ndescription: Write a haiku. Use when asked for a short poem.\n---\n# Haiku\n\nWrite three lines of five, seven and five syllables.\n');
  write(
    join(dir, 'skills/haiku/evals/evals.json'),
    JSON.stringify({
      skill_name: 'haiku',
      evals: [
        { id: 1, prompt: 'Write a haiku about autumn.', expected_output: 'a haiku', expectations: ['Mentions falling maple leaves', 'Evokes quiet melancholy'] },
        { id: 2, prompt: 'Write a haiku about the sea.', expected_output: 'a haiku', expectations: ['Mentions tides or waves crashing', 'Closes on a seabird'] },
      ],
    }),
  );
  write(join(dir, 'pipeline.yaml'), 'state_dir: state\nengine: {type: mock}\ntargets: [{skill: skills/haiku, suite: skills/haiku/evals/evals.json}]\nloop: {max_iterations: 1}\n');
  return dir;
}

describe('the mock says what it cannot grade', () => {
  it('a loop run on a skill-creator suite: a note before it starts, and a weak baseline put down to the mock judge', async () => {
    const dir = project();
    const r = await whet(['run', '--mock'], { cwd: dir });
    const note = r.stderr.indexOf('whet: note: the mock judge cannot grade expectations: 2 of 2 task(s)');
    expect(note, r.stderr).toBeGreaterThanOrEqual(0);
    expect(r.stderr).toMatch(/leave out --mock and set judge_engine in pipeline\.yaml/);
    // Said before the first measurement starts.
    const started = r.stderr.search(/baseline/);
    expect(started < 0 || note < started, r.stderr).toBe(true);
    expect(r.stderr + r.stdout).not.toMatch(/probably broken/);
    expect(r.stderr + r.stdout).toMatch(/the mock judge graded 2 of 2 task\(s\) \(expectations\) by word overlap.*set judge_engine/);
  }, 120_000);

  it('standalone: the note, and none for a suite the mock can grade', async () => {
    const dir = project();
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'skills/haiku/evals/evals.json', '--skill-path', 'skills/haiku', '--mock', '--json'], { cwd: dir });
    expect(r.stderr).toMatch(/whet: note: the mock judge cannot grade expectations/);
    write(join(dir, 'plain.yaml'), 'skill_id: haiku\nversion: "1.0"\ntasks:\n  - id: autumn\n    prompt: Write a haiku about autumn.\n    judge: {type: contains, expected: [syllables]}\n');
    const plain = await whet(['evaluate', '--standalone', '--task-suite', 'plain.yaml', '--skill-path', 'skills/haiku', '--mock', '--json'], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stderr).not.toMatch(/mock judge/);
    expect(readJson(join(dir, 'state/runs', JSON.parse(plain.stdout).run_id, 'evaluation.json')).verdict).toBe('pass');
  });
});
