// writeArtifact checks a long top-level array (an evaluation's task_results) element by element as it
// writes it, instead of holding a second, parsed copy of it (src/state/artifact-io.ts). The file must be
// byte for byte what the whole-schema parse would have written, and an invalid element must still be
// refused with its path, leaving the old file in place.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { standaloneEvaluation, type StandaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { writeArtifact } from '../../src/state/artifact-io.js';
import { tempDir, whet, write } from '../support/cli.js';

async function evaluated(tasks: number): Promise<{ dir: string; file: string }> {
  const dir = tempDir();
  const lines = ['skill_id: s', 'version: "1.0"', 'tasks:'];
  for (let i = 0; i < tasks; i++) lines.push(`  - id: t${i}`, `    category: c${i % 3}`, `    prompt: "Question ${i}"`, '    judge: {type: contains, expected: ["Question"]}');
  write(join(dir, 'tasks.yaml'), `${lines.join('\n')}\n`);
  write(join(dir, 'SKILL.md'), '---\nname: s\n---\nAnswer by repeating the Question.\n');
  const file = join(dir, 'out.json');
  const r = await whet(['evaluate', '--standalone', '--mock', '--task-suite', 'tasks.yaml', '--skill-path', '.', '--state-root', 'state', '--output', file], { cwd: dir });
  expect(r.code, r.stderr).toBeLessThan(2);
  return { dir, file };
}

const wholeParse = (a: unknown) => `${JSON.stringify(standaloneEvaluation.parse(a), null, 2)}\n`;

describe('writeArtifact with a long array', () => {
  it('writes exactly the bytes of the whole-schema parse, for long and short arrays', async () => {
    for (const n of [1500, 20]) {
      const { dir, file } = await evaluated(n);
      const artifact = JSON.parse(readFileSync(file, 'utf8')) as StandaloneEvaluation;
      expect(artifact.task_results).toHaveLength(n);
      // An unknown key the schema strips, inside an element and at the top: stripped in both ways of writing.
      (artifact.task_results[n - 1] as Record<string, unknown>).stray = 1;
      (artifact as Record<string, unknown>).stray = 2;
      const out = join(dir, 'again.json');
      await writeArtifact(out, standaloneEvaluation, artifact);
      expect(readFileSync(out, 'utf8')).toBe(wholeParse(artifact));
      expect(readFileSync(out, 'utf8')).not.toContain('stray');
    }
  });

  it('refuses an invalid element with its path and leaves the old file as it was', async () => {
    const { file } = await evaluated(1500);
    const before = readFileSync(file, 'utf8');
    const artifact = JSON.parse(before) as StandaloneEvaluation;
    (artifact.task_results[1400] as Record<string, unknown>).score = 'high';
    await expect(writeArtifact(file, standaloneEvaluation, artifact)).rejects.toThrow(/refusing to write an invalid artifact .*task_results\[1400\]\.score/);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(dirname(file)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
