// The adaptive concurrency controller: the AIMD rules one by one, then a simulation against a server that
// serves at most K requests at once and answers 429 beyond — the limit must settle near K, and far fewer
// requests must be refused than with a fixed, too-high concurrency.
import { afterEach, describe, expect, it, vi } from 'vitest';

import { AdaptiveConcurrencyController } from '../../src/engines/adaptive.js';

async function acquireN(c: AdaptiveConcurrencyController, n: number): Promise<Array<() => void>> {
  const out: Array<() => void> = [];
  for (let i = 0; i < n; i++) out.push(await c.acquire());
  return out;
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('AdaptiveConcurrencyController rules', () => {
  it('starts at max, admits up to the limit and queues the rest in FIFO order', async () => {
    const c = new AdaptiveConcurrencyController({ max: 2 });
    expect([c.limit, c.max, c.inFlight]).toEqual([2, 2, 0]);
    const [r1, r2] = await acquireN(c, 2);
    const order: number[] = [];
    const w3 = c.acquire().then((rel) => (order.push(3), rel));
    const w4 = c.acquire().then((rel) => (order.push(4), rel));
    await tick();
    expect(order).toEqual([]);
    expect(c.waiting).toBe(2);
    r1?.();
    r1?.(); // releasing twice frees one slot only
    await tick();
    expect(order).toEqual([3]);
    expect(c.inFlight).toBe(2);
    r2?.();
    await tick();
    expect(order).toEqual([3, 4]);
    (await w3)();
    (await w4)();
    expect(c.inFlight).toBe(0);
  });

  it('halves on a 429, never below 1', () => {
    const c = new AdaptiveConcurrencyController({ max: 8 });
    const seen: number[] = [];
    for (let i = 0; i < 5; i++) {
      c.onRateLimited();
      seen.push(c.limit);
    }
    expect(seen).toEqual([4, 2, 1, 1, 1]);
    expect(c.stats()).toMatchObject({ decreases: 3, minLimit: 1 });
  });

  it('counts a burst of 429s from requests already in flight once', async () => {
    const c = new AdaptiveConcurrencyController({ max: 8 });
    const held = await acquireN(c, 8);
    for (let i = 0; i < 8; i++) c.onRateLimited();
    expect(c.limit).toBe(4);
    expect(c.stats().ignoredRateLimits).toBe(7);
    for (const release of held) release();
    c.onRateLimited(); // a new 429 after the old requests drained is new information
    expect(c.limit).toBe(2);
  });

  it('grows by 1 after max(4, limit) consecutive successes, up to max; a 429 restarts the count', () => {
    const c = new AdaptiveConcurrencyController({ max: 6, initial: 2 });
    const succeed = (n: number) => {
      for (let i = 0; i < n; i++) c.onSuccess();
    };
    succeed(3);
    expect(c.limit).toBe(2);
    succeed(1);
    expect(c.limit).toBe(3);
    succeed(3);
    c.onRateLimited();
    expect(c.limit).toBe(1);
    succeed(3);
    expect(c.limit).toBe(1);
    succeed(1);
    expect(c.limit).toBe(2);
    succeed(4 + 4 + 4); // 2→3→4→5 (4 each while limit ≤ 4)
    expect(c.limit).toBe(5);
    succeed(4);
    expect(c.limit).toBe(5); // at 5, five successes are needed
    succeed(1);
    expect(c.limit).toBe(6);
    succeed(100);
    expect(c.limit).toBe(6);
  });

  it('honours a fixed successesPerStep, and admits waiters when the limit grows', async () => {
    const c = new AdaptiveConcurrencyController({ max: 3, initial: 1, successesPerStep: 3 });
    await c.acquire();
    let admitted = false;
    void c.acquire().then(() => (admitted = true));
    c.onSuccess();
    c.onSuccess();
    await tick();
    expect(admitted).toBe(false);
    c.onSuccess();
    await tick();
    expect(c.limit).toBe(2);
    expect(admitted).toBe(true);
  });

  it('an aborted wait leaves the queue and rejects', async () => {
    const c = new AdaptiveConcurrencyController({ max: 1 });
    const release = await c.acquire();
    const ac = new AbortController();
    const waiting = c.acquire(ac.signal);
    ac.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(c.waiting).toBe(0);
    release();
    await expect(c.acquire(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('rejects a max below 1', () => {
    expect(() => new AdaptiveConcurrencyController({ max: 0 })).toThrow(RangeError);
  });
});

describe('simulation: a server that serves K at once and refuses the rest with 429', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /**
   * W workers loop for `durationMs` of virtual time. Each call holds a slot (acquire → call → release);
   * a 429 arrives after 5 ms and is retried after a 100 ms backoff while the slot is held, as the HTTP
   * engines do; a served request takes 50 ms. Returns the limit sampled every 10 ms and the tallies.
   */
  async function simulate(opts: { K: number; workers: number; max: number; adaptive: boolean; durationMs: number }) {
    vi.useFakeTimers();
    const c = new AdaptiveConcurrencyController({ max: opts.max });
    let serving = 0;
    let served = 0;
    let refused = 0;
    let stop = false;
    const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
    const call = async (): Promise<boolean> => {
      if (serving >= opts.K) {
        await sleep(5);
        refused++;
        return false;
      }
      serving++;
      await sleep(50);
      serving--;
      served++;
      return true;
    };
    const worker = async (): Promise<void> => {
      while (!stop) {
        const release = opts.adaptive ? await c.acquire() : () => undefined;
        for (;;) {
          if (await call()) {
            if (opts.adaptive) c.onSuccess();
            break;
          }
          if (opts.adaptive) c.onRateLimited();
          await sleep(100);
          if (stop) break;
        }
        release();
      }
    };
    const samples: number[] = [];
    const sampler = setInterval(() => samples.push(c.limit), 10);
    const all = Array.from({ length: opts.workers }, () => worker());
    await vi.advanceTimersByTimeAsync(opts.durationMs);
    stop = true;
    clearInterval(sampler);
    await vi.advanceTimersByTimeAsync(1000);
    await Promise.all(all);
    return { samples, served, refused, stats: c.stats(), limit: c.limit };
  }

  it('converges near K instead of hammering', async () => {
    const K = 6;
    const run = await simulate({ K, workers: 40, max: 32, adaptive: true, durationMs: 30_000 });
    const late = run.samples.slice(Math.floor(run.samples.length / 2));
    const mean = late.reduce((a, b) => a + b, 0) / late.length;
    // AIMD saw-tooth: between about K/2 and K+1, never the 32 it started at
    expect(mean).toBeGreaterThanOrEqual(K / 2);
    expect(mean).toBeLessThanOrEqual(K + 1.5);
    expect(Math.max(...late)).toBeLessThanOrEqual(K + 3);
    expect(Math.min(...late)).toBeGreaterThanOrEqual(2);
    const refusedShare = run.refused / (run.refused + run.served);
    expect(refusedShare).toBeLessThan(0.12);

    const fixed = await simulate({ K, workers: 40, max: 32, adaptive: false, durationMs: 30_000 });
    const fixedShare = fixed.refused / (fixed.refused + fixed.served);
    expect(fixedShare).toBeGreaterThan(0.5);
    // Backing off costs little throughput: at least 70% of what the server can serve at K at once.
    expect(run.served).toBeGreaterThan(0.7 * (30_000 / 50) * K);
  });

  it('with K = 1 it settles at 1–2 and never dies', async () => {
    const run = await simulate({ K: 1, workers: 10, max: 8, adaptive: true, durationMs: 10_000 });
    const late = run.samples.slice(Math.floor(run.samples.length / 2));
    expect(Math.max(...late)).toBeLessThanOrEqual(2);
    expect(Math.min(...late)).toBe(1);
    expect(run.served).toBeGreaterThan(100);
  });
});
