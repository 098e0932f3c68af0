// Retrying a Claude Code run that failed on the API. Claude Code makes its own API calls; when they fail
// for good it prints an `is_error` result with `api_error_status` (429 rate limit, 5xx, 529 overloaded —
// claude-result.ts), on exit 0 or 1. Those are the same transient failures the HTTP engines retry, so the
// same policy decides (retry.ts: 429 except quota exhaustion, 408, 409, 5xx retried; other 4xx not), with
// exponential backoff and jitter — Claude Code passes on no retry-after, so backoff is all there is. Each
// attempt is a whole new run in a fresh workspace (the caller's `once`). Failures without an API status
// (timeouts, exit codes, unparseable output, max turns) are never retried: another run would not differ.
//
// Every attempt is also reported to the engine's adaptive concurrency controller, and a subscription
// limit with a known reset is left to the caller (`giveUp`), which waits for the reset instead of backing
// off within seconds (cli-rate-limit.ts).
import { abortableSleep } from './sleep.js';
import { decideRetry, DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import type { EngineResult, FailedAttempt, Usage } from './types.js';

export interface CliRetryOptions {
  policy?: RetryPolicy;
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** A failed result that must not be retried here (the caller handles it). */
  giveUp?: (res: EngineResult) => boolean;
}

function addUsage(a: Usage, b: Usage): Usage {
  const out: Usage = { ...a };
  for (const k of ['input_tokens', 'output_tokens', 'cost_usd'] as const) {
    if (b[k] !== undefined) out[k] = (out[k] ?? 0) + b[k];
  }
  return out;
}

/** Runs `once` until it succeeds or fails in a way retry.ts does not retry; never throws. */
export async function runWithApiRetries(once: () => Promise<EngineResult>, opts: CliRetryOptions = {}): Promise<EngineResult> {
  const policy = opts.policy ?? DEFAULT_RETRY_POLICY;
  const sleep = opts.sleep ?? abortableSleep;
  const failed: FailedAttempt[] = [];
  let spent: Usage = {};
  let elapsed = 0;
  for (let attempt = 1; ; attempt++) {
    const res = await once();
    elapsed += res.duration_ms;
    // Tokens and cost of refused attempts were still spent; the account covers every attempt.
    spent = addUsage(spent, res.usage);
    const status = res.error?.status;
    if (res.ok || status === undefined || opts.giveUp?.(res)) return finish(res, spent, failed, attempt, elapsed);
    const decision = decideRetry({ kind: 'http', status, message: res.error?.message ?? '' }, attempt, policy, Date.now(), opts.random ?? Math.random);
    const record: FailedAttempt = { kind: res.error?.kind ?? 'exit', message: res.error?.message ?? '', status };
    failed.push(record);
    if (!decision.retry) {
      const why = attempt > 1 ? ` (gave up after ${attempt} attempts)` : '';
      return finish({ ...res, error: { ...res.error!, message: `${res.error!.message}${why}` } }, spent, failed, attempt, elapsed);
    }
    record.waited_ms = decision.waitMs;
    try {
      await sleep(decision.waitMs, opts.signal);
    } catch {
      return { ...finish(res, spent, failed, attempt, elapsed), error: { kind: 'aborted', message: 'aborted while waiting to retry after a Claude API error', status } };
    }
    elapsed += decision.waitMs;
  }
}

/** The last attempt's result with the account of all of them; a call that was never retried is left as it was. */
function finish(res: EngineResult, usage: Usage, failed: FailedAttempt[], attempts: number, elapsedMs: number): EngineResult {
  if (attempts === 1) return res;
  const out: EngineResult = { ...res, usage, attempts, duration_ms: elapsedMs };
  if (failed.length) out.failed_attempts = failed;
  return out;
}
