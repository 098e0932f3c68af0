// The anthropic engine against a real HTTP server on 127.0.0.1 speaking the Messages API wire format.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { AnthropicEngineConfig } from '../../src/config/engine-schema.js';
import { createAnthropicEngine } from '../../src/engines/anthropic.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { useLoopbackServer } from '../support/http/use-server.js';
import { anthropicError, anthropicMessage } from '../support/http/wire.js';

const KEY = 'sk-ant-api03-LoopbackKey-91c2e7f4a8b3d6c0e5f1a2b3';
const env = { WHET_ANTHROPIC_KEY: KEY };
const skill = { name: 'release-notes', text: '---\nname: release-notes\n---\n# Release notes\nGroup by type.\n' };

function engine(over: Partial<AnthropicEngineConfig> = {}) {
  return createAnthropicEngine({ type: 'anthropic', model: 'claude-test', base_url: server.url, api_key_env: 'WHET_ANTHROPIC_KEY', ...over }, { env });
}

function req(over: Partial<EngineRequest> = {}): EngineRequest {
  return { kind: 'task', prompt: 'Write notes for: fix login bug', skill, timeoutMs: 5000, ...over };
}

const savedToken = process.env['ANTHROPIC_AUTH_TOKEN'];
const server = useLoopbackServer();
beforeEach(() => {
  // A bearer token in the environment must not ride along: the engine passes its key explicitly.
  process.env['ANTHROPIC_AUTH_TOKEN'] = 'env-token-that-must-not-be-sent';
});
afterEach(() => {
  if (savedToken === undefined) delete process.env['ANTHROPIC_AUTH_TOKEN'];
  else process.env['ANTHROPIC_AUTH_TOKEN'] = savedToken;
});

describe('anthropic engine: a successful call', () => {
  it('puts the skill in `system`, the prompt in the user turn, max_tokens defaulting to 4096', async () => {
    server.script({ body: anthropicMessage({ content: [{ type: 'text', text: '## Fixes\n' }, { type: 'text', text: '- login' }], inputTokens: 10, cacheCreation: 300, cacheRead: 690, outputTokens: 100 }) });
    const r = await engine({ price: { input_per_mtok: 3, output_per_mtok: 15 } }).run(req());
    expect(r).toMatchObject({ ok: true, output: '## Fixes\n- login', usage: { input_tokens: 1000, output_tokens: 100, cost_usd: 0.0045 }, attempts: 1 });
    const [sent] = server.requests;
    expect(sent?.path).toBe('/v1/messages');
    // The key as the API reference names it and as a bearer credential (what @anthropic-ai/sdk 1.x
    // sends); the environment's ANTHROPIC_AUTH_TOKEN is not used.
    expect(sent?.headers['x-api-key']).toBe(KEY);
    expect(sent?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent?.headers['anthropic-version']).toBe('2023-06-01');
    expect(sent?.body).toEqual({ model: 'claude-test', max_tokens: 4096, system: skill.text, messages: [{ role: 'user', content: 'Write notes for: fix login bug' }] });
  });

  it('sends temperature and max_tokens from config, and the judge system text before the skill', async () => {
    server.script({ body: anthropicMessage() });
    await engine({ temperature: 0, max_tokens: 256 }).run(req({ kind: 'judge', system: 'Grade strictly.' }));
    expect(server.requests[0]?.body).toMatchObject({ max_tokens: 256, temperature: 0, system: `Grade strictly.\n\n---\n\n${skill.text}` });
  });

  it('returns tool_use blocks as tool calls and maps tool choice', async () => {
    server.script({
      body: anthropicMessage({ content: [{ type: 'text', text: 'Choosing.' }, { type: 'tool_use', id: 'toolu_01', name: 'choose_skill', input: { skill: 'release-notes' } }] }),
    });
    const tools = [{ name: 'choose_skill', input_schema: { type: 'object', properties: { skill: { type: 'string' } } } }];
    const r = await engine().run(req({ tools, toolChoice: 'required' }));
    expect(r).toMatchObject({ ok: true, output: 'Choosing.', tool_calls: [{ id: 'toolu_01', name: 'choose_skill', input: { skill: 'release-notes' } }] });
    expect(server.requests[0]?.body).toMatchObject({ tools: [{ name: 'choose_skill', input_schema: tools[0]?.input_schema }], tool_choice: { type: 'any' } });
  });
});

