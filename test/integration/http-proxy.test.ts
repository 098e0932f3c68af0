// The openai engine behind a proxy, against a real forward proxy and real servers on 127.0.0.1
// (test/support/http/proxy.ts): HTTP_PROXY carries http targets as absolute-URI requests, HTTPS_PROXY
// https targets through a CONNECT tunnel, NO_PROXY sends matching hosts direct, proxy credentials go to the
// proxy only; 307/308 are followed as fetch follows them, and an answer over max_response_mib is an engine
// error naming the setting. The engine's environment is the one it is handed (HttpEngineOptions.env, the
// run's RunEnv.env), never process.env: every test passes its own.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createOpenAIEngine } from '../../src/engines/openai.js';
import { createIntentEngine } from '../../src/intents/engine-spec.js';
import { apiFetch } from '../../src/engines/http-fetch.js';
import type { OpenAIEngineConfig } from '../../src/config/engine-schema.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { repoRoot } from '../support/cli.js';
import { completion, selfSignedCert, startApiServer, startProxy, type ApiServer, type TestProxy } from '../support/http/proxy.js';
import { tempDir } from '../support/temp.js';

const KEY = 'sk-proxy-test-4b1d9e7c2a5f8e3d';
let api: ApiServer;
let other: ApiServer;
let secure: ApiServer;
let proxy: TestProxy;
let locked: TestProxy;

function engine(base: string, env: NodeJS.ProcessEnv, over: Partial<OpenAIEngineConfig> = {}) {
  const cfg: OpenAIEngineConfig = { type: 'openai', model: 'm', base_url: `${base}/v1`, api_key_env: 'K', max_retries: 0, ...over };
  return createOpenAIEngine(cfg, { env: { K: KEY, ...env } });
}
const req: EngineRequest = { kind: 'task', prompt: 'say PASSWORD', taskId: 't1', timeoutMs: 5000 };

beforeAll(async () => {
  const tls = selfSignedCert(tempDir('whet-tls-'));
  [api, other, secure, proxy, locked] = await Promise.all([startApiServer(), startApiServer(), startApiServer(tls), startProxy(), startProxy({ user: 'ann', pass: 's3cr et!' })]);
});
afterAll(async () => {
  await Promise.all([api, other, secure, proxy, locked].map((s) => s.close()));
});
beforeEach(() => {
  for (const s of [api, other, secure]) {
    s.seen.length = 0;
    s.answer(() => completion('PASSWORD ok'));
  }
  for (const p of [proxy, locked]) {
    p.tunnels.length = 0;
    p.forwarded.length = 0;
    p.outboundPorts.clear();
    p.refused = 0;
  }
});

