// Subscription rate limits: what Claude Code and Codex print when one is hit (shapes and sources in
// src/engines/claude-rate-limit.ts and codex-skill.ts), and the gate that pauses or stops new calls, in
// real time (short waits).
import { describe, expect, it } from 'vitest';
import { claudeRateLimit } from '../../src/engines/claude-rate-limit.js';
import { parseClaudeStream } from '../../src/engines/claude-stream.js';
import { codexRateLimit, usageLimitResetMs } from '../../src/engines/codex-skill.js';
import { epochMs, SubscriptionLimit, type LimitNotice } from '../../src/engines/subscription-limit.js';

const rejected = (info: object) => ({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected', ...info }, uuid: 'u', session_id: 's' });

describe('claude: rate_limit_event and the usage-limit result text', () => {
  it('a rejected event is a limit with its reset (Unix seconds, or milliseconds) and type; allowed and allowed_warning are not', () => {
    expect(claudeRateLimit([rejected({ resetsAt: 1771390800, rateLimitType: 'five_hour' })], false, undefined)).toEqual({ resets_at: 1771390800000, type: 'five_hour', detail: 'rate_limit_event status rejected (five_hour)' });
    expect(claudeRateLimit([rejected({ resetsAt: 1700000000000 })], false, undefined)?.resets_at).toBe(1700000000000);
    expect(claudeRateLimit([{ type: 'rate_limit_event', rate_limit_info: { status: 'allowed_warning', resetsAt: 1771390800 } }], false, undefined)).toBeUndefined();
    expect(claudeRateLimit([{ type: 'rate_limit_event', rate_limit_info: { status: 'allowed' } }], false, undefined)).toBeUndefined();
  });

  it('reads "Claude AI usage limit reached|<reset>" from the result, and an assistant rate_limit error without a reset', () => {
    expect(claudeRateLimit([], false, { type: 'result', is_error: true, result: 'Claude AI usage limit reached|1755615600' })).toEqual({ resets_at: 1755615600000, detail: 'Claude AI usage limit reached' });
    expect(claudeRateLimit([], true, { type: 'result', is_error: true, result: 'API Error' })).toEqual({ detail: 'assistant error rate_limit' });
    expect(claudeRateLimit([], false, { type: 'result', is_error: true, result: 'API Error: Rate limit reached' })).toBeUndefined();
  });

  it('a stream-json run refused by the limit fails with the limit attached', () => {
    const stream = [
      { type: 'system', subtype: 'init', session_id: 's', tools: [], model: 'm' },
      rejected({ resetsAt: 1771390800, rateLimitType: 'seven_day' }),
      { type: 'assistant', message: { content: [{ type: 'text', text: 'Claude AI usage limit reached|1771390800' }] }, error: 'rate_limit' },
      { type: 'result', subtype: 'success', is_error: true, api_error_status: 429, result: 'Claude AI usage limit reached|1771390800' },
    ].map((m) => JSON.stringify(m)).join('\n');
    const v = parseClaudeStream(stream, undefined);
    expect(v).toMatchObject({ ok: false, status: 429, extras: { rate_limit: { resets_at: 1771390800000, type: 'seven_day' } } });
  });
});

describe('codex: usage limits and 429s', () => {
  const now = new Date(2026, 2, 3, 14, 0, 0);
  it('"Try again at h:mm AM|PM" is today, local time, plus the minute Codex cut off', () => {
    expect(usageLimitResetMs("You've hit your usage limit. Upgrade to Pro (https://chatgpt.com/explore/pro) or try again at 3:05 PM.", now)).toBe(new Date(2026, 2, 3, 15, 6).getTime());
    expect(usageLimitResetMs('Try again at 12:30 AM.', now)).toBe(new Date(2026, 2, 3, 0, 31).getTime());
  });
  it('"Try again at Mar 5th, 2026 9:00 AM" is that day', () => {
    expect(usageLimitResetMs("You've hit your usage limit. Try again at Mar 5th, 2026 9:00 AM.", now)).toBe(new Date(2026, 2, 5, 9, 1).getTime());
  });
  it('a usage limit without a time has no reset; a retry-limit 429 is a plain 429; other failures are neither', () => {
    expect(codexRateLimit("You've hit your usage limit. Try again later.", now)).toEqual({ limit: { detail: "you've hit your usage limit" } });
    expect(codexRateLimit('exceeded retry limit, last status: 429 Too Many Requests, request id: x', now)).toEqual({ status: 429 });
    expect(codexRateLimit('model response stream ended unexpectedly', now)).toEqual({});
  });
  it('epochMs takes seconds or milliseconds and refuses what is neither', () => {
    expect(epochMs(1771390800)).toBe(1771390800000);
    expect(epochMs(1771390800000)).toBe(1771390800000);
    expect(epochMs('soon')).toBeUndefined();
    expect(epochMs(-1)).toBeUndefined();
  });
});

describe('the subscription-limit gate (real time)', () => {
  it('a reset within the maximum wait pauses every new call until it has passed, and says so', async () => {
    const gate = new SubscriptionLimit('claude');
    const heard: LimitNotice[] = [];
    gate.listen((n) => heard.push(n));
    const resetsAt = Date.now() + 300;
    expect(gate.hit({ resetsAt, limitType: 'five_hour', maxWaitMs: 5000, detail: 'x' })).toBe('wait');
    // A second hit of the same limit (a call that was in flight) is no second announcement.
    expect(gate.hit({ resetsAt, limitType: 'five_hour', maxWaitMs: 5000, detail: 'x' })).toBe('wait');
    const t0 = Date.now();
    const [a, b] = await Promise.all([gate.ready(), gate.ready()]);
    expect(a).toBeUndefined();
    expect(b).toBeUndefined();
    // The reset plus the one-second margin for whole-second resets.
    expect(Date.now()).toBeGreaterThanOrEqual(resetsAt + 1000);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
    expect(heard.map((n) => n.kind)).toEqual(['pause', 'resume']);
    expect(heard[0]?.message).toMatch(/five_hour rate limit reached; pausing new work until/);
    expect(await gate.ready()).toBeUndefined();
  });

  it('a reset beyond the maximum wait stops the gate until the reset has passed; no reset at all stops it for good', async () => {
    const gate = new SubscriptionLimit('codex');
    const heard: string[] = [];
    gate.listen((n) => heard.push(n.kind));
    expect(gate.hit({ resetsAt: Date.now() + 600, maxWaitMs: 100, detail: 'usage limit' })).toBe('stop');
    expect(await gate.ready()).toMatch(/codex: subscription rate limit reached \(usage limit\); it resets at .* beyond rate_limit_max_wait_seconds \(0 s\)/);
    await new Promise((r) => setTimeout(r, 700));
    expect(await gate.ready()).toBeUndefined();
    expect(gate.hit({ maxWaitMs: 60_000, detail: 'usage limit' })).toBe('stop');
    expect(await gate.ready()).toMatch(/no reset time was given/);
    expect(heard).toEqual(['stop', 'stop']);
  });

  it('a reset already passed while the limit holds pauses (at most the maximum wait), then stops for good instead of calling again and again', async () => {
    const gate = new SubscriptionLimit('claude');
    const heard: LimitNotice[] = [];
    gate.listen((n) => heard.push(n));
    const past = Date.now() - 3_600_000;
    expect(gate.hit({ resetsAt: past, limitType: 'five_hour', maxWaitMs: 400, detail: 'x' })).toBe('wait');
    // A call that was in flight meets the same limit during the pause: covered by it, no stop.
    expect(gate.hit({ resetsAt: past, limitType: 'five_hour', maxWaitMs: 400, detail: 'x' })).toBe('wait');
    const t0 = Date.now();
    expect(await gate.ready()).toBeUndefined();
    expect(Date.now() - t0).toBeGreaterThanOrEqual(390);
    expect(heard[0]).toMatchObject({ kind: 'pause', message: expect.stringMatching(/already passed; pausing new work for 1 s, then trying again/) });
    // The call run again after the pause meets the limit again, with the maximum wait spent: the gate stops, and stays stopped.
    expect(gate.hit({ resetsAt: past, limitType: 'five_hour', maxWaitMs: 400, detail: 'x' })).toBe('stop');
    expect(await gate.ready()).toMatch(/five_hour rate limit reached \(x\); it said it resets at .*already passed; the limit still held after 1 pause\(s\), 1 s in all, as long as rate_limit_max_wait_seconds \(0 s\) allows: is the clock right\?/);
    await new Promise((r) => setTimeout(r, 500));
    expect(await gate.ready()).toMatch(/is the clock right/);
    expect(heard.map((n) => n.kind)).toEqual(['pause', 'resume', 'stop']);
  });

  it('pauses for a reset already passed double, a minute first, until the maximum wait is spent; a row ends ten minutes after its last pause, or when a call goes through', async () => {
    let now = Date.UTC(2026, 11, 7, 12);
    const gate = new SubscriptionLimit('codex', () => now, async (ms) => void (now += ms));
    const pauses: string[] = [];
    gate.listen((n) => pauses.push(n.kind === 'pause' ? n.message.replace(/.*pausing new work for (.*), then.*/, '$1') : n.kind));
    const hitAndWait = async () => {
      const d = gate.hit({ resetsAt: now - 60_000, maxWaitMs: 10 * 60_000, detail: 'usage limit' });
      if (d === 'wait') await gate.ready();
      return d;
    };
    for (let i = 0; i < 4; i++) expect(await hitAndWait()).toBe('wait');
    // 1 + 2 + 4 minutes, then what is left of the ten: 3.
    expect(pauses).toEqual(['60 s', 'resume', '2 min', 'resume', '4 min', 'resume', '3 min', 'resume']);
    expect(await hitAndWait()).toBe('stop');
    expect(await gate.ready()).toMatch(/after 4 pause\(s\), 10 min in all, as long as rate_limit_max_wait_seconds \(600 s\) allows/);

    // A second gate: a row that ended more than ten minutes ago, and the next starts at a minute again.
    const g2 = new SubscriptionLimit('codex', () => now, async (ms) => void (now += ms));
    expect(g2.hit({ resetsAt: now - 1, maxWaitMs: 10 * 60_000, detail: 'x' })).toBe('wait');
    await g2.ready();
    now += 11 * 60_000;
    const heard: string[] = [];
    g2.listen((n) => heard.push(n.message));
    expect(g2.hit({ resetsAt: now - 1, maxWaitMs: 10 * 60_000, detail: 'x' })).toBe('wait');
    expect(heard[0]).toMatch(/pausing new work for 60 s/);
    await g2.ready();
    // A call that went through ends the row too: the limit had lifted.
    g2.succeeded();
    expect(g2.hit({ resetsAt: now - 1, maxWaitMs: 10 * 60_000, detail: 'x' })).toBe('wait');
    expect(heard.at(-1)).toMatch(/pausing new work for 60 s/);
  });

  it('an abort while paused ends the wait with a refusal instead of hanging', async () => {
    const gate = new SubscriptionLimit('claude');
    gate.hit({ resetsAt: Date.now() + 10_000, maxWaitMs: 60_000, detail: 'x' });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    expect(await gate.ready(ac.signal)).toMatch(/aborted while paused/);
  });
});
