// Held-out splits order each category's tasks by sha256 of their id. The digests are compared as
// one-character-per-byte strings (half the size of hex): that must sort exactly as the hex digests did,
// or every suite's split would move under its users.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { assignSplits } from '../../src/config/split.js';
import type { Task } from '../../src/config/suite-schema.js';

const task = (id: string, category: string): Task => ({ id, prompt: 'p', judges: [], timeoutMs: 1000, category, negative: false, critical: false, index: 0 });

describe('held-out split order', () => {
  it('sorts the digests as hex did', () => {
    const ids = Array.from({ length: 3000 }, (_, i) => `t-${i}-${(i * 7919) % 1013}`);
    const by = (enc: 'hex' | 'binary') => [...ids].sort((a, b) => {
      const x = createHash('sha256').update(a).digest(enc);
      const y = createHash('sha256').update(b).digest(enc);
      return x < y ? -1 : x > y ? 1 : 0;
    });
    expect(by('binary')).toEqual(by('hex'));
  });

  it('holds out round(n × ratio) per category, the first by hex digest', () => {
    const tasks = Array.from({ length: 200 }, (_, i) => task(`id${i}`, i % 2 ? 'a' : 'b'));
    const out = assignSplits(tasks, 0.3);
    for (const c of ['a', 'b']) {
      const mine = tasks.filter((t) => t.category === c);
      const hex = (t: Task) => createHash('sha256').update(t.id).digest('hex');
      const first = new Set([...mine].sort((x, y) => (hex(x) < hex(y) ? -1 : 1)).slice(0, 30).map((t) => t.id));
      expect(out.filter((t) => t.category === c && t.split === 'holdout').map((t) => t.id).sort()).toEqual([...first].sort());
    }
  });
});
