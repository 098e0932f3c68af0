// A derived array (src/core/derived-array.ts) must be indistinguishable from `source.map(f)` to whatever
// reads it — the artifact writer, zod, the printer, the matchers — while holding no element; the task
// results of an evaluation artifact are one (src/measure/verdict.ts).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { derivedArray } from '../../src/core/derived-array.js';
import { writeArtifact } from '../../src/state/artifact-io.js';
import { newTally, type TaskTally } from '../../src/evaluation/aggregate.js';
import { taskResults } from '../../src/measure/verdict.js';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { join } from 'node:path';
import { tempDir } from '../support/cli.js';

const source = [3, 1, 4, 1, 5];
const f = (n: number, i: number) => ({ n, i, sq: n * n });

describe('derivedArray', () => {
  it('reads as the mapped array does', () => {
    const d = derivedArray(source, f);
    const m = source.map(f);
    expect(Array.isArray(d)).toBe(true);
    expect(d.length).toBe(5);
    expect(d[2]).toEqual({ n: 4, i: 2, sq: 16 });
    expect(d[5]).toBeUndefined();
    expect(2 in d && !(5 in d)).toBe(true);
    expect(JSON.stringify(d)).toBe(JSON.stringify(m));
    expect(JSON.stringify({ rows: d }, null, 2)).toBe(JSON.stringify({ rows: m }, null, 2));
    expect([...d]).toEqual(m);
    expect(d).toEqual(m);
    expect(Object.keys(d)).toEqual(Object.keys(m));
    expect(d.filter((r) => r.n === 1).map((r) => r.i)).toEqual([1, 3]);
    expect(d.find((r) => r.sq > 10)).toEqual({ n: 4, i: 2, sq: 16 });
    expect(z.array(z.object({ n: z.number(), i: z.number(), sq: z.number() })).parse(d)).toEqual(m);
    // What console.log and a failing test's diff show (a proxy's target is empty).
    expect(inspect(d)).toBe(inspect(m));
    expect(inspect({ rows: d }, { depth: 0 })).toBe(inspect({ rows: m }, { depth: 0 }));
  });

  it('computes an element only when it is read, from the source as it is then', () => {
    let calls = 0;
    const src = [1, 2, 3];
    const d = derivedArray(src, (n) => (calls++, n * 10));
    expect(calls).toBe(0);
    src[1] = 7;
    expect(d[1]).toBe(70);
    expect(calls).toBe(1);
  });

  it('refuses writes rather than losing them', () => {
    const d = derivedArray(source, f);
    expect(() => {
      d[0] = { n: 0, i: 0, sq: 0 };
    }).toThrow(TypeError);
    expect(() => d.push({ n: 0, i: 0, sq: 0 })).toThrow(TypeError);
    expect(() => d.sort()).toThrow(TypeError);
    expect(d.length).toBe(5);
  });

  it('is written by writeArtifact exactly as the array would be, streamed or whole', async () => {
    const dir = tempDir();
    const schema = z.object({ id: z.string(), rows: z.array(z.object({ n: z.number(), i: z.number(), sq: z.number() })) });
    for (const len of [5, 2500]) {
      const src = Array.from({ length: len }, (_, i) => i % 7);
      await writeArtifact(join(dir, 'd.json'), schema, { id: 'x', rows: derivedArray(src, f) });
      await writeArtifact(join(dir, 'm.json'), schema, { id: 'x', rows: src.map(f) });
      expect(readFileSync(join(dir, 'd.json'), 'utf8')).toBe(readFileSync(join(dir, 'm.json'), 'utf8'));
    }
  });
});

describe('an artifact\'s task results', () => {
  it('are derived from the tallies, not a second object per task', () => {
    const task = { id: 't1', prompt: 'p', judges: [], timeoutMs: 1, category: 'c', negative: false, critical: false, index: 0 };
    const tallies: TaskTally[] = [newTally(task, 1)];
    const rows = taskResults(tallies);
    expect(rows[0]).toMatchObject({ task_id: 't1', status: 'error', passes: 0 });
    Object.assign(tallies[0]!, { judged: 1, passes: 1, bestScore: 1, reason: 'ok' });
    expect(rows[0]).toMatchObject({ task_id: 't1', status: 'pass', passed: true, passes: 1, reason: 'ok' });
  });
});
