// `whet evaluate` behind a proxy, end to end: an OpenAI-compatible server and a forward proxy, both on
// 127.0.0.1 (test/support/http/proxy.ts). With HTTPS_PROXY set the https server is reached only through
// the proxy's CONNECT tunnels — every request it saw came from a port the proxy opened — and with NO_PROXY
// matching it the proxy is not used at all. That run is the bundled `whet` in its own process, which is
// the only way to make it trust the test's certificate (NODE_EXTRA_CA_CERTS is read at start). The
// in-process run shows the evaluation takes HTTP_PROXY from the environment it is handed (RunEnv.env),
// not from process.env.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { tempDir, whet, whetBin, write } from '../support/cli.js';
import { selfSignedCert, startApiServer, startProxy, type ApiServer, type TestProxy } from '../support/http/proxy.js';

const run = promisify(execFile);
const TASKS = 4;
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy'];
/** process.env without any proxy of the machine running the tests. */
const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !PROXY_VARS.includes(k)));

let plain: ApiServer;
let secure: ApiServer;
let proxy: TestProxy;
let certFile: string;

beforeAll(async () => {
  const tls = selfSignedCert(tempDir('whet-tls-'));
  certFile = tls.certFile;
  [plain, secure, proxy] = await Promise.all([startApiServer(), startApiServer(tls), startProxy()]);
});
afterAll(async () => {
  await Promise.all([plain, secure, proxy].map((s) => s.close()));
});
beforeEach(() => {
  plain.seen.length = 0;
  secure.seen.length = 0;
  proxy.tunnels.length = 0;
  proxy.forwarded.length = 0;
  proxy.outboundPorts.clear();
});

function project(server: ApiServer): string {
  const dir = tempDir('whet-proxy-');
  write(join(dir, 'skill/SKILL.md'), '---\nname: echo\ndescription: Answers the task.\n---\n# Echo\nAnswer.\n');
  const tasks = Array.from({ length: TASKS }, (_, i) => `  - id: t-${i}\n    prompt: "task ${i}"\n    judge: {type: contains, expected: ["PASSWORD"]}\n`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: echo\nversion: "1.0"\ntasks:\n${tasks.join('')}`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: openai, model: m, base_url: "${server.url}/v1", api_key_env: WHET_PROXY_KEY, max_retries: 0}\nevaluate: {concurrency: 2}\n`);
  return dir;
}
/** A state root of its own per run: a second run in the same one would take the baseline from its cache. */
const args = (state: string) => ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', state];

describe('whet evaluate behind a proxy', () => {
  it('HTTPS_PROXY: reaches the https server only through CONNECT tunnels; NO_PROXY matching it goes direct', async () => {
    const dir = project(secure);
    const env = { ...cleanEnv(), WHET_PROXY_KEY: 'sk-0000', NODE_EXTRA_CA_CERTS: certFile, HTTPS_PROXY: proxy.url };
    const through = await run(process.execPath, [whetBin, ...args('via-proxy')], { cwd: dir, env });
    expect(through.stderr).toContain(`${TASKS} engine calls`);
    expect(secure.seen).toHaveLength(TASKS);
    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
    expect(proxy.tunnels.length).toBeLessThanOrEqual(TASKS);
    for (const s of secure.seen) expect(proxy.outboundPorts.has(s.remotePort), `request from port ${s.remotePort}`).toBe(true);

    proxy.tunnels.length = 0;
    secure.seen.length = 0;
    await run(process.execPath, [whetBin, ...args('direct')], { cwd: dir, env: { ...env, NO_PROXY: 'localhost,127.0.0.1' } });
    expect(secure.seen).toHaveLength(TASKS);
    expect(proxy.tunnels).toEqual([]);
    for (const s of secure.seen) expect(proxy.outboundPorts.has(s.remotePort)).toBe(false);
  }, 60_000);

  it('HTTP_PROXY from the environment the evaluation is handed, not process.env', async () => {
    const dir = project(plain);
    const env = { ...cleanEnv(), WHET_PROXY_KEY: 'sk-0000', HTTP_PROXY: proxy.url };
    const r = await whet(args('state'), { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(plain.seen).toHaveLength(TASKS);
    expect(proxy.forwarded).toHaveLength(TASKS);
    for (const s of plain.seen) expect(proxy.outboundPorts.has(s.remotePort)).toBe(true);
  });
});
