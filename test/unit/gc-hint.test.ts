// A large evaluation collects its garbage between phases (src/core/gc-hint.ts): the collection must
// really run — dead old-generation objects gone afterwards — for large suites only.
import { describe, expect, it } from 'vitest';
import { collectBetweenPhases, GC_HINT_TASKS } from '../../src/core/gc-hint.js';

describe('collection between phases', () => {
  it('skips small suites', () => {
    expect(collectBetweenPhases(GC_HINT_TASKS - 1)).toBe(false);
  });

  it('collects the old generation for a large suite', async () => {
    // Objects that live long enough to be promoted, then die: only a full collection frees them.
    let keep: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `dead ${i}` }));
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
    const alive = keep.length;
    keep = undefined;
    const before = process.memoryUsage().heapUsed;
    expect(collectBetweenPhases(GC_HINT_TASKS)).toBe(true);
    const after = process.memoryUsage().heapUsed;
    expect(alive).toBe(200_000);
    expect(before - after).toBeGreaterThan(10_000_000);
  });
});
