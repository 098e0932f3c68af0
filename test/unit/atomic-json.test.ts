// writeJsonAtomically writes each top-level value and each element of a top-level array on its own
// (src/core/atomic.ts); whatever the values, the file must be byte for byte JSON.stringify's output.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ArrayPieces, writeJsonAtomically } from '../../src/core/atomic.js';
import { tempDir } from '../support/cli.js';

const awkward = {
  rows: [{ a: 1, nested: [[], [{}], { deep: ['x\ny', '"quoted"', '\u2028'] }], gone: undefined }, undefined, null, [1, [2, [3]]], 'line\nbreak', () => 0, { toJSON: () => ({ as: 'json' }) }],
  empty: [],
  skipped: undefined,
  text: 'multi\nline',
  obj: { inner: { list: [1, 2], none: {} } },
};

describe('writeJsonAtomically', () => {
  it('writes exactly JSON.stringify of awkward values, indented and compact', async () => {
    const dir = tempDir();
    for (const indent of [2, 0] as const) {
      const file = join(dir, `out-${indent}.json`);
      await writeJsonAtomically(file, awkward, indent);
      expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(awkward, null, indent)}\n`);
    }
  });

  it('writes an ArrayPieces as the array of its elements', async () => {
    const dir = tempDir();
    const rows = [{ id: 'a', v: [1, { w: 2 }] }, { id: 'b', v: [] }];
    const file = join(dir, 'pieces.json');
    await writeJsonAtomically(file, { schema: 's', rows: new ArrayPieces(rows.length, (i) => rows[i]) });
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify({ schema: 's', rows }, null, 2)}\n`);
  });

  it('writes arrays longer than one run of elements exactly, taking each element once and in order', async () => {
    const dir = tempDir();
    // 600 elements: two whole runs and a part of one (src/core/atomic.ts), awkward values among them.
    const rows = Array.from({ length: 600 }, (_, i) => (i % 7 === 0 ? undefined : i % 11 === 0 ? 'a\nb' : { id: `t${i}`, n: [i, { k: i % 3 }] }));
    for (const indent of [2, 0] as const) {
      const taken: number[] = [];
      const file = join(dir, `long-${indent}.json`);
      await writeJsonAtomically(file, { rows: new ArrayPieces(rows.length, (i) => (taken.push(i), rows[i])), after: 1 }, indent);
      expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify({ rows, after: 1 }, null, indent)}\n`);
      expect(taken).toEqual(rows.map((_, i) => i));
    }
  });
});
