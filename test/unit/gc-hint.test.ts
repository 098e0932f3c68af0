// A large evaluation collects its garbage between phases (src/core/gc-hint.ts): the collection must
// really run — dead old-generation objects gone afterwards — for a heap that holds much only. The young generation's
// hold must really stop its growth. WHET_NO_GC_HINT=1 must really turn both off.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { collectBetweenPhases, collectWhenGrown, GC_HINT_HEAP_BYTES, GROWN_BYTES } from '../../src/core/gc-hint.js';
import { repoRoot } from '../support/cli.js';

const run = promisify(execFile);

describe('collection between phases', () => {
  it('skips a heap that holds little', () => {
    expect(collectBetweenPhases(GC_HINT_HEAP_BYTES - 1)).toBe(false);
  });

  it('collects the old generation for a large suite', async () => {
    // Objects that live long enough to be promoted, then die: only a full collection frees them.
    let keep: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `dead ${i}` }));
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
    const alive = keep.length;
    keep = undefined;
    const before = process.memoryUsage().heapUsed;
    expect(collectBetweenPhases(GC_HINT_HEAP_BYTES)).toBe(true);
    const after = process.memoryUsage().heapUsed;
    expect(alive).toBe(200_000);
    expect(before - after).toBeGreaterThan(10_000_000);
  });

  it('makes no collection with WHET_NO_GC_HINT=1, however much the heap holds', async () => {
    let keep: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, s: `dead ${i}` }));
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
    expect(keep.length).toBe(200_000);
    keep = undefined;
    const was = process.env['WHET_NO_GC_HINT'];
    process.env['WHET_NO_GC_HINT'] = '1';
    try {
      const before = process.memoryUsage().heapUsed;
      expect(collectBetweenPhases(GC_HINT_HEAP_BYTES)).toBe(false);
      // The dead objects are still there: nothing collected them (a scavenge cannot, they are old).
      expect(before - process.memoryUsage().heapUsed).toBeLessThan(2_000_000);
    } finally {
      if (was === undefined) delete process.env['WHET_NO_GC_HINT'];
      else process.env['WHET_NO_GC_HINT'] = was;
    }
  });
});

describe('collection when the heap has grown', () => {
  it('collects only once the heap has grown GROWN_BYTES past what the last collection left', async () => {
    // A heap above the hint's floor, kept alive throughout, as a large suite's tasks are.
    const live = Array.from({ length: 400_000 }, (_, i) => ({ i, s: `live ${i}` }));
    collectBetweenPhases(Math.max(GC_HINT_HEAP_BYTES, process.memoryUsage().heapUsed));
    expect(collectWhenGrown()).toBe(false);
    // Dead objects promoted to the old generation: more than GROWN_BYTES of them.
    let dead: unknown[] | undefined = Array.from({ length: 600_000 }, (_, i) => ({ i, s: `dead ${i}`, t: [i] }));
    for (let i = 0; i < 5; i++) await new Promise((r) => setTimeout(r, 10));
    const grown = process.memoryUsage().heapUsed;
    expect(dead.length).toBe(600_000);
    dead = undefined;
    expect(collectWhenGrown()).toBe(true);
    expect(grown - process.memoryUsage().heapUsed).toBeGreaterThan(GROWN_BYTES / 2);
    // What is live now is the new mark: no collection again until the heap grows once more.
    expect(collectWhenGrown()).toBe(false);
    expect(live.length).toBe(400_000);
  });
});

describe('holding the young generation', () => {
  // In a fresh process each: the flag it sets stays set for the rest of a process.
  const grow = async (hold: boolean, env: NodeJS.ProcessEnv = {}): Promise<{ held: boolean; youngMb: number; holdMb: number }> => {
    const script = `
      import { getHeapSpaceStatistics } from 'node:v8';
      import { holdYoungGeneration, YOUNG_HOLD_BYTES } from ${JSON.stringify(pathToFileURL(join(repoRoot, 'dist/src/core/gc-hint.js')).href)};
      const live = [];
      let held = false, most = 0;
      for (let step = 0; step < 400; step++) {
        // What a suite's slice leaves: objects that all survive.
        for (let i = 0; i < 5000; i++) live.push({ id: 't' + step + '-' + i, prompt: 'Question ' + i + ' about apples', n: i });
        if (${hold}) held = holdYoungGeneration();
        const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size;
        most = Math.max(most, young);
      }
      console.log(JSON.stringify({ held, youngMb: most / 1048576, holdMb: YOUNG_HOLD_BYTES / 1048576, live: live.length }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, WHET_NO_GC_HINT: '', ...env } });
    return JSON.parse(stdout) as { held: boolean; youngMb: number; holdMb: number };
  };

  it('stops the new space growing once it reaches the hold, where it grows beyond it otherwise', async () => {
    const [held, free] = await Promise.all([grow(true), grow(false)]);
    expect(held.held).toBe(true);
    // Held: short of its next doubling (Node 24 lands a page past the hold). Free: 32 MB on Node 20, 128 MB on 24.
    expect(held.youngMb).toBeLessThan(2 * held.holdMb);
    expect(free.youngMb).toBeGreaterThanOrEqual(2 * held.holdMb);
  }, 60_000);

  it('leaves the new space to V8 with WHET_NO_GC_HINT=1', async () => {
    const off = await grow(true, { WHET_NO_GC_HINT: '1' });
    expect(off.held).toBe(false);
    expect(off.youngMb).toBeGreaterThanOrEqual(2 * off.holdMb);
  }, 60_000);
});