describe('anthropic engine: faults', () => {
  it('429 rate_limit_error with retry-after: 1 → waits a second, retries, succeeds; the controller halves', async () => {
    server.script({ status: 429, headers: { 'retry-after': '1' }, body: anthropicError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit') }, { body: anthropicMessage() });
    const e = engine({ max_concurrency: 6 });
    const r = await e.run(req());
    expect(r).toMatchObject({ ok: true, attempts: 2 });
    const wait = (server.requests[1]?.at ?? 0) - (server.requests[0]?.at ?? 0);
    expect(wait).toBeGreaterThanOrEqual(990);
    expect(r.failed_attempts?.[0]).toMatchObject({ status: 429, waited_ms: 1000 });
    expect(r.failed_attempts?.[0]?.message).toContain('rate_limit_error');
    expect(e.concurrency?.limit).toBe(3);
  });

  it('without retry-after, waits for the exhausted limit to reset (anthropic-ratelimit-*-reset)', async () => {
    const reset = new Date(Date.now() + 1500).toISOString();
    server.script(
      { status: 429, headers: { 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': reset, 'anthropic-ratelimit-tokens-remaining': '5000' }, body: anthropicError('rate_limit_error', 'slow down') },
      { body: anthropicMessage() },
    );
    const t0 = Date.now();
    const r = await engine().run(req());
    expect(r.ok).toBe(true);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1000);
  });

  it('529 overloaded_error is retried', async () => {
    server.script({ status: 529, headers: { 'retry-after': '0' }, body: anthropicError('overloaded_error', 'Overloaded') }, { body: anthropicMessage({ content: [{ type: 'text', text: 'ok now' }] }) });
    const r = await engine().run(req());
    expect(r).toMatchObject({ ok: true, output: 'ok now', attempts: 2 });
  });

  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
  ])('HTTP %i %s: not retried; the error carries status, type and message', async (status, type) => {
    server.script({ status, body: anthropicError(type, `problem: ${type}`) });
    const r = await engine().run(req());
    expect(server.requests).toHaveLength(1);
    expect(r).toMatchObject({ ok: false, error: { kind: 'http', status, provider_type: type } });
    expect(r.error?.message).toContain(`problem: ${type}`);
  });

  it('429 enforced_spend_limit_reached is not retried (waiting cannot help)', async () => {
    server.script({ status: 429, headers: { 'retry-after': '1' }, body: { type: 'error', error: { type: 'rate_limit_error', message: 'spend limit reached', details: { error_code: 'enforced_spend_limit_reached' } } } });
    const r = await engine().run(req());
    expect(server.requests).toHaveLength(1);
    expect(r.error).toMatchObject({ kind: 'http', status: 429, provider_code: 'enforced_spend_limit_reached' });
  });

  it('malformed JSON on 200 is a parse error; a slow response is a timeout; neither is retried', async () => {
    server.script({ body: '{"type":"message","content":[{"type":"te' });
    const bad = await engine().run(req());
    expect(bad.error?.kind).toBe('parse');
    expect(server.requests).toHaveLength(1);

    server.requests.length = 0;
    server.script({ delayMs: 3000, body: anthropicMessage() });
    const slow = await engine().run(req({ timeoutMs: 250 }));
    expect(slow.error?.kind).toBe('timeout');
    expect(server.requests).toHaveLength(1);
  });

  it('the key never appears in errors or identity, even when echoed back', async () => {
    server.handle((rq) => ({ status: 401, body: anthropicError('authentication_error', `invalid credential: ${String(rq.headers['authorization'])}`) }));
    const e = engine();
    const r = await e.run(req());
    expect(r.error?.message).toContain('invalid credential: Bearer [REDACTED]');
    expect(JSON.stringify(r)).not.toContain(KEY);
    expect(JSON.stringify(e.identity())).not.toContain(KEY);
  });
});
