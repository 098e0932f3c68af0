// postJson (src/engines/http-json.ts), the one request of both HTTP engines, over apiFetch against a real
// loopback server: a JSON body sent and read, an error status as an http failure carrying the status, the
// provider's message, type and code (OpenAI's and Anthropic's error bodies) and the headers retry-after is
// read from, a 2xx that is not JSON as a parse failure, an abort as an abort, a refused connection as a
// connection failure.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { assert, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';
import { classifyPostError, postJson } from '../../src/engines/http-json.js';
import { refusedUrl } from '../support/http/server.js';
import { useLoopbackServer } from '../support/http/use-server.js';
import { openaiCompletion } from '../support/http/wire.js';

const server = useLoopbackServer();

const chat = { model: 'm', messages: [{ role: 'user' as const, content: 'hi' }] };

describe('postJson over apiFetch', () => {
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

  it("reads Anthropic's error body the same way: a 529 overloaded_error with its message", async () => {
    server.script({ status: 529, headers: { 'retry-after': '3' }, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_1' } });
    const f = await failure(post());
    expect(f).toMatchObject({ kind: 'http', status: 529, message: 'Overloaded', providerType: 'overloaded_error' });
    expect(f.headers?.get('retry-after')).toBe('3');
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

  it("loads none of Node's fetch implementation (undici): a call is node:http alone", async () => {
    const mod = pathToFileURL(join(repoRoot, 'dist/src/engines/http-json.js')).href;
    // A child process (the test runner has Node's fetch loaded already), answered by this process's
    // server: the child runs asynchronously so that the server can answer it.
    const undici = async (code: string) => {
      server.script({ body: openaiCompletion({ content: 'hello' }) });
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
      return JSON.parse(stdout) as string[];
    };
    const call = `import { postJson } from ${JSON.stringify(mod)}; await postJson(${JSON.stringify(url())}, { 'content-type': 'application/json' }, { a: 1 }, new AbortController().signal);`;
    const list = 'console.log(JSON.stringify(process.moduleLoadList.filter((m) => m.includes("undici"))));';
    expect(await undici(`${call} ${list}`)).toEqual([]);
    // The control: naming the global Request is what loads it.
    expect((await undici(`${call} void Request; ${list}`)).length).toBeGreaterThan(0);
  });
});
