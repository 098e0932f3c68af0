// apiFetch (src/engines/http-fetch.ts) against a real loopback server, as each HTTP engine uses it: the
// openai engine's postJson (http-json.ts) straight over it, the anthropic SDK with it as its fetch. The
// answer is an ApiResponse, not a global Response, so this holds each reader of it to what the engines
// rely on — a JSON body, an error status carrying status, provider body and headers (retry-after read from
// them), an abort as an abort, a refused connection as a connection failure. SDK retries are off, as in
// the engine.
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, assert, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch } from '../../src/engines/http-fetch.js';
import { classifyPostError, postJson } from '../../src/engines/http-json.js';
import { startLoopbackServer, type LoopbackServer } from '../support/http/server.js';
import { anthropicMessage, openaiCompletion } from '../support/http/wire.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});

const anthropic = (baseURL = server.url) => new Anthropic({ apiKey: 'k-test', baseURL, maxRetries: 0, logLevel: 'off', fetch: apiFetch });
const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
const message = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };

async function refusedUrl(): Promise<string> {
  const s = await startLoopbackServer();
  const url = s.url;
  await s.close();
  return url;
}

describe('postJson over apiFetch (the openai engine, no SDK)', () => {
  const url = () => `${server.url}/v1/chat/completions`;
  const post = (to = url(), signal = new AbortController().signal) => postJson(to, { 'content-type': 'application/json', authorization: 'Bearer k-test' }, chat, signal);
  const failure = (p: Promise<unknown>) => p.then(() => assert.fail('resolved'), (e: unknown) => classifyPostError(e));

  it('sends the body as JSON with the given headers and the Host, and reads the JSON answer', async () => {
    server.script({ body: openaiCompletion({ content: 'hello' }) });
    const before = server.requests.length;
    const r = (await post()) as { choices: { message: { content: string } }[] };
    expect(r.choices[0]?.message.content).toBe('hello');
    const sent = server.requests[before]!;
    expect(sent.body).toEqual(chat);
    expect(sent.headers).toMatchObject({ authorization: 'Bearer k-test', 'content-type': 'application/json', host: new URL(server.url).host });
  });

  it('turns a 429 into an http failure with status, provider message, type, code and headers, retry-after among them', async () => {
    server.script({ status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'slow down', type: 'rate_limit', code: 'rl' } } });
    const f = await failure(post());
    expect(f).toMatchObject({ kind: 'http', status: 429, message: 'slow down', providerType: 'rate_limit', providerCode: 'rl' });
    expect(f.headers?.get('retry-after')).toBe('7');
  });

  it("a proxy's non-JSON error page is an http failure whose message is the page; an empty one says so", async () => {
    server.script({ status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' });
    expect(await failure(post())).toMatchObject({ kind: 'http', status: 502, message: '<html>Bad Gateway</html>' });
    server.script({ status: 503, body: '' });
    expect(await failure(post())).toMatchObject({ kind: 'http', status: 503, message: 'status code 503 (no body)' });
  });

  it('a 200 that is not JSON is a parse failure showing the body', async () => {
    server.script({ status: 200, body: 'not json {', contentType: 'application/json' });
    const f = await failure(post());
    expect(f.kind).toBe('parse');
    expect(f.message).toContain('not json {');
  });

  it('an abort rejects with an AbortError; nothing listening is a connection failure naming ECONNREFUSED', async () => {
    server.script({ body: openaiCompletion({ content: 'late' }), delayMs: 2000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const aborted = await post(url(), ac.signal).catch((e: unknown) => e);
    expect((aborted as Error).name).toBe('AbortError');
    expect(classifyPostError(aborted).kind).toBe('aborted');
    const refused = await failure(post(`${await refusedUrl()}/v1/chat/completions`));
    expect(refused.kind).toBe('connection');
    expect(refused.message).toContain('ECONNREFUSED');
  });
});

describe('the anthropic SDK over apiFetch', () => {
  it('reads a message and its request-id', async () => {
    server.script({ body: anthropicMessage({ content: [{ type: 'text', text: 'hello' }] }), headers: { 'request-id': 'req-a' } });
    const r = await anthropic().messages.create(message);
    expect(r.content[0]).toMatchObject({ type: 'text', text: 'hello' });
    expect(r._request_id).toBe('req-a');
  });

  it('turns a 529 into an APIError with status, body and headers', async () => {
    server.script({ status: 529, headers: { 'retry-after': '3', 'request-id': 'req-b' }, body: { type: 'error', error: { type: 'overloaded_error', message: 'busy' } } });
    const err = await anthropic().messages.create(message).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const e = err as InstanceType<typeof Anthropic.APIError>;
    expect(e.status).toBe(529);
    expect(e.headers?.get('retry-after')).toBe('3');
    expect(e.requestID).toBe('req-b');
    expect(e.error).toMatchObject({ error: { type: 'overloaded_error' } });
  });

  it('an abort is APIUserAbortError; nothing listening is APIConnectionError', async () => {
    server.script({ body: anthropicMessage({ content: [{ type: 'text', text: 'late' }] }), delayMs: 2000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    await expect(anthropic().messages.create(message, { signal: ac.signal })).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
    await expect(anthropic(await refusedUrl()).messages.create(message)).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
  });
});