describe('proxies from the engine environment', () => {
  it('HTTP_PROXY: an http target is reached only through the proxy, by its absolute URI', async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      const r = await engine(api.url, { [name]: proxy.url }).run(req);
      expect(r, name).toMatchObject({ ok: true, output: 'PASSWORD ok' });
    }
    expect(proxy.forwarded).toEqual([`${api.url}/v1/chat/completions`, `${api.url}/v1/chat/completions`]);
    expect(api.seen).toHaveLength(2);
    for (const s of api.seen) expect(proxy.outboundPorts.has(s.remotePort)).toBe(true);
    expect(api.seen[0]!.headers['authorization']).toBe(`Bearer ${KEY}`);
  });

  it('NO_PROXY matching the host (the host, a port rule, `*`) goes direct', async () => {
    for (const rule of ['127.0.0.1', `localhost, 127.0.0.1:${new URL(api.url).port}`, '*']) {
      const r = await engine(api.url, { HTTP_PROXY: proxy.url, NO_PROXY: rule }).run(req);
      expect(r, rule).toMatchObject({ ok: true });
    }
    expect(proxy.forwarded).toEqual([]);
    expect(api.seen).toHaveLength(3);
    // A rule for another port or host leaves the proxy in place.
    await engine(api.url, { HTTP_PROXY: proxy.url, no_proxy: '127.0.0.1:1,example.com' }).run(req);
    expect(proxy.forwarded).toHaveLength(1);
  });

  it('proxy credentials in the URL go to the proxy as Proxy-Authorization, never to the target', async () => {
    const withAuth = locked.url.replace('//', `//ann:${encodeURIComponent('s3cr et!')}@`);
    expect(await engine(api.url, { HTTP_PROXY: withAuth }).run(req)).toMatchObject({ ok: true });
    expect(api.seen[0]!.headers['proxy-authorization']).toBeUndefined();
    const refused = await engine(api.url, { HTTP_PROXY: locked.url }).run(req);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'http', status: 407 } });
    expect(locked.refused).toBe(1);
  });

  it('HTTPS_PROXY: an https target goes through a CONNECT tunnel, the certificate checked inside it', async () => {
    // The test's own certificate is not one this process trusts (Node reads NODE_EXTRA_CA_CERTS only at
    // start; evaluate-proxy.test.ts runs whet with it): the handshake fails, but only after the tunnel.
    const r = await engine(secure.url, { HTTPS_PROXY: proxy.url }).run(req);
    expect(proxy.tunnels).toEqual([`127.0.0.1:${new URL(secure.url).port}`]);
    expect(r).toMatchObject({ ok: false, error: { kind: 'http' } });
    expect(r.error?.message).toMatch(/self[- ]signed/i);
    // An http target ignores HTTPS_PROXY, and NO_PROXY sends the https one direct.
    await engine(api.url, { HTTPS_PROXY: proxy.url }).run(req);
    await engine(secure.url, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }).run(req);
    expect(proxy.tunnels).toHaveLength(1);
    expect(proxy.forwarded).toEqual([]);
  });

  it('a proxy that refuses the tunnel (407 without credentials) is an http engine error naming it', async () => {
    const r = await engine(secure.url, { HTTPS_PROXY: locked.url }).run(req);
    expect(r).toMatchObject({ ok: false, error: { kind: 'http' } });
    expect(r.error?.message).toMatch(/refused the tunnel to 127\.0\.0\.1:\d+: 407/);
    expect(locked.refused).toBe(1);
    // With its credentials the tunnel opens (the handshake inside then fails on the test's certificate).
    await engine(secure.url, { HTTPS_PROXY: locked.url.replace('//', `//ann:${encodeURIComponent('s3cr et!')}@`) }).run(req);
    expect(locked.tunnels).toHaveLength(1);
  });

  it('loads the proxy code only when a proxy applies', async () => {
    // A child process per case, its module loads logged (test/support/module-log.mjs).
    const loads = async (env: Record<string, string>): Promise<string[]> => {
      const log = join(tempDir('whet-modlog-'), 'modules');
      const mod = pathToFileURL(join(repoRoot, 'dist/src/engines/http-json.js')).href;
      const code = `import { postJson } from ${JSON.stringify(mod)}; await postJson(${JSON.stringify(`${api.url}/v1/chat/completions`)}, {}, { a: 1 }, new AbortController().signal, { env: ${JSON.stringify(env)} });`;
      const hook = pathToFileURL(join(repoRoot, 'test/support/module-log.mjs')).href;
      await promisify(execFile)(process.execPath, ['--import', hook, '--input-type=module', '-e', code], { env: { ...process.env, WHET_MODULE_LOG: log } });
      return readFileSync(log, 'utf8').split('\n').filter((m) => m.includes('/engines/http-proxy'));
    };
    const [none, bypass, used] = await Promise.all([loads({}), loads({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }), loads({ HTTP_PROXY: proxy.url })]);
    expect(none.map((m) => m.split('/').pop())).toEqual(['http-proxy-env.js']);
    expect(bypass.map((m) => m.split('/').pop())).toEqual(['http-proxy-env.js']);
    expect(used.map((m) => m.split('/').pop()).sort()).toEqual(['http-proxy-env.js', 'http-proxy.js']);
  });

  it('whet intents hands its model engines the proxy variables with the key, and nothing else', async () => {
    const env = { OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_API_KEY: 'sk-intents', http_proxy: proxy.url, NO_PROXY: 'example.com' };
    const engine = createIntentEngine('openai:m', { cwd: repoRoot, env, maxRetries: 0 });
    const catalog = [{ id: 'issue.create', description: 'Create an issue.', systems: ['jira'], parameters: { type: 'object', properties: {} } }];
    await engine.decide({ id: 'c1', utterance: 'file a ticket', context: {}, catalog }, { timeoutMs: 5000 });
    expect(proxy.forwarded).toEqual([`${api.url}/v1/chat/completions`]);
    expect(api.seen[0]!.headers['authorization']).toBe('Bearer sk-intents');
  });

  it('an unusable proxy variable is a ConfigError when the engine is made', () => {
    expect(() => engine(api.url, { HTTP_PROXY: 'socks5://127.0.0.1:1080' })).toThrow(/http_proxy \/ HTTP_PROXY.*socks5/);
  });
});

