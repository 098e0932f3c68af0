// The retry policy of the HTTP engines, as pure functions of a failed attempt, so every rule is unit-
// tested with a fixed clock and a fixed random source. The engines send each request themselves
// (http-json.ts), so this is the only policy.
//
//   retried      429, 5xx (incl. Anthropic's 529), 408, 409, connection errors (no response at all)
//   not retried  every other 4xx (400, 401, 403, 404, 413, 422, …), a 2xx whose body is unreadable,
//                a timeout (the per-request limit is the task's time budget; a slow model stays slow),
//                the caller's abort, and quota exhaustion that waiting cannot fix: a 429 whose body code
//                is `insufficient_quota` (OpenAI) or `enforced_spend_limit_reached` (Anthropic)
//   override     `x-should-retry: true|false` from the server wins, as in both official SDKs
//
// The wait before the next attempt, first match wins:
//   1. `retry-after-ms` (milliseconds, fractional allowed — sent by OpenAI)
//   2. `retry-after`: delay-seconds or an HTTP-date (RFC 9110 §10.2.3)
//   3. rate-limit reset headers of an exhausted limit (remaining = 0), the latest one:
//        OpenAI     x-ratelimit-reset-{requests,tokens} as Go durations ("1s", "6m0s", "20ms")
//        Anthropic  anthropic-ratelimit-{requests,tokens,input-tokens,output-tokens}-reset as RFC 3339
//      (the rule proposed in anthropics/anthropic-sdk-typescript issue #357)
//   4. exponential backoff with jitter: base × 2^(retry−1), capped, times a factor in [0.75, 1]
// A server-given wait (1–3) is honoured exactly; if it is longer than `maxWaitMs` the call gives up
// instead of sleeping for an hour — the error says how long the server asked for.

export interface HeaderSource {
  get(name: string): string | null;
}

/** What one failed attempt looked like, independent of the SDK that reported it. */
export interface AttemptFailure {
  kind: 'http' | 'connection' | 'timeout' | 'aborted' | 'parse';
  message: string;
  status?: number;
  headers?: HeaderSource;
  providerType?: string;
  providerCode?: string;
}

export interface RetryPolicy {
  maxRetries: number;
  maxWaitMs: number;
  baseDelayMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 4, maxWaitMs: 60_000, baseDelayMs: 500, maxBackoffMs: 8_000 };

const NO_RETRY_CODES = new Set(['insufficient_quota', 'enforced_spend_limit_reached']);

/** `retry-after-ms`, then `retry-after` (seconds or HTTP-date); milliseconds from `now`, or undefined. */
export function serverRetryAfterMs(headers: HeaderSource | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\s*\d+(\.\d+)?\s*$/.test(ms)) return Math.max(0, Number(ms));
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(ra)) return Math.max(0, Number(ra) * 1000);
  const at = Date.parse(ra);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** A Go-style duration ("1s", "6m0s", "1h2m3.5s", "20ms") in milliseconds, or undefined. */
export function parseGoDuration(text: string): number | undefined {
  const s = text.trim();
  if (!/^(\d+(\.\d+)?(h|ms|m|s|us|µs|ns))+$/.test(s)) return undefined;
  const unit: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001, µs: 0.001, ns: 0.000001 };
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)) total += Number(m[1]) * (unit[m[2] as string] ?? 0);
  return total;
}

const OPENAI_LIMITS = ['requests', 'tokens'];
const ANTHROPIC_LIMITS = ['requests', 'tokens', 'input-tokens', 'output-tokens'];

/** The wait until the latest exhausted rate limit resets, from OpenAI or Anthropic headers. */
export function rateLimitResetMs(headers: HeaderSource | undefined, now: number): number | undefined {
  if (!headers) return undefined;
  const waits: number[] = [];
  for (const l of OPENAI_LIMITS) {
    const reset = headers.get(`x-ratelimit-reset-${l}`);
    if (headers.get(`x-ratelimit-remaining-${l}`)?.trim() === '0' && reset) {
      const d = parseGoDuration(reset);
      if (d !== undefined) waits.push(d);
    }
  }
  for (const l of ANTHROPIC_LIMITS) {
    const reset = headers.get(`anthropic-ratelimit-${l}-reset`);
    if (headers.get(`anthropic-ratelimit-${l}-remaining`)?.trim() === '0' && reset) {
      const at = Date.parse(reset);
      if (!Number.isNaN(at)) waits.push(Math.max(0, at - now));
    }
  }
  return waits.length ? Math.max(...waits) : undefined;
}

/** A 429 that says the account is out of money or quota: waiting does not help, and it is no sign of overload. */
export function isQuotaExhausted(f: AttemptFailure): boolean {
  return f.status === 429 && [f.providerCode, f.providerType].some((c) => c !== undefined && NO_RETRY_CODES.has(c));
}

/** Whether this failure is worth another attempt at all (ignoring the retry budget). */
export function isRetryable(f: AttemptFailure): boolean {
  if (f.kind === 'connection') return true;
  if (f.kind !== 'http' || f.status === undefined) return false;
  const override = f.headers?.get('x-should-retry')?.trim().toLowerCase();
  if (override === 'true') return true;
  if (override === 'false') return false;
  if (f.status === 429) return !isQuotaExhausted(f);
  return f.status === 408 || f.status === 409 || f.status >= 500;
}

/** Exponential backoff for retry number `retry` (1-based), with a jitter factor in [0.75, 1]. */
export function backoffMs(retry: number, policy: RetryPolicy, random: () => number): number {
  const raw = Math.min(policy.maxBackoffMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(raw * (1 - 0.25 * random()));
}

export type RetryDecision = { retry: true; waitMs: number; source: 'retry-after' | 'rate-limit-reset' | 'backoff' } | { retry: false; why: string };

/** Decide what follows failed attempt number `attempt` (1-based). */
export function decideRetry(f: AttemptFailure, attempt: number, policy: RetryPolicy, now: number, random: () => number): RetryDecision {
  if (!isRetryable(f)) return { retry: false, why: f.kind === 'http' ? `HTTP ${f.status} is not retried` : `${f.kind} is not retried` };
  if (attempt > policy.maxRetries) return { retry: false, why: `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'}` };
  const server = serverRetryAfterMs(f.headers, now);
  const reset = server === undefined ? rateLimitResetMs(f.headers, now) : undefined;
  const told = server ?? reset;
  if (told !== undefined) {
    if (told > policy.maxWaitMs) {
      return { retry: false, why: `the server asked to wait ${Math.ceil(told / 1000)} s, more than retry_max_wait_seconds (${policy.maxWaitMs / 1000} s)` };
    }
    return { retry: true, waitMs: Math.ceil(told), source: server !== undefined ? 'retry-after' : 'rate-limit-reset' };
  }
  return { retry: true, waitMs: backoffMs(attempt, policy, random), source: 'backoff' };
}
