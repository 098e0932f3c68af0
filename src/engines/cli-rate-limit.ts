// How an agent CLI's call meets rate limits, for claude and codex alike:
//
//   1. every run is reported to the engine's adaptive concurrency controller (adaptive.ts, the rule the
//      HTTP engines follow): a 429 or a subscription limit halves the limit, successes raise it again;
//   2. a plain 429 without a reset time is retried with backoff (claude-retry.ts, retry.ts's policy);
//   3. a subscription limit with a known reset goes to the CLI's gate (subscription-limit.ts): the call
//      waits for the reset and runs again, or — past rate_limit_max_wait_seconds, or with no reset
//      known once backoff is spent — fails with the error kind `rate_limited`, which stops the run
//      (nothing is recorded for the attempt; `whet resume` redoes it).
import { runWithApiRetries, type CliRetryOptions } from './claude-retry.js';
import { RATE_LIMITED, type SubscriptionLimit } from './subscription-limit.js';
import type { AdaptiveConcurrency, EngineResult } from './types.js';

export interface LimitedRunOptions {
  gate: SubscriptionLimit;
  concurrency?: AdaptiveConcurrency;
  maxWaitMs: number;
  retry?: Omit<CliRetryOptions, 'signal'>;
  signal?: AbortSignal;
}

function stopped(res: EngineResult, message: string): EngineResult {
  return { ...res, error: { kind: RATE_LIMITED, message, ...(res.error?.status !== undefined ? { status: res.error.status } : {}) } };
}

/** Runs `once` (one whole CLI run in a fresh workspace) under the rules above; never throws. */
export async function runRateLimited(once: () => Promise<EngineResult>, o: LimitedRunOptions): Promise<EngineResult> {
  const reported = async (): Promise<EngineResult> => {
    const res = await once();
    if (res.ok) {
      o.concurrency?.onSuccess();
      o.gate.succeeded();
    }
    else if (res.error?.status === 429 || res.rate_limit) o.concurrency?.onRateLimited();
    return res;
  };
  const retry: CliRetryOptions = { ...o.retry, giveUp: (r) => r.rate_limit?.resets_at !== undefined, ...(o.signal ? { signal: o.signal } : {}) };
  for (;;) {
    // The answer's duration is its own run's: a pause for a reset is no latency of the agent.
    const res = await runWithApiRetries(reported, retry);
    if (res.ok || !res.rate_limit) return res;
    const r = res.rate_limit;
    const decision = o.gate.hit({
      ...(r.resets_at !== undefined ? { resetsAt: r.resets_at } : {}),
      ...(r.type ? { limitType: r.type } : {}),
      maxWaitMs: o.maxWaitMs,
      detail: r.detail,
    });
    if (decision === 'stop') return stopped(res, o.gate.stopReason() ?? `${o.gate.engine}: rate limited`);
    const refused = await o.gate.ready(o.signal);
    if (refused && o.signal?.aborted) return { ...res, error: { kind: 'aborted', message: refused } };
    if (refused) return stopped(res, refused);
  }
}
