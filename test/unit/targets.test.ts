import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadPipeline } from '../../src/config/pipeline.js';
import { expandTargets } from '../../src/config/targets.js';
import { tempDir, write } from '../support/cli.js';

function project(targets: string): string {
  const dir = tempDir();
  write(join(dir, 'skills/notes/SKILL.md'), '# Notes\n');
  write(join(dir, 'skills/notes/tasks.yaml'), 'skill_id: notes\n');
  write(join(dir, 'skills/notes/tasks-b.yaml'), 'skill_id: notes\n');
  write(join(dir, 'pipeline.yaml'), `engine: {type: mock}\ntargets: ${targets}\n`);
  return dir;
}

async function expand(dir: string) {
  const warnings: string[] = [];
  const targets = expandTargets(await loadPipeline(undefined, dir), (l) => warnings.push(l));
  return { targets, warnings };
}

describe('expandTargets', () => {
  it('keeps the same skill with two suites, or with an engine override, as separate targets', async () => {
    const dir = project('[{skill: skills/notes}, {skill: skills/notes, suite: skills/notes/tasks-b.yaml}, {skill: skills/notes, engine: {type: mock, latency_ms: 1}}]');
    const { targets, warnings } = await expand(dir);
    expect(targets.map((t) => [t.suitePath.split('/').pop(), t.engine ? 'override' : 'default'])).toEqual([
      ['tasks.yaml', 'default'],
      ['tasks-b.yaml', 'default'],
      ['tasks.yaml', 'override'],
    ]);
    expect(new Set(targets.map((t) => t.key)).size).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('collapses only an exact duplicate, with a warning, and keys are stable across loads', async () => {
    const dir = project('[{skill: "skills/*/SKILL.md"}, {skill: skills/notes, suite: skills/notes/tasks.yaml}]');
    const first = await expand(dir);
    expect(first.targets).toHaveLength(1);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toMatch(/skills\/notes \(suite skills\/notes\/tasks\.yaml\) is listed more than once/);
    expect((await expand(dir)).targets[0]!.key).toBe(first.targets[0]!.key);
  });
});
