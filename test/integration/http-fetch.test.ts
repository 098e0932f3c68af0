// The HTTP engines' transport behind the fetch interface (src/engines/http-fetch.ts), against a real
// loopback server: what a fetch caller relies on — status, headers, a body read once as text or JSON, an
// abort that rejects with an AbortError, a refused connection that rejects — and the keep-alive pool
// reusing one socket.
import { createServer, type Server } from 'node:http';
import { createServer as netServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFetch } from '../../src/engines/http-fetch.js';
import { closeServer, listenLoopback, refusedUrl } from '../support/http/server.js';

let server: Server;
let url: string;
const sockets = new Set<unknown>();
const seen: { method?: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    sockets.add(req.socket);
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method, headers: req.headers, body });
      if (req.url === '/slow') return void setTimeout(() => res.end('late'), 5000);
      if (req.url === '/empty') return void res.writeHead(204).end();
      if (req.url === '/repeats') {
        // Repeated and mixed-case names, as a proxy may send them: the answer must read as a Headers would.
        res.writeHead(200, ['X-Multi', 'one', 'content-type', 'text/plain', 'x-multi', 'two', 'Set-Cookie', 'a=1', 'set-cookie', 'b=2', 'B-First', 'yes']);
        return void res.end('ok');
      }
      res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json', 'x-request-id': 'req-1', 'set-cookie': ['a=1', 'b=2'] });
      res.end(JSON.stringify({ echo: body, path: req.url }));
    });
  });
  url = await listenLoopback(server);
});
afterAll(() => closeServer(server));

describe('apiFetch', () => {
  it('sends method, headers and body, and answers with status, headers and a JSON body read once', async () => {
    const res = await apiFetch(`${url}/v1/chat`, { method: 'POST', headers: new Headers({ Authorization: 'Bearer k', 'Content-Type': 'application/json' }), body: '{"q":"é"}' });
    expect(res.status).toBe(200);
    expect(res.ok).toBe(true);
    expect(res.headers.get('x-request-id')).toBe('req-1');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.clone().text()).toBe(JSON.stringify({ echo: '{"q":"é"}', path: '/v1/chat' }));
    expect(await res.json()).toEqual({ echo: '{"q":"é"}', path: '/v1/chat' });
    expect(res.bodyUsed).toBe(true);
    await expect(res.text()).rejects.toThrow(/already been read/);
    const last = seen[seen.length - 1]!;
    expect(last).toMatchObject({ method: 'POST', body: '{"q":"é"}' });
    expect(last.headers).toMatchObject({ authorization: 'Bearer k', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength('{"q":"é"}')) });
  });

  it('reads headers as the Fetch standard does: any case, repeats joined, set-cookie apart, sorted iteration', async () => {
    const res = await apiFetch(`${url}/repeats`);
    const ref = new Headers([['X-Multi', 'one'], ['content-type', 'text/plain'], ['x-multi', 'two'], ['Set-Cookie', 'a=1'], ['set-cookie', 'b=2'], ['B-First', 'yes']]);
    expect(res.headers.get('X-MULTI')).toBe('one, two');
    expect(res.headers.get('x-multi')).toBe(ref.get('x-multi'));
    expect(res.headers.get('set-cookie')).toBe(ref.get('set-cookie'));
    expect(res.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(res.headers.has('B-FIRST')).toBe(true);
    expect(res.headers.get('absent')).toBeNull();
    // node:http adds date, connection and keep-alive; compare only what the handler sent.
    const sent = new Set(['b-first', 'content-type', 'set-cookie', 'x-multi']);
    expect([...res.headers].filter(([k]) => sent.has(k))).toEqual([...ref]);
    const seenByForEach: string[] = [];
    res.headers.forEach((v, k) => sent.has(k) && seenByForEach.push(`${k}=${v}`));
    expect(seenByForEach).toEqual([...ref].map(([k, v]) => `${k}=${v}`));
    expect([...res.headers.keys()].filter((k) => sent.has(k))).toEqual([...ref.keys()]);
    expect(res.url).toBe(`${url}/repeats`);
    expect(res.statusText).toBe('OK');
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('ok');
  });

  it('sends the Host header of the URL, and a given content-length is replaced by the real one', async () => {
    await (await apiFetch(`${url}/host`, { method: 'POST', headers: { 'Content-Length': '999', 'X-A': '1' }, body: 'abc' })).text();
    const last = seen[seen.length - 1]!;
    expect(last.headers['host']).toBe(new URL(url).host);
    expect(last.headers).toMatchObject({ 'content-length': '3', 'x-a': '1' });
    expect(last.body).toBe('abc');
  });

  it('rejects a status no Response can carry (a broken proxy) with a TypeError, as fetch does', async () => {
    const odd = netServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 600 Odd\r\ncontent-length: 0\r\n\r\n')));
    const oddUrl = await listenLoopback(odd);
    try {
      await expect(apiFetch(`${oddUrl}/`)).rejects.toThrow(TypeError);
    } finally {
      await closeServer(odd);
    }
  });

  it('passes error statuses and 204 through as responses', async () => {
    const missing = await apiFetch(`${url}/missing`);
    expect(missing.status).toBe(404);
    expect(missing.ok).toBe(false);
    expect(await missing.json()).toMatchObject({ path: '/missing' });
    const empty = await apiFetch(`${url}/empty`);
    expect(empty.status).toBe(204);
    expect(await empty.text()).toBe('');
  });

  it('rejects with an AbortError when the signal aborts, before or during the request', async () => {
    const ac = new AbortController();
    const pending = apiFetch(`${url}/slow`, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    await expect(apiFetch(`${url}/x`, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('rejects when nothing listens', async () => {
    await expect(apiFetch(`${await refusedUrl()}/`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('reuses its keep-alive socket for calls one after another', async () => {
    sockets.clear();
    for (let i = 0; i < 5; i++) await (await apiFetch(`${url}/again`, { method: 'POST', body: String(i) })).json();
    expect(sockets.size).toBe(1);
  });
});
