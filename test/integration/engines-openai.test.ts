// The openai engine against a real HTTP server on 127.0.0.1 speaking the Chat Completions wire format:
// what is sent, what is read back, and every fault (429 + retry-after, 5xx, 4xx, bad JSON, slow
// responses, dropped connections) — with real, short delays measured on the server's clock.
import { describe, expect, it } from 'vitest';

import { createOpenAIEngine } from '../../src/engines/openai.js';
import type { OpenAIEngineConfig } from '../../src/config/engine-schema.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { refusedUrl } from '../support/http/server.js';
import { useLoopbackServer } from '../support/http/use-server.js';
import { openaiCompletion, openaiError } from '../support/http/wire.js';

const KEY = 'sk-test-7f3a9c1e5b2d4f6a8c0e1b3d5f7a9c1e';
const env = { WHET_OPENAI_KEY: KEY };
const skill = { name: 'release-notes', text: '---\nname: release-notes\n---\n# Release notes\nGroup by type.\n' };

function engine(over: Partial<OpenAIEngineConfig> = {}, hooks: { random?: () => number } = {}) {
  const cfg: OpenAIEngineConfig = { type: 'openai', model: 'gpt-test', base_url: `${server.url}/v1`, api_key_env: 'WHET_OPENAI_KEY', ...over };
  return createOpenAIEngine(cfg, { env, ...hooks });
}

function req(over: Partial<EngineRequest> = {}): EngineRequest {
  return { kind: 'task', prompt: 'Write notes for: fix login bug', skill, taskId: 't1', timeoutMs: 5000, ...over };
}

/** ms between the arrival of request i-1 and request i, on the server's clock. */
function gap(i: number): number {
  return (server.requests[i]?.at ?? NaN) - (server.requests[i - 1]?.at ?? NaN);
}

const server = useLoopbackServer();

describe('openai engine: a successful call', () => {
  it('sends the SKILL.md text as the system message and the prompt as the user message', async () => {
    server.script({ body: openaiCompletion({ content: '## Fixes\n- login', promptTokens: 1000, completionTokens: 200 }) });
    const r = await engine({ temperature: 0.2, max_tokens: 300, price: { input_per_mtok: 3, output_per_mtok: 15 } }).run(req());
    expect(r).toMatchObject({ ok: true, output: '## Fixes\n- login', usage: { input_tokens: 1000, output_tokens: 200, cost_usd: 0.006 }, attempts: 1 });
    expect(r.failed_attempts).toBeUndefined();
    const [sent] = server.requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.path).toBe('/v1/chat/completions');
    expect(sent?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(sent?.body).toEqual({
      model: 'gpt-test',
      temperature: 0.2,
      max_tokens: 300,
      messages: [
        { role: 'system', content: skill.text },
        { role: 'user', content: 'Write notes for: fix login bug' },
      ],
    });
  });

  it('sends no system message without a skill, and request overrides of temperature and max tokens', async () => {
    server.script({ body: openaiCompletion() });
    const { skill: _none, ...noSkill } = req();
    await engine({ temperature: 1, max_tokens: 50, max_tokens_param: 'max_completion_tokens' }).run({ ...noSkill, temperature: 0, maxTokens: 9 });
    expect(server.requests[0]?.body).toEqual({ model: 'gpt-test', temperature: 0, max_completion_tokens: 9, messages: [{ role: 'user', content: 'Write notes for: fix login bug' }] });
  });

  it('passes tools natively and returns the tool calls, arguments parsed', async () => {
    server.script({
      body: openaiCompletion({
        content: null,
        toolCalls: [
          { id: 'call_1', name: 'choose_skill', arguments: '{"skill":"release-notes","confidence":0.9}' },
          { id: 'call_2', name: 'broken_args', arguments: '{not json' },
        ],
      }),
    });
    const tools = [{ name: 'choose_skill', description: 'Pick a skill', input_schema: { type: 'object', properties: { skill: { type: 'string' } }, required: ['skill'] } }];
    const r = await engine().run(req({ tools, toolChoice: { name: 'choose_skill' } }));
    expect(r.ok).toBe(true);
    expect(r.output).toBe('');
    expect(r.tool_calls).toEqual([
      { id: 'call_1', name: 'choose_skill', input: { skill: 'release-notes', confidence: 0.9 } },
      { id: 'call_2', name: 'broken_args', input: '{not json' },
    ]);
    expect(server.requests[0]?.body).toMatchObject({
      tools: [{ type: 'function', function: { name: 'choose_skill', description: 'Pick a skill', parameters: tools[0]?.input_schema } }],
      tool_choice: { type: 'function', function: { name: 'choose_skill' } },
    });
  });
});

