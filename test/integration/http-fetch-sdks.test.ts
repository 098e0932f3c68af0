// Both SDKs over apiFetch (src/engines/http-fetch.ts) against a real loopback server: the answer is an
// ApiResponse, not a global Response, so this holds the SDKs' own reading of it to what the engines rely
// on — a JSON body with its request id, an error status as the SDK's APIError carrying status, body and
// headers (retry-after read from them), an abort as the SDK's user-abort error, a refused connection as
// its connection error. SDK retries are off, as in the engines.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch } from '../../src/engines/http-fetch.js';
import { startLoopbackServer, type LoopbackServer } from '../support/http/server.js';
import { anthropicMessage, openaiCompletion } from '../support/http/wire.js';

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});

const openai = (baseURL = `${server.url}/v1`) =>
  new OpenAI({ apiKey: 'k-test', baseURL, organization: null, project: null, maxRetries: 0, logLevel: 'off', fetch: apiFetch });
const anthropic = (baseURL = server.url) => new Anthropic({ apiKey: 'k-test', baseURL, maxRetries: 0, logLevel: 'off', fetch: apiFetch });
const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };
const message = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'hi' }] };

async function refusedUrl(): Promise<string> {
  const s = await startLoopbackServer();
  const url = s.url;
  await s.close();
  return url;
}

describe('the openai SDK over apiFetch', () => {
  it('reads a completion and its x-request-id', async () => {
    server.script({ body: openaiCompletion({ content: 'hello' }), headers: { 'x-request-id': 'req-42' } });
    const r = await openai().chat.completions.create(chat);
    expect(r.choices[0]?.message.content).toBe('hello');
    expect(r._request_id).toBe('req-42');
  });

  it('turns a 429 into an APIError with status, provider body and headers, retry-after among them', async () => {
    server.script({ status: 429, headers: { 'retry-after': '7', 'x-request-id': 'req-9' }, body: { error: { message: 'slow down', type: 'rate_limit', code: 'rl' } } });
    const err = await openai().chat.completions.create(chat).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.APIError>;
    expect(e.status).toBe(429);
    expect(e.headers?.get('retry-after')).toBe('7');
    expect(e.requestID).toBe('req-9');
    expect(e.error).toMatchObject({ message: 'slow down', code: 'rl' });
  });

  it('a proxy\'s non-JSON error page is an APIError whose message is the page', async () => {
    server.script({ status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' });
    const err = await openai().chat.completions.create(chat).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect((err as Error).message).toContain('<html>Bad Gateway</html>');
    expect((err as InstanceType<typeof OpenAI.APIError>).headers?.get('content-type')).toBe('text/html');
  });

  it('an abort is APIUserAbortError; nothing listening is APIConnectionError', async () => {
    server.script({ body: openaiCompletion({ content: 'late' }), delayMs: 2000 });
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    await expect(openai().chat.completions.create(chat, { signal: ac.signal })).rejects.toBeInstanceOf(OpenAI.APIUserAbortError);
    const refused = await openai(`${await refusedUrl()}/v1`).chat.completions.create(chat).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.APIConnectionError);
    expect((refused as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED');
  });

  it('its own timeout is APIConnectionTimeoutError', async () => {
    server.script({ body: openaiCompletion({ content: 'late' }), delayMs: 2000 });
    await expect(openai().chat.completions.create(chat, { timeout: 50 })).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
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
