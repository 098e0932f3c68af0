// What `whet view` refuses (issue 29, "safe by default"): a request without the token or with a wrong one,
// another Host (DNS rebinding), any path outside the state directory however it is spelled, a change
// without the token header, from another origin or of another content type, a review on a read-only
// viewer — and a connection to any address but 127.0.0.1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, whet } from '../support/cli.js';
import { startView, type RunningView } from '../support/view.js';

let view: RunningView;
let runId: string;

interface Answer {
  status: number;
  body: string;
}

function send(path: string, o: { method?: string; headers?: Record<string, string>; body?: string; host?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: view.port, path, method: o.method ?? 'GET', headers: { host: o.host ?? `127.0.0.1:${view.port}`, ...o.headers } }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const withToken = (path: string) => `${path}${path.includes('?') ? '&' : '?'}session=${view.token}`;

beforeAll(async () => {
  const dir = exampleLoopProject({ prefix: 'whet-view-guard-', loop: '{max_iterations: 1, proposers: [feedback, structural]}', thresholds: '{min_delta: 0, max_new_failures: 0}' });
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  runId = readdirSync(join(dir, 'state/runs'))[0]!;
  view = await startView(dir);
}, 60_000);

afterAll(async () => {
  if (view) expect(await view.stop()).toBe(0);
});

describe('whet view refuses', () => {
  it('every request without the token, or with a wrong one — the page, its script, the API and the event stream', async () => {
    for (const p of ['/', '/assets/app.js', '/api/runs', `/api/runs/${runId}`, '/api/events', '/api/review']) {
      expect((await send(p)).status, p).toBe(403);
      expect((await send(`${p}?session=${'0'.repeat(64)}`)).status, p).toBe(403);
    }
    const ok = await send(withToken('/api/runs'));
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)[0].run_id).toBe(runId);
  });

  it('another Host, even with the token (a DNS-rebinding page sends its own name)', async () => {
    for (const host of ['evil.example', `evil.example:${view.port}`, `127.0.0.1:${view.port + 1}`, `127.0.0.1.evil.example:${view.port}`]) {
      const r = await send(withToken('/api/runs'), { host });
      expect(r.status, host).toBe(421);
      expect(r.body).not.toContain(runId);
    }
    expect((await send(withToken('/api/runs'), { host: `localhost:${view.port}` })).status).toBe(200);
    // No Host at all (HTTP/1.0 allows it): refused too.
    const raw = await new Promise<string>((resolve) => {
      let got = '';
      const s = connect({ host: '127.0.0.1', port: view.port }, () => s.write(`GET ${withToken('/api/runs')} HTTP/1.0\r\n\r\n`));
      s.on('data', (d) => (got += d.toString()));
      s.on('close', () => resolve(got));
    });
    expect(raw).toMatch(/^HTTP\/1\.[01] 421 /);
  });

  it('any path outside the state directory, however it is spelled', async () => {
    const paths = [
      '/assets/../../package.json',
      '/assets/..%2F..%2Fpackage.json',
      '/assets/%2e%2e/%2e%2e/package.json',
      '/assets/index.html/../../../README.md',
      '/../../../../etc/passwd',
      '/api/runs/..%2F..%2F..%2Fetc',
      '/api/runs/..',
      `/api/runs/${runId}/iterations/1/outputs/..%2F..%2Frun.json`,
      `/api/runs/${runId}/iterations/..%2F..%2F/outputs`,
      '/api/feedback/export?run=../../etc',
      '/etc/passwd',
      '/package.json',
    ];
    for (const p of paths) {
      const r = await send(withToken(p));
      expect([400, 404], p).toContain(r.status);
      expect(r.body, p).not.toMatch(/"name": *"whetstone"|root:x:0|"schema":"whetstone.run\/1"/);
    }
  });

  it('a change without the token header, from another origin, with no origin at all, or not as JSON', async () => {
    const body = JSON.stringify({ run: runId, iteration: 1, task: 'rn-group-01', variant: 'baseline', attempt: null, rating: 'good', comment: '' });
    const json = { 'content-type': 'application/json' };
    const same = { origin: `http://127.0.0.1:${view.port}` };
    expect((await send(withToken('/api/feedback'), { method: 'POST', headers: { ...json, ...same }, body })).status).toBe(403);
    expect((await send('/api/feedback', { method: 'POST', headers: { ...json, 'x-whet-token': view.token, origin: 'http://evil.example' }, body })).status).toBe(403);
    expect((await send('/api/feedback', { method: 'POST', headers: { ...json, 'x-whet-token': view.token, 'sec-fetch-site': 'cross-site' }, body })).status).toBe(403);
    expect((await send('/api/feedback', { method: 'POST', headers: { ...json, 'x-whet-token': view.token }, body })).status).toBe(403);
    expect((await send('/api/feedback', { method: 'POST', headers: { 'content-type': 'text/plain', 'x-whet-token': view.token, ...same }, body })).status).toBe(415);
    expect((await send('/api/feedback', { method: 'PUT', headers: { ...json, 'x-whet-token': view.token, ...same }, body })).status).toBe(405);
    // The same request from the viewer's own page goes through.
    expect((await send('/api/feedback', { method: 'POST', headers: { ...json, 'x-whet-token': view.token, ...same }, body })).status).toBe(200);
    expect((await send('/api/feedback', { method: 'POST', headers: { ...json, 'x-whet-token': view.token, 'sec-fetch-site': 'same-origin' }, body })).status).toBe(200);
  });

  it('approve and reject on a viewer started without --review', async () => {
    const r = await send('/api/review', { method: 'POST', headers: { 'content-type': 'application/json', 'x-whet-token': view.token, origin: `http://127.0.0.1:${view.port}` }, body: JSON.stringify({ run: runId, candidate: 'cand-01', iteration: 1, verdict: 'approve' }) });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).error).toMatch(/read-only: start it with `whet view --review`/);
  });

  it('connections to any address but 127.0.0.1', async () => {
    const others = ['::1', ...Object.values(networkInterfaces()).flat().filter((i) => i && !i.internal).map((i) => i!.address)];
    for (const host of others) {
      const refused = await new Promise<boolean>((resolve) => {
        const s = connect({ host, port: view.port, timeout: 2000 });
        s.on('connect', () => (s.destroy(), resolve(false)));
        s.on('error', () => resolve(true));
        s.on('timeout', () => (s.destroy(), resolve(true)));
      });
      expect(refused, host).toBe(true);
    }
  });
});