describe('openai engine: retries', () => {
  it('waits as long as retry-after says (1 s) after a 429, then succeeds; every failure is recorded', async () => {
    server.script(
      { status: 429, headers: { 'retry-after': '1' }, body: openaiError('Rate limit reached for requests', 'requests', 'rate_limit_exceeded') },
      { body: openaiCompletion({ content: 'after the wait' }) },
    );
    const e = engine();
    const r = await e.run(req());
    expect(r).toMatchObject({ ok: true, output: 'after the wait', attempts: 2 });
    expect(server.requests).toHaveLength(2);
    expect(gap(1)).toBeGreaterThanOrEqual(990);
    expect(gap(1)).toBeLessThan(2500);
    expect(r.failed_attempts).toEqual([{ kind: 'http', status: 429, message: 'HTTP 429 requests/rate_limit_exceeded: Rate limit reached for requests', waited_ms: 1000 }]);
    expect(e.concurrency?.limit).toBe(4);
  });

  it('honours retry-after-ms before retry-after', async () => {
    server.script({ status: 429, headers: { 'retry-after-ms': '300', 'retry-after': '30' }, body: openaiError('slow down', 'requests') }, { body: openaiCompletion() });
    const r = await engine().run(req());
    expect(r.ok).toBe(true);
    expect(gap(1)).toBeGreaterThanOrEqual(290);
    expect(gap(1)).toBeLessThan(2000);
  });

  it('retries a 500 after exponential backoff with jitter, and a dropped connection', async () => {
    server.script({ status: 500, body: openaiError('The server had an error', 'server_error') }, { drop: true }, { body: openaiCompletion({ content: 'third time' }) });
    const r = await engine({}, { random: () => 1 }).run(req());
    expect(r).toMatchObject({ ok: true, output: 'third time', attempts: 3 });
    // base 500 ms × 2^(n-1) × jitter factor 0.75 (random() = 1): 375 ms, then 750 ms
    expect(gap(1)).toBeGreaterThanOrEqual(365);
    expect(gap(2)).toBeGreaterThanOrEqual(740);
    expect(r.failed_attempts?.map((f) => [f.kind, f.status, f.waited_ms])).toEqual([
      ['http', 500, 375],
      ['connection', undefined, 750],
    ]);
  });

  it('gives up after max_retries with an http error naming the status and the provider message', async () => {
    server.script({ status: 503, headers: { 'retry-after': '0' }, body: openaiError('Service Unavailable', 'server_error') });
    const r = await engine({ max_retries: 2 }).run(req());
    expect(server.requests).toHaveLength(3);
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ kind: 'http', status: 503, provider_type: 'server_error' });
    expect(r.error?.message).toContain('Service Unavailable');
    expect(r.error?.message).toContain('gave up after 3 attempts');
    expect(r.failed_attempts).toHaveLength(3);
  });

  it('does not sleep for a retry-after longer than retry_max_wait_seconds', async () => {
    server.script({ status: 429, headers: { 'retry-after': '120' }, body: openaiError('Rate limit reached', 'requests') });
    const t0 = Date.now();
    const r = await engine({ retry_max_wait_seconds: 5 }).run(req());
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(server.requests).toHaveLength(1);
    expect(r.error?.message).toMatch(/asked to wait 120 s, more than retry_max_wait_seconds \(5 s\)/);
  });
});

