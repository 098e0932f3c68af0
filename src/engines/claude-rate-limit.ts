// Claude Code's subscription rate limits, as they reach a headless run:
//
//   stream-json  {"type":"rate_limit_event","rate_limit_info":{"status":"allowed"|"allowed_warning"|"rejected",
//                 "resetsAt":<Unix seconds>,"rateLimitType":"five_hour"|"seven_day"|…,"utilization"?,
//                 "overageStatus"?,…},"uuid":…,"session_id":…}
//                (the Agent SDK's RateLimitEvent / RateLimitInfo{status, resets_at, rate_limit_type,
//                utilization, raw} in claude_agent_sdk, parsed from these wire keys; the same line is
//                quoted in the Rust and Go SDK ports' fixtures, e.g. {"status":"allowed","resetsAt":1771390800,
//                "rateLimitType":"five_hour","overageStatus":"rejected",…}). Only `rejected` means the call was
//                refused; `allowed_warning` rides on calls that succeed.
//                An assistant message refused for it carries "error":"rate_limit" (the SDK's
//                AssistantMessage.error: authentication_failed | billing_error | rate_limit | …).
//   result       is_error true, api_error_status 429, and the result text "Claude AI usage limit
//                reached|<Unix seconds>" (the machine form quoted in anthropics/claude-code issues #1328,
//                #6119, #9046, #11429: "Claude AI usage limit reached|1755615600") — the only form
//                `--output-format json` carries, where no rate_limit_event is printed.
//
// A reset time in milliseconds (some wrappers re-emit it so) is accepted as well (epochMs).
import { epochMs } from './subscription-limit.js';
import type { RateLimitInfo } from './types.js';
import { isRecord } from './values.js';

const USAGE_LIMIT_TEXT = /usage limit reached\|(\d{9,13})/i;

/** What the run's messages say about a subscription limit, or undefined when they say nothing of one. */
export function claudeRateLimit(events: Record<string, unknown>[], assistantRateLimited: boolean, result: Record<string, unknown> | undefined): RateLimitInfo | undefined {
  let found: RateLimitInfo | undefined;
  for (const ev of events) {
    const info = ev['rate_limit_info'];
    if (!isRecord(info) || info['status'] !== 'rejected') continue;
    const resets = epochMs(info['resetsAt']);
    const type = typeof info['rateLimitType'] === 'string' ? info['rateLimitType'] : undefined;
    found = { ...(resets !== undefined ? { resets_at: resets } : {}), ...(type ? { type } : {}), detail: `rate_limit_event status rejected${type ? ` (${type})` : ''}` };
  }
  if (found) return found;
  const text = typeof result?.['result'] === 'string' ? result['result'] : '';
  const m = USAGE_LIMIT_TEXT.exec(text);
  if (m) {
    const resets = epochMs(Number(m[1]));
    return { ...(resets !== undefined ? { resets_at: resets } : {}), detail: 'Claude AI usage limit reached' };
  }
  if (assistantRateLimited) return { detail: 'assistant error rate_limit' };
  return undefined;
}
