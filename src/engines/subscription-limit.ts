// Subscription rate limits of the agent CLIs (Claude Code's five-hour / weekly limits, Codex's usage
// limits): unlike an HTTP 429 they last minutes to hours and carry a known reset time, so retrying
// within seconds only turns every remaining task into an error. One gate per CLI type and process —
// a subscription belongs to the login, which every claude (or codex) call of the process shares, task
// and judge calls alike:
//
//   - a call that hit the limit with a reset at most `maxWaitMs` ahead pauses the gate until then: the
//     calls in flight finish, no new call starts (meterEngine waits in ready()), and the call that hit
//     it runs again after the reset;
//   - a reset further ahead (or none) stops the gate: every call still to start is refused with the
//     error kind `rate_limited`, so the run stops cleanly and `whet resume` continues it later. A stop
//     lifts by itself once its reset time has passed (a later session of the same process may go on);
//   - a reset this machine's clock has already passed, while the limit still holds (a clock that is off,
//     or a provider late to lift it), cannot be waited for: read as "now", it would start the CLI again at
//     once, and again, in a tight loop for as long as the limit lasts. The gate pauses instead, a minute
//     first and twice as long each time the limit still holds, until the pauses in a row would outlast
//     the maximum wait: then it stops for good, asking whether the clock is right.
//
// Listeners hear every pause and stop, so the stage that owns a run directory can say it on stderr and
// record it for `whet status` (engines know no run directory).
import { abortableSleep } from './sleep.js';

export interface LimitNotice {
  engine: string;
  /** `pause` (waiting for the reset), `resume` (the reset passed), `stop` (past the maximum wait). */
  kind: 'pause' | 'resume' | 'stop';
  /** Epoch milliseconds of the reset, when known. */
  resetsAt?: number;
  /** The limit's type as the CLI named it (`five_hour`, `seven_day`, …). */
  limitType?: string;
  message: string;
}

export type LimitListener = (n: LimitNotice) => void;

/** A call refused by the limit: when it lifts (epoch ms), if the CLI said, and how long the run may wait. */
export interface LimitHit {
  resetsAt?: number;
  limitType?: string;
  maxWaitMs: number;
  detail: string;
}

/** A refusal or stop caused by a subscription limit: the run stops, nothing is recorded as a result. */
export const RATE_LIMITED = 'rate_limited' as const;

/** The first pause for a reset already passed; each next one in a row is twice as long. */
export const PAST_RESET_WAIT_MS = 60_000;
/** A refusal this long after the last such pause ended starts a new row (as does a call that went through). */
const PAST_RESET_ROW_GAP_MS = 10 * 60_000;

export class SubscriptionLimit {
  private pausedUntil = 0;
  /** The pauses in a row for resets already passed: how many, their sum, and when the last one ends. */
  private pastResets = { pauses: 0, waitedMs: 0, endsAt: Number.NEGATIVE_INFINITY };
  private pauseType: string | undefined;
  private stopped: { until: number; message: string } | undefined;
  private readonly listeners = new Set<LimitListener>();

