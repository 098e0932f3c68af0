// One engine call over HTTP: attempts, the per-request timeout, waits between attempts, and the account
// of every failure. Shared by the openai and anthropic engines: `send` is one request (postJson of
// http-json.ts) and `classify` says what a failed one was (classifyPostError).
//
// Each attempt gets its own timer of `timeoutMs` (the request's time budget) and the caller's signal;
// which of the two fired decides between `timeout` and `aborted`, so a slow server is never mistaken for
// a cancelled run. Waits between attempts are abortable. Every 429 (except quota exhaustion) is reported
// to the adaptive concurrency controller, every success too. Every message that leaves this module has
// been through redact().
import { linkAbort } from '../core/abort.js';
import { redact } from './http-common.js';
import { decideRetry, isQuotaExhausted, type AttemptFailure, type RetryPolicy } from './retry.js';
import type { AdaptiveConcurrency, EngineError, FailedAttempt } from './types.js';
import { isRecord } from './values.js';

export interface HttpCallOptions<T> {
  /** Engine type, for messages (`openai`, `anthropic`). */
  engine: string;
  send(signal: AbortSignal): Promise<T>;
  classify(err: unknown): AttemptFailure;
  policy: RetryPolicy;
  timeoutMs: number;
  signal?: AbortSignal;
  concurrency?: AdaptiveConcurrency;
  secrets: readonly string[];
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

import type { HttpCallOutcome } from './http-common.js';
import { abortableSleep } from './sleep.js';
export type { HttpCallOutcome };

export { abortableSleep };

function describe(f: AttemptFailure): string {
  if (f.kind !== 'http') return f.message;
  const label = [f.providerType, f.providerCode && f.providerCode !== f.providerType ? f.providerCode : undefined].filter(Boolean).join('/');
  return `HTTP ${f.status}${label ? ` ${label}` : ''}: ${f.message}`;
}

function toEngineError(engine: string, f: AttemptFailure, why: string, secrets: readonly string[]): EngineError {
  const err: EngineError = {
    kind: f.kind === 'connection' ? 'http' : f.kind,
    message: redact(`${engine}: ${describe(f)} (${why})`, secrets),
  };
  if (f.status !== undefined) err.status = f.status;
  if (f.providerType) err.provider_type = redact(f.providerType, secrets);
  if (f.providerCode) err.provider_code = redact(f.providerCode, secrets);
  return err;
}

export async function callWithRetries<T>(opts: HttpCallOptions<T>): Promise<HttpCallOutcome<T>> {
  const sleep = opts.sleep ?? abortableSleep;
  const random = opts.random ?? Math.random;
  const now = opts.now ?? Date.now;
  const failed: FailedAttempt[] = [];
  for (let attempt = 1; ; attempt++) {
    if (opts.signal?.aborted) {
      const f: AttemptFailure = { kind: 'aborted', message: 'aborted by the caller' };
      return { ok: false, error: toEngineError(opts.engine, f, `after ${attempt - 1} request(s)`, opts.secrets), attempts: attempt - 1, failed };
    }
    // One controller for both causes: our timeout and the caller's signal. (AbortSignal.any per request
    // cost more CPU than the rest of this function, and its signals live until a GC.)
    const timeout = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      timeout.abort(new Error(`no response within ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    const unlink = linkAbort(opts.signal, timeout);
    const signal = timeout.signal;
    let failure: AttemptFailure;
    try {
      const value = await opts.send(signal);
      opts.concurrency?.onSuccess();
      return { ok: true, value, attempts: attempt, failed };
    } catch (err) {
      if (timedOut && !opts.signal?.aborted) failure = { kind: 'timeout', message: `no response within ${opts.timeoutMs} ms` };
      else if (opts.signal?.aborted) failure = { kind: 'aborted', message: 'aborted by the caller' };
      else failure = opts.classify(err);
    } finally {
      clearTimeout(timer);
      unlink();
    }
    const decision = decideRetry(failure, attempt, opts.policy, now(), random);
    if (failure.kind === 'http' && failure.status === 429 && !isQuotaExhausted(failure)) opts.concurrency?.onRateLimited();
    const record: FailedAttempt = { kind: failure.kind, message: redact(describe(failure), opts.secrets) };
    if (failure.status !== undefined) record.status = failure.status;
    failed.push(record);
    if (!decision.retry) return { ok: false, error: toEngineError(opts.engine, failure, decision.why, opts.secrets), attempts: attempt, failed };
    record.waited_ms = decision.waitMs;
    try {
      await sleep(decision.waitMs, opts.signal);
    } catch {
      const f: AttemptFailure = { kind: 'aborted', message: 'aborted by the caller while waiting to retry' };
      return { ok: false, error: toEngineError(opts.engine, f, `after ${attempt} request(s)`, opts.secrets), attempts: attempt, failed };
    }
  }
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * The provider's own account in an error body. OpenAI: `{"error": {"message", "type", "param", "code"}}`
 * (or its inner object); Anthropic: `{"type": "error", "error": {"type", "message",
 * "details"?: {"error_code"}}, "request_id"}`. Both are read here.
 */
export function providerDetails(body: unknown): { message?: string; type?: string; code?: string } {
  if (!isRecord(body)) return {};
  const inner = isRecord(body['error']) ? body['error'] : body;
  const details = isRecord(inner['details']) ? inner['details'] : undefined;
  const out: { message?: string; type?: string; code?: string } = {};
  const message = str(inner['message']);
  const type = str(inner['type']);
  const code = str(inner['code']) ?? (typeof inner['code'] === 'number' ? String(inner['code']) : undefined) ?? str(details?.['error_code']);
  if (message) out.message = message;
  if (type) out.type = type;
  if (code) out.code = code;
  return out;
}
