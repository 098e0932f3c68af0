// The worker pool every evaluation runs its attempts through (src/evaluation/pool.ts): at most
// `concurrency` in flight, every item once, a failure reported at once, and a turn of the event loop
// between starting one worker and the next, so a started call's I/O is under way while the next is built.
import { describe, expect, it } from 'vitest';
import { forEachConcurrent } from '../../src/evaluation/pool.js';

const tick = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('forEachConcurrent', () => {
  it('takes every item once and keeps at most `concurrency` in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    await forEachConcurrent(Array.from({ length: 200 }, (_, i) => i), 16, async (i) => {
      inFlight++;
      most = Math.max(most, inFlight);
      seen.push(i);
      await tick(i % 3);
      inFlight--;
    });
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i));
    expect(most).toBe(16);
  });

  it("lets the event loop run between starts: the first call's I/O callbacks run before the last worker starts", async () => {
    const ioDoneBefore: boolean[] = [];
    let firstIo = false;
    await forEachConcurrent(Array.from({ length: 64 }, (_, i) => i), 64, async (i) => {
      ioDoneBefore.push(firstIo);
      // What a socket's connect and write wait for: a callback from the event loop, not a microtask.
      if (i === 0) setImmediate(() => (firstIo = true));
      await tick(5);
    });
    expect(ioDoneBefore[0]).toBe(false);
    expect(ioDoneBefore[63]).toBe(true);
  });

  it('rejects with the first failure without waiting for the calls in flight, and takes no more items', async () => {
    let taken = 0;
    const slow: Promise<void>[] = [];
    const started = performance.now();
    const run = forEachConcurrent(Array.from({ length: 100 }, (_, i) => i), 4, async (i) => {
      taken++;
      if (i === 1) {
        await tick(10);
        throw new Error('engine down');
      }
      const p = tick(3000);
      slow.push(p);
      await p;
    });
    await expect(run).rejects.toThrow('engine down');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(taken).toBe(4);
  });

  it('a failure while workers are still being started is reported by the pool, not left unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      const run = forEachConcurrent(Array.from({ length: 10 }, (_, i) => i), 8, async (i) => {
        if (i === 0) throw new Error('refused at once');
        await tick(20);
      });
      await expect(run).rejects.toThrow('refused at once');
      await tick(30);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
  });

  it('an engine that answers at once: every item, in order, however many workers', async () => {
    const order: number[] = [];
    await forEachConcurrent(Array.from({ length: 1000 }, (_, i) => i), 64, async (i) => {
      order.push(i);
    });
    expect(order).toEqual(Array.from({ length: 1000 }, (_, i) => i));
  });
});