describe('redirects', () => {
  it('follows a 308 on the same origin with the same method, body and credentials', async () => {
    api.answer((r, i) => (i === 0 ? { status: 308, headers: { location: '/v2/chat/completions' } } : completion(`moved ${r.method}`)));
    const r = await engine(api.url, {}).run(req);
    expect(r).toMatchObject({ ok: true, output: 'moved POST', attempts: 1 });
    expect(api.seen.map((s) => s.path)).toEqual(['/v1/chat/completions', '/v2/chat/completions']);
    expect(api.seen[1]!.body).toBe(api.seen[0]!.body);
    expect(api.seen[1]!.headers['authorization']).toBe(`Bearer ${KEY}`);
  });

  it('follows a 307 to another origin without the Authorization header', async () => {
    api.answer(() => ({ status: 307, headers: { location: `${other.url}/elsewhere` } }));
    const r = await engine(api.url, {}).run(req);
    expect(r).toMatchObject({ ok: true });
    expect(other.seen).toHaveLength(1);
    expect(other.seen[0]).toMatchObject({ method: 'POST', path: '/elsewhere', body: api.seen[0]!.body });
    expect(other.seen[0]!.headers['authorization']).toBeUndefined();
  });

  it('gives up after 20 hops, as fetch does, with an http error that is not retried', async () => {
    api.answer((_, i) => ({ status: 308, headers: { location: `/hop/${i}` } }));
    const r = await engine(api.url, {}, { max_retries: 3 }).run(req);
    expect(r).toMatchObject({ ok: false, attempts: 1, error: { kind: 'http', status: 308 } });
    expect(r.error?.message).toContain('redirect count exceeded');
    expect(api.seen).toHaveLength(21);
  });

  it("keeps fetch's contract: the answer names where it came from, and `redirect: manual | error` are honoured", async () => {
    api.answer((r) => (r.path === '/start' ? { status: 308, headers: { location: '/end' } } : { body: '{"at":"end"}' }));
    const followed = await apiFetch(`${api.url}/start`, { method: 'POST', body: 'b' });
    expect([followed.status, followed.redirected, followed.url]).toEqual([200, true, `${api.url}/end`]);
    expect(await followed.json()).toEqual({ at: 'end' });
    const manual = await apiFetch(`${api.url}/start`, { method: 'POST', body: 'b', redirect: 'manual' });
    expect([manual.status, manual.redirected, manual.headers.get('location')]).toEqual([308, false, '/end']);
    await expect(apiFetch(`${api.url}/start`, { method: 'POST', body: 'b', redirect: 'error' })).rejects.toThrow(TypeError);
  });

  it('answers a 301 as it is: a POST is not turned into a GET', async () => {
    api.answer(() => ({ status: 301, headers: { location: '/v2/chat/completions' } }));
    expect(await engine(api.url, {}).run(req)).toMatchObject({ ok: false, error: { kind: 'http', status: 301 } });
    expect(api.seen).toHaveLength(1);
  });
});

describe('the answer size cap', () => {
  const big = completion('x'.repeat(5000));
  it('an answer over max_response_mib is an engine error naming the cap, streamed or with its length', async () => {
    for (const headers of [{}, { 'content-length': String(Buffer.byteLength(big.body!)) }] as Array<Record<string, string>>) {
      api.answer(() => ({ ...big, headers }));
      const r = await engine(api.url, {}, { max_response_mib: 0.001, max_retries: 2 }).run(req);
      expect(r).toMatchObject({ ok: false, attempts: 1, error: { kind: 'parse' } });
      expect(r.error?.message).toContain('max_response_mib (0.001 MiB, 1048 bytes)');
    }
    // The default (32 MiB) reads it.
    expect(await engine(api.url, {}).run(req)).toMatchObject({ ok: true, output: 'x'.repeat(5000) });
  });
});