  constructor(
    readonly engine: string,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number, signal?: AbortSignal) => Promise<void> = abortableSleep,
  ) {}

  listen(l: LimitListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private tell(n: LimitNotice): void {
    for (const l of this.listeners) l(n);
  }

  /** A call went through: the limit has lifted, and a later refusal with a reset already passed starts a new row of pauses. */
  succeeded(): void {
    if (this.pastResets.pauses > 0) this.pastResets = { pauses: 0, waitedMs: 0, endsAt: Number.NEGATIVE_INFINITY };
  }

  /** Why new calls are refused, or undefined; a stop whose reset has passed is lifted here. */
  stopReason(): string | undefined {
    if (this.stopped && this.now() >= this.stopped.until) this.stopped = undefined;
    return this.stopped?.message;
  }

  /**
   * Waits while the gate is paused; resolves to the refusal message when it is stopped (or the wait is
   * aborted), undefined when a call may start.
   */
  async ready(signal?: AbortSignal): Promise<string | undefined> {
    for (;;) {
      const stop = this.stopReason();
      if (stop) return stop;
      const wait = this.pausedUntil - this.now();
      if (wait <= 0) return undefined;
      try {
        await this.sleep(wait, signal);
      } catch {
        return 'aborted while paused for a subscription rate limit';
      }
      if (this.pausedUntil !== 0 && this.now() >= this.pausedUntil) {
        this.pausedUntil = 0;
        this.tell({ engine: this.engine, kind: 'resume', message: `${this.engine}: rate limit reset; new work starts again` });
      }
    }
  }

  /**
   * A call hit the limit. `resetsAt` (epoch ms) is when it lifts, if the CLI said; returns `wait` when
   * the caller should wait in ready() and run the call again, `stop` when the run has to stop.
   */
  hit(o: LimitHit): 'wait' | 'stop' {
    const now = this.now();
    const what = o.limitType ? `${o.limitType} rate limit` : 'subscription rate limit';
    if (o.resetsAt !== undefined && o.resetsAt <= now) return this.hitPastReset(o, now, what);
    if (o.resetsAt === undefined || o.resetsAt - now > o.maxWaitMs) {
      const when = o.resetsAt === undefined ? 'no reset time was given' : `it resets at ${new Date(o.resetsAt).toISOString()}, in ${formatWait(o.resetsAt - now)}`;
      const message = `${this.engine}: ${what} reached (${o.detail}); ${when}, beyond rate_limit_max_wait_seconds (${Math.round(o.maxWaitMs / 1000)} s)`;
      // Without a known reset nothing says when trying again makes sense: stop this process's calls for good.
      this.stopped = { until: o.resetsAt ?? Number.POSITIVE_INFINITY, message };
      this.tell({ engine: this.engine, kind: 'stop', ...(o.resetsAt !== undefined ? { resetsAt: o.resetsAt } : {}), ...(o.limitType ? { limitType: o.limitType } : {}), message });
      return 'stop';
    }
    // A one-second margin: the CLI's reset is given in whole seconds.
    const until = o.resetsAt + 1000;
    if (until > this.pausedUntil) {
      const announce = this.pausedUntil <= now || o.limitType !== this.pauseType;
      this.pausedUntil = until;
      this.pauseType = o.limitType;
      if (announce) {
        this.tell({
          engine: this.engine,
          kind: 'pause',
          resetsAt: o.resetsAt,
          ...(o.limitType ? { limitType: o.limitType } : {}),
          message: `${this.engine}: ${what} reached; pausing new work until ${new Date(o.resetsAt).toISOString()} (in ${formatWait(o.resetsAt - now)}), then continuing`,
        });
      }
    }
    return 'wait';
  }

  private hitPastReset(o: LimitHit, now: number, what: string): 'wait' | 'stop' {
    // A call that was in flight when the pause began: the pause already covers it.
    if (this.pausedUntil > now) return 'wait';
    const row = now - this.pastResets.endsAt > PAST_RESET_ROW_GAP_MS ? { pauses: 0, waitedMs: 0 } : this.pastResets;
    const said = `it said it resets at ${new Date(o.resetsAt!).toISOString()}, which this machine's clock has already passed`;
    const wait = Math.min(PAST_RESET_WAIT_MS * 2 ** row.pauses, o.maxWaitMs - row.waitedMs);
    if (!(wait > 0)) {
      const most = `rate_limit_max_wait_seconds (${Math.round(o.maxWaitMs / 1000)} s)`;
      const held = row.pauses > 0 ? `the limit still held after ${row.pauses} pause(s), ${formatWait(row.waitedMs)} in all, as long as ${most} allows` : `${most} allows no pause`;
      const message = `${this.engine}: ${what} reached (${o.detail}); ${said}; ${held}: is the clock right? No further call starts; whet resume continues the run`;
      this.stopped = { until: Number.POSITIVE_INFINITY, message };
      this.tell({ engine: this.engine, kind: 'stop', ...(o.limitType ? { limitType: o.limitType } : {}), message });
      return 'stop';
    }
    this.pastResets = { pauses: row.pauses + 1, waitedMs: row.waitedMs + wait, endsAt: now + wait };
    this.pausedUntil = now + wait;
    this.pauseType = o.limitType;
    this.tell({
      engine: this.engine,
      kind: 'pause',
      resetsAt: now + wait,
      ...(o.limitType ? { limitType: o.limitType } : {}),
      message: `${this.engine}: ${what} reached; ${said}; pausing new work for ${formatWait(wait)}, then trying again`,
    });
    return 'wait';
  }
}

export function formatWait(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000));
  if (s < 120) return `${s} s`;
  const m = Math.ceil(s / 60);
  return m < 120 ? `${m} min` : `${Math.floor(m / 60)} h ${m % 60} min`;
}

const gates = new Map<string, SubscriptionLimit>();

/** The process's gate for one CLI type (`claude`, `codex`). */
export function subscriptionLimit(engine: string): SubscriptionLimit {
  let g = gates.get(engine);
  if (!g) gates.set(engine, (g = new SubscriptionLimit(engine)));
  return g;
}

/** Why the agent CLIs' calls are refused now (the first stopped gate's message), or undefined. */
export function rateLimitStopReason(): string | undefined {
  return subscriptionLimit('claude').stopReason() ?? subscriptionLimit('codex').stopReason();
}

/** Hears every pause, resume and stop of every CLI's gate; returns the unsubscribe function. */
export function onSubscriptionLimit(l: LimitListener): () => void {
  const offs = ['claude', 'codex'].map((e) => subscriptionLimit(e).listen(l));
  return () => offs.forEach((off) => off());
}

/** The default longest pause: a five-hour window always resets within it; a weekly one stops the run. */
export const DEFAULT_RATE_LIMIT_MAX_WAIT_MS = 6 * 3_600_000;

/** Reset times come as Unix seconds (Claude Code's resetsAt) or, from some wrappers, milliseconds. */
export function epochMs(v: unknown): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) return undefined;
  return v > 1e12 ? Math.round(v) : Math.round(v * 1000);
}
