// Adaptive concurrency for rate-limited HTTP engines: additive increase, multiplicative decrease (the
// congestion-control rule TCP uses), so a run that opens more requests than the provider allows backs off
// to what the provider accepts instead of hammering it with 429s, and creeps back up when it can.
//
// Policy:
//   - The limit starts at `max` and never leaves [1, max].
//   - onRateLimited() (a 429) halves the limit, rounding down, never below 1.
//   - A 429 burst counts once. The requests already in flight when the limit was cut were admitted
//     under the old limit, so their 429s say nothing new; further 429s are ignored until every slot
//     held at the moment of the cut has been released. Without that, one burst of k parallel 429s
//     would divide the limit by 2^k and the run would crawl at 1.
//   - onSuccess() counts consecutive successes; after N of them the limit grows by 1, where N is
//     `successesPerStep` when given, else max(4, current limit): about one full round of requests
//     without a 429 (the TCP rule), but never fewer than 4, or at a limit of 1 or 2 every other
//     request would probe the ceiling and be refused. Any 429 restarts the count.
//   - acquire() admits while inFlight < limit, otherwise queues (FIFO). Lowering the limit never revokes
//     a held slot; new admissions simply wait until inFlight drops below the new limit.
//
// The caller holds one slot per engine call (acquire → run → release); engines only report outcomes.
import type { AdaptiveConcurrency } from './types.js';

export interface AdaptiveOptions {
  /** The configured ceiling (and the starting limit). */
  max: number;
  /** Consecutive successes per +1; default: max(MIN_SUCCESSES_PER_STEP, current limit). */
  successesPerStep?: number;
  /** Starting limit (default `max`). */
  initial?: number;
}

export interface AdaptiveStats {
  decreases: number;
  increases: number;
  ignoredRateLimits: number;
  /** The lowest limit reached so far. */
  minLimit: number;
}

/** The fewest consecutive successes that raise the limit when successesPerStep is not given. */
export const MIN_SUCCESSES_PER_STEP = 4;

interface Waiter {
  grant: (release: () => void) => void;
  reject: (err: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

export class AdaptiveConcurrencyController implements AdaptiveConcurrency {
  readonly max: number;
  private current: number;
  private held = 0;
  private readonly queue: Waiter[] = [];
  private successes = 0;
  /** Slots that were held when the limit was last cut and have not been released since. */
  private drain = 0;
  private readonly step: number | undefined;
  private readonly counters: AdaptiveStats;

  constructor(opts: AdaptiveOptions) {
    if (!Number.isInteger(opts.max) || opts.max < 1) throw new RangeError(`max must be an integer ≥ 1, got ${opts.max}`);
    this.max = opts.max;
    this.current = Math.min(this.max, Math.max(1, Math.floor(opts.initial ?? opts.max)));
    this.step = opts.successesPerStep;
    this.counters = { decreases: 0, increases: 0, ignoredRateLimits: 0, minLimit: this.current };
  }

  get limit(): number {
    return this.current;
  }

  get inFlight(): number {
    return this.held;
  }

  get waiting(): number {
    return this.queue.length;
  }

  stats(): AdaptiveStats {
    return { ...this.counters };
  }

  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    if (this.held < this.current && this.queue.length === 0) return Promise.resolve(this.admit());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        grant: resolve,
        reject,
        signal,
        onAbort: () => {
          const i = this.queue.indexOf(waiter);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal?.reason ?? new Error('aborted'));
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  onRateLimited(): void {
    this.successes = 0;
    if (this.drain > 0) {
      this.counters.ignoredRateLimits++;
      return;
    }
    const next = Math.max(1, Math.floor(this.current / 2));
    if (next < this.current) this.counters.decreases++;
    this.current = next;
    this.counters.minLimit = Math.min(this.counters.minLimit, next);
    this.drain = this.held;
  }

  onSuccess(): void {
    this.successes++;
    const needed = Math.max(1, this.step ?? Math.max(MIN_SUCCESSES_PER_STEP, this.current));
    if (this.successes < needed) return;
    this.successes = 0;
    if (this.current < this.max) {
      this.current++;
      this.counters.increases++;
      this.pump();
    }
  }

  private admit(): () => void {
    this.held++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      if (this.drain > 0) this.drain--;
      this.pump();
    };
  }

  private pump(): void {
    while (this.held < this.current && this.queue.length > 0) {
      const next = this.queue.shift() as Waiter;
      next.signal?.removeEventListener('abort', next.onAbort);
      next.grant(this.admit());
    }
  }
}

/** The adaptive ceiling of an engine built outside a run that says its concurrency (judge specs, generate). */
export const DEFAULT_MAX_CONCURRENCY = 8;

/**
 * The adaptive controller's ceiling: the config's `max_concurrency` when the user wrote one (an account
 * limit they know), else the concurrency the run asked for — an unwritten default must never quietly
 * hold `--concurrency 64` to 8 in-flight calls.
 */
export function defaultCeiling(configured: number | undefined, runConcurrency: number | undefined): number {
  return configured ?? runConcurrency ?? DEFAULT_MAX_CONCURRENCY;
}

export function createAdaptiveConcurrency(opts: AdaptiveOptions): AdaptiveConcurrencyController {
  return new AdaptiveConcurrencyController(opts);
}
