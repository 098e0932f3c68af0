// Issue 42, item 2: a YAML value is weighed as the tree it stands for (aliases expanded, each shared value
// weighed once), and one that expands far past its text — an alias bomb, a cycle — is refused at its alias
// before anything walks it; a file over the size cap is refused unread. Ordinary anchors still load.
import { closeSync, openSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expansionLimit, MAX_INPUT_BYTES, treeWeight } from '../../src/config/expansion.js';
import { loadSuite } from '../../src/config/suite.js';
import { loadYaml } from '../../src/config/load-yaml.js';
import { z } from 'zod';
import { errorOf } from '../support/errors.js';
import { tempDir, write } from '../support/cli.js';

/** Nine anchors, each a list of nine aliases of the one before, in a json judge's inline schema. */
function aliasBombSuite(): string {
  const lines = ['skill_id: bomb', 'version: "1.0"', 'tasks:', '  - id: t1', '    prompt: hi', '    judge:', '      type: json', '      schema:', '        a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) lines.push(`        a${i}: &a${i} [${Array(9).fill(`*a${i - 1}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
}

describe('tree weight', () => {
  it('counts a shared value each time it appears, visiting it once, and stops past the limit', () => {
    const leaf = ['ab', 'cd'];
    expect(treeWeight(leaf, 1e9)).toBe(1 + 3 + 3);
    expect(treeWeight([leaf, leaf, leaf], 1e9)).toBe(1 + 3 * 7);
    let v: unknown = ['lol'];
    for (let i = 0; i < 40; i++) v = [v, v];
    // 2^40 leaves: stopped at the limit, in microseconds.
    const t0 = performance.now();
    expect(treeWeight(v, 1000)).toBeGreaterThan(1000);
    expect(performance.now() - t0).toBeLessThan(500);
  });

  it('finds a cycle', () => {
    const a: unknown[] = [];
    a.push({ b: a });
    expect(treeWeight(a, 1e9)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('bounded YAML', () => {
  it('refuses the alias bomb in a json judge’s schema at its alias, before hashing it', () => {
    const dir = tempDir();
    write(join(dir, 'bomb.yaml'), aliasBombSuite());
    const t0 = process.cpuUsage();
    const e = errorOf(() => loadSuite(join(dir, 'bomb.yaml')));
    const cpu = process.cpuUsage(t0);
    expect(e.message).toMatch(/bomb\.yaml:18:18: this alias repeats [\d,]+ nodes and characters, and the document's aliases expand it past [\d,]+ \(an alias bomb\)/);
    expect((cpu.user + cpu.system) / 1e6).toBeLessThan(2);
  });

  it('refuses a cycle, and the same bomb in pipeline.yaml', () => {
    const dir = tempDir();
    write(join(dir, 'cycle.yaml'), 'skill_id: c\nversion: "1.0"\ntasks:\n  - id: t1\n    prompt: hi\n    judge:\n      type: json\n      schema: &s\n        items: [*s]\n');
    expect(errorOf(() => loadSuite(join(dir, 'cycle.yaml'))).message).toMatch(/cycle\.yaml:9:17: this alias names a value that contains it/);
    write(join(dir, 'pipeline.yaml'), `engine: {type: mock}\nextra:\n${aliasBombSuite().split('\n').slice(8).join('\n')}`);
    expect(errorOf(() => loadYaml(join(dir, 'pipeline.yaml'), z.unknown(), 'pipeline config')).message).toMatch(/pipeline\.yaml:\d+:\d+: this alias repeats/);
  });

  it('loads anchors a suite shares honestly: one judge for 2,000 tasks', () => {
    const dir = tempDir();
    const tasks = Array.from({ length: 2000 }, (_, i) => (i === 0 ? '  - {id: t0, prompt: p0, judge: &j {type: contains, expected: ["a fairly long expected string that every task shares"]}}' : `  - {id: t${i}, prompt: p${i}, judge: *j}`));
    write(join(dir, 'shared.yaml'), `skill_id: s\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
    expect(loadSuite(join(dir, 'shared.yaml')).tasks).toHaveLength(2000);
    expect(expansionLimit(0)).toBeGreaterThan(2000 * 80);
  });

  it('refuses a file over the size cap unread', () => {
    const dir = tempDir();
    const f = join(dir, 'huge.yaml');
    const fd = openSync(f, 'w');
    ftruncateSync(fd, MAX_INPUT_BYTES + 1);
    closeSync(fd);
    expect(errorOf(() => loadSuite(f)).message).toMatch(/huge\.yaml:1:1: task suite is 64 MiB, over the 64 MiB a suite, config or label file may be; refused unread/);
  });
});
