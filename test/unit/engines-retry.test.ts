// The HTTP retry policy as pure functions: which failures are retried, how long to wait, with a fixed clock.
import { describe, expect, it } from 'vitest';

import {
  backoffMs,
  decideRetry,
  DEFAULT_RETRY_POLICY,
  isRetryable,
  parseGoDuration,
  rateLimitResetMs,
  serverRetryAfterMs,
  type AttemptFailure,
} from '../../src/engines/retry.js';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const h = (o: Record<string, string>): Headers => new Headers(o);
const http = (status: number, headers: Record<string, string> = {}, extra: Partial<AttemptFailure> = {}): AttemptFailure => ({ kind: 'http', status, message: 'x', headers: h(headers), ...extra });
const policy = { ...DEFAULT_RETRY_POLICY, maxRetries: 3, maxWaitMs: 30_000 };

describe('server-given waits', () => {
  it('reads retry-after as seconds, fractional seconds and an HTTP-date', () => {
    expect(serverRetryAfterMs(h({ 'retry-after': '7' }), NOW)).toBe(7000);
    expect(serverRetryAfterMs(h({ 'retry-after': '0.5' }), NOW)).toBe(500);
    expect(serverRetryAfterMs(h({ 'retry-after': 'Sun, 01 Mar 2026 12:00:09 GMT' }), NOW)).toBe(9000);
    expect(serverRetryAfterMs(h({ 'retry-after': 'Sun, 01 Mar 2026 11:00:00 GMT' }), NOW)).toBe(0);
  });

  it('prefers retry-after-ms and ignores garbage', () => {
    expect(serverRetryAfterMs(h({ 'retry-after-ms': '250.5', 'retry-after': '30' }), NOW)).toBe(250.5);
    expect(serverRetryAfterMs(h({ 'retry-after': 'soon' }), NOW)).toBeUndefined();
    expect(serverRetryAfterMs(h({ 'retry-after-ms': 'x', 'retry-after': '2' }), NOW)).toBe(2000);
    expect(serverRetryAfterMs(h({}), NOW)).toBeUndefined();
    expect(serverRetryAfterMs(undefined, NOW)).toBeUndefined();
  });

  it('parses Go durations as OpenAI sends them', () => {
    expect(parseGoDuration('1s')).toBe(1000);
    expect(parseGoDuration('6m0s')).toBe(360_000);
    expect(parseGoDuration('20ms')).toBe(20);
    expect(parseGoDuration('1h2m3.5s')).toBe(3_723_500);
    expect(parseGoDuration('soon')).toBeUndefined();
    expect(parseGoDuration('')).toBeUndefined();
  });

  it('waits for the latest exhausted OpenAI limit, ignoring limits with requests left', () => {
    const headers = h({
      'x-ratelimit-remaining-requests': '0',
      'x-ratelimit-reset-requests': '2s',
      'x-ratelimit-remaining-tokens': '0',
      'x-ratelimit-reset-tokens': '6.5s',
    });
    expect(rateLimitResetMs(headers, NOW)).toBe(6500);
    expect(rateLimitResetMs(h({ 'x-ratelimit-remaining-requests': '3', 'x-ratelimit-reset-requests': '2s' }), NOW)).toBeUndefined();
  });

  it('reads Anthropic RFC 3339 reset times of exhausted limits', () => {
    const headers = h({
      'anthropic-ratelimit-requests-remaining': '0',
      'anthropic-ratelimit-requests-reset': '2026-03-01T12:00:04Z',
      'anthropic-ratelimit-output-tokens-remaining': '0',
      'anthropic-ratelimit-output-tokens-reset': '2026-03-01T12:00:11Z',
      'anthropic-ratelimit-tokens-remaining': '900',
      'anthropic-ratelimit-tokens-reset': '2026-03-01T12:05:00Z',
    });
    expect(rateLimitResetMs(headers, NOW)).toBe(11_000);
  });
});

describe('what is retried', () => {
  it('429, 408, 409, 5xx, 529 and connection errors', () => {
    for (const s of [429, 408, 409, 500, 502, 503, 504, 529]) expect(isRetryable(http(s)), String(s)).toBe(true);
    expect(isRetryable({ kind: 'connection', message: 'ECONNRESET' })).toBe(true);
  });

  it('not other 4xx, not timeouts, aborts or unreadable bodies', () => {
    for (const s of [400, 401, 403, 404, 413, 422]) expect(isRetryable(http(s)), String(s)).toBe(false);
    for (const kind of ['timeout', 'aborted', 'parse'] as const) expect(isRetryable({ kind, message: 'x' })).toBe(false);
  });

  it('not quota exhaustion, whether named by code or by type', () => {
    expect(isRetryable(http(429, {}, { providerCode: 'insufficient_quota' }))).toBe(false);
    expect(isRetryable(http(429, {}, { providerType: 'insufficient_quota' }))).toBe(false);
    expect(isRetryable(http(429, {}, { providerType: 'rate_limit_error', providerCode: 'enforced_spend_limit_reached' }))).toBe(false);
  });

  it('x-should-retry from the server overrides the status', () => {
    expect(isRetryable(http(400, { 'x-should-retry': 'true' }))).toBe(true);
    expect(isRetryable(http(503, { 'x-should-retry': 'false' }))).toBe(false);
  });
});

describe('how long to wait', () => {
  it('backs off exponentially with a jitter factor in [0.75, 1], capped', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, DEFAULT_RETRY_POLICY, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([1, 2, 3].map((n) => backoffMs(n, DEFAULT_RETRY_POLICY, () => 1))).toEqual([375, 750, 1500]);
    for (let i = 0; i < 200; i++) {
      const d = backoffMs(2, DEFAULT_RETRY_POLICY, Math.random);
      expect(d).toBeGreaterThanOrEqual(750);
      expect(d).toBeLessThanOrEqual(1000);
    }
  });

  it('honours retry-after exactly, then reset headers, then backoff', () => {
    expect(decideRetry(http(429, { 'retry-after': '3' }), 1, policy, NOW, () => 0)).toEqual({ retry: true, waitMs: 3000, source: 'retry-after' });
    expect(decideRetry(http(429, { 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-requests': '1.5s' }), 1, policy, NOW, () => 0)).toEqual({ retry: true, waitMs: 1500, source: 'rate-limit-reset' });
    expect(decideRetry(http(503), 2, policy, NOW, () => 0)).toEqual({ retry: true, waitMs: 1000, source: 'backoff' });
  });

  it('gives up when the budget is spent, when the wait is too long, and on a non-retryable failure', () => {
    expect(decideRetry(http(503), 4, policy, NOW, () => 0)).toEqual({ retry: false, why: 'gave up after 4 attempts' });
    const tooLong = decideRetry(http(429, { 'retry-after': '45' }), 1, policy, NOW, () => 0);
    expect(tooLong).toEqual({ retry: false, why: 'the server asked to wait 45 s, more than retry_max_wait_seconds (30 s)' });
    expect(decideRetry(http(401), 1, policy, NOW, () => 0)).toEqual({ retry: false, why: 'HTTP 401 is not retried' });
    expect(decideRetry({ kind: 'timeout', message: 'slow' }, 1, policy, NOW, () => 0)).toEqual({ retry: false, why: 'timeout is not retried' });
    expect(decideRetry(http(500), 1, { ...policy, maxRetries: 0 }, NOW, () => 0)).toEqual({ retry: false, why: 'gave up after 1 attempt' });
  });
});
