// Very deep nesting (10,000 levels of `[`, `{` or `- `) in any YAML/JSON input is a located input error
// (exit 2, "nested too deeply"), not "Maximum call stack size exceeded", and nothing is written.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { deepestOffset, MAX_NESTING, nestsDeeper, treeNestsDeeper } from '../../src/config/nesting.js';
import { repoRoot, tempDir, whet, write } from '../support/cli.js';

const N = 10_000;
const SUITE = 'skill_id: x\nversion: "1.0"\ntasks:\n  - {id: a, prompt: p, judge: {type: contains, expected: [x]}}\n';

function project(): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '# X\nSay x.\n');
  write(join(dir, 'skill/tasks.yaml'), SUITE);
  return dir;
}

const refused = (r: { code: number; stderr: string }, at: RegExp) => {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(at);
  expect(r.stderr).toMatch(/nested too deeply: more than 128 levels of lists and maps/);
  expect(r.stderr).not.toMatch(/call stack|internal error/);
};

describe('deeply nested inputs', () => {
  it('refuses suites nested with [ or - , located, with exit 2 and an untouched state directory', async () => {
    const dir = project();
    write(join(dir, 'flow.yaml'), `skill_id: x\nversion: "1.0"\ntasks: ${'['.repeat(N)}${']'.repeat(N)}\n`);
    write(join(dir, 'block.yaml'), `skill_id: x\nversion: "1.0"\ntasks:\n  ${'- '.repeat(N)}x\n`);
    write(join(dir, 'maps.yaml'), `skill_id: x\nversion: "1.0"\ntasks: ${'{a: '.repeat(N)}1${'}'.repeat(N)}\n`);
    const ev = (suite: string) => whet(['evaluate', '--standalone', '--mock', '--task-suite', suite, '--skill-path', 'skill'], { cwd: dir });
    // "tasks:" is one level, so the 128th bracket is the 129th level: column 8 + 127.
    refused(await ev('flow.yaml'), /flow\.yaml:3:135: /);
    refused(await ev('block.yaml'), /block\.yaml:4:\d+: /);
    refused(await ev('maps.yaml'), /maps\.yaml:3:\d+: /);
    refused(await whet(['lint', 'flow.yaml'], { cwd: dir }), /flow\.yaml:3:135: /);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('refuses a deep pipeline.yaml, ranking.json and intent case line', async () => {
    const dir = project();
    write(join(dir, 'pipeline.yaml'), `engine: {type: mock}\nevaluate: ${'['.repeat(N)}${']'.repeat(N)}\n`);
    refused(await whet(['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill'], { cwd: dir }), /pipeline\.yaml:2:\d+: /);
    write(join(dir, 'pipeline.yaml'), 'engine: {type: mock}\n');
    write(join(dir, 'ranking.json'), `{"run_id": "r", "target": {"path": "skill"}, "scored_candidates": ${'['.repeat(N)}${']'.repeat(N)}}`);
    refused(await whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'c', '--task-suite', 'skill/tasks.yaml'], { cwd: dir }), /ranking\.json:1:\d+: /);
    expect(existsSync(join(dir, 'state'))).toBe(false);
    write(join(dir, 'cases.jsonl'), `{"id": "c1", "request": "hi", "params": ${'['.repeat(N)}${']'.repeat(N)}}\n`);
    const r = await whet(['intents', '--cases', 'cases.jsonl', '--catalog', join(repoRoot, 'examples/intents/catalog'), '--engine', 'floor', '--out', dir], { cwd: dir });
    expect(r.stderr).toMatch(/cases\.jsonl:1:\d+: nested too deeply/);
    expect(r.code).toBe(2);
  });

  it('measures depth without recursion, and leaves ordinary documents alone', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestsDeeper(deep)).toBe(true);
    expect(nestsDeeper({ a: [{ b: { c: [1, 2, { d: 'x' }] } }] })).toBe(false);
    // The sliced suite reader's check (trees only): the same answer at the limit, and no recursion past it.
    expect(treeNestsDeeper(deep)).toBe(true);
    for (const levels of [MAX_NESTING - 1, MAX_NESTING, MAX_NESTING + 1]) {
      let list: unknown = 1;
      let map: unknown = 'x';
      for (let i = 0; i < levels; i++) {
        list = [0, list];
        map = { k: map, other: 1 };
      }
      expect(treeNestsDeeper(list), `${levels} levels of lists`).toBe(nestsDeeper(list));
      expect(treeNestsDeeper(map), `${levels} levels of maps`).toBe(nestsDeeper(map));
      expect(nestsDeeper(list)).toBe(levels > MAX_NESTING);
    }
    expect(deepestOffset(`a:\n  b: [1, {c: "[[[[", d: '{{'}]\n  # [[[[[[\n  e: |\n    [[[[[[[[\n`, 4)).toBeUndefined();
    expect(deepestOffset('x: ' + '['.repeat(MAX_NESTING + 5))).toBe(3 + MAX_NESTING - 1);
  });
});