describe('openai engine: failures that are not retried', () => {
  it.each([400, 401, 403, 404, 422])('HTTP %i: one request, an http error value', async (status) => {
    server.script({ status, body: openaiError(`problem ${status}`, 'invalid_request_error', 'bad_thing') });
    const r = await engine().run(req());
    expect(server.requests).toHaveLength(1);
    expect(r).toMatchObject({ ok: false, output: '', attempts: 1, error: { kind: 'http', status, provider_type: 'invalid_request_error', provider_code: 'bad_thing' } });
    expect(r.error?.message).toContain(`problem ${status}`);
  });

  it('429 insufficient_quota: not retried, and not taken as a sign of overload', async () => {
    server.script({ status: 429, body: openaiError('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota') });
    const e = engine();
    const r = await e.run(req());
    expect(server.requests).toHaveLength(1);
    expect(r.error).toMatchObject({ kind: 'http', status: 429 });
    expect(e.concurrency?.limit).toBe(8);
  });

  it('a 200 with malformed JSON is a parse error, not retried', async () => {
    server.script({ body: '{"id": "chatcmpl-1", "choices": [' });
    const r = await engine().run(req());
    expect(server.requests).toHaveLength(1);
    expect(r).toMatchObject({ ok: false, error: { kind: 'parse' } });
  });

  it('a 200 that is JSON but no completion is a parse error', async () => {
    server.script({ body: { hello: 'world' } });
    const r = await engine().run(req());
    expect(r.error?.kind).toBe('parse');
    expect(r.error?.message).toContain('choices[0].message');
  });

  it('a slow response hits the per-request timeout: timeout error, not retried', async () => {
    server.script({ delayMs: 3000, body: openaiCompletion() });
    const t0 = Date.now();
    const r = await engine().run(req({ timeoutMs: 300 }));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
    expect(r).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(r.error?.message).toContain('300 ms');
  });

  it("the caller's abort ends the call as aborted, also during a retry wait", async () => {
    server.script({ delayMs: 3000, body: openaiCompletion() });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const r = await engine().run(req(), { signal: ac.signal });
    expect(r.error?.kind).toBe('aborted');

    server.script({ status: 429, headers: { 'retry-after': '20' }, body: openaiError('wait', 'requests') });
    const ac2 = new AbortController();
    setTimeout(() => ac2.abort(), 200);
    const t0 = Date.now();
    const r2 = await engine().run(req(), { signal: ac2.signal });
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(r2.error?.kind).toBe('aborted');
  });

  it('nothing listening: connection errors are retried, then an http error without a status', async () => {
    const url = await refusedUrl();
    const e = createOpenAIEngine({ type: 'openai', model: 'm', base_url: url, api_key_env: 'WHET_OPENAI_KEY', max_retries: 1 }, { env, sleep: async () => {} });
    const r = await e.run(req());
    expect(r).toMatchObject({ ok: false, attempts: 2, error: { kind: 'http' } });
    expect(r.error?.status).toBeUndefined();
    expect(r.failed_attempts?.every((f) => f.kind === 'connection')).toBe(true);
  });
});

describe('openai engine: the key stays secret', () => {
  it('never appears in an error message, even when the server echoes it back', async () => {
    server.handle((rq) => ({ status: 401, body: openaiError(`Incorrect API key provided: ${String(rq.headers['authorization'])}`, 'invalid_request_error', 'invalid_api_key') }));
    const r = await engine().run(req());
    expect(server.requests[0]?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(r.error?.status).toBe(401);
    expect(r.error?.message).toContain('Incorrect API key provided: Bearer [REDACTED]');
    expect(JSON.stringify(r)).not.toContain(KEY);
  });

  it('never appears in identity', () => {
    const id = JSON.stringify(engine({ temperature: 0.5 }).identity());
    expect(id).not.toContain(KEY);
    expect(id).not.toContain('WHET_OPENAI_KEY');
  });
});
