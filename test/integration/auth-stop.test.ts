// Issue 33: an endpoint that refuses the key (401, 403), answers nothing at the configured path (404) or
// cannot be sent to at all (credentials in base_url) stops the run at its first answer — exit 3 and what
// to fix — instead of counting every task as an engine error, retrying each, and exiting 1. A real HTTP
// server on 127.0.0.1 counts the requests; once the key is fixed, `whet resume` carries the run on.
import { afterEach, describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, tempDir, whet, write } from '../support/cli.js';
import { startLoopbackServer, type LoopbackServer } from '../support/http/server.js';
import { openaiCompletion } from '../support/http/wire.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const env = { ...process.env, TEST_KEY: 'sk-WRONGKEY-0123456789' };

function project(baseUrl: string): string {
  const dir = tempDir('whet-auth-');
  copyExample('release-notes', join(dir, 'release-notes'));
  write(
    join(dir, 'pipeline.yaml'),
    [
      'state_dir: state',
      `engine: {type: openai, model: gpt-test, base_url: "${baseUrl}", api_key_env: TEST_KEY}`,
      'targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]',
      'loop: {max_iterations: 1, plateau_window: 2, candidates_per_iteration: 2, proposers: [feedback, structural]}',
      'evaluate: {concurrency: 2}',
      'cache: {enabled: false}',
      '',
    ].join('\n'),
  );
  return dir;
}

const refused = (status: number, message: string, code: string) => ({ status, body: { error: { message, type: 'invalid_request_error', code } } });

describe('an unusable endpoint stops the run at once (exit 3, what to fix)', () => {
  it('401: the loop stops within the first calls, names the key variable, records no task error; resume goes on once the key is fixed', async () => {
    server = await startLoopbackServer(() => refused(401, 'Incorrect API key provided: sk-WRONG***', 'invalid_api_key'));
    const dir = project(`${server.url}/v1`);
    const r = await whet(['run'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(3);
    expect(server.requests.length).toBeGreaterThan(0);
    // Two in flight (concurrency 2), no retries, nothing sent after the first refusal came back.
    expect(server.requests.length).toBeLessThanOrEqual(2);
    expect(r.stderr).toMatch(/HTTP 401 .*Incorrect API key provided.* refused the API key: check the key in the environment variable TEST_KEY/);
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(r.stderr + r.stdout).not.toContain('sk-WRONGKEY-0123456789');
    // Nothing about the skill was measured: no error lines for the resume to carry as results.
    const run = join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!);
    const logs = join(run, 'iter-001/results');
    const lines = readdirSync(logs).filter((f) => f.endsWith('.jsonl')).flatMap((f) => readFileSync(join(logs, f), 'utf8').split('\n').filter(Boolean));
    expect(lines).toEqual([]);
    expect(readFileSync(join(run, 'events.jsonl'), 'utf8')).toContain('refused the API key');

    server.handle(() => ({ body: openaiCompletion({ content: '## Features\n- dark mode\n## Bug fixes\n- login crash' }) }));
    const calls = server.requests.length;
    const again = await whet(['resume'], { cwd: dir, env });
    expect(again.stderr).not.toContain('refused the API key');
    expect(again.code, again.stderr).not.toBe(3);
    expect(server.requests.length).toBeGreaterThan(calls + 5);
  }, 60_000);

  it('403 and 404 stop a standalone evaluation alike, each with its own fix', async () => {
    for (const [reply, fix] of [
      [refused(403, 'You are not allowed to use this model', 'model_not_allowed'), /HTTP 403\b.* does not let this API key do this: check the key in TEST_KEY/],
      [{ status: 404, body: 'Not Found', contentType: 'text/plain' }, /HTTP 404\b.* nothing answers at http:\/\/127\.0\.0\.1:\d+\/v1\/chat\/completions: check engine\.base_url/],
    ] as const) {
      server = await startLoopbackServer(() => reply);
      const dir = project(`${server.url}/v1`);
      const r = await whet(['evaluate', '--standalone', '--task-suite', 'release-notes/tasks.yaml', '--skill-path', 'release-notes'], { cwd: dir, env });
      expect(r.code, r.stderr).toBe(3);
      expect(r.stderr).toMatch(fix);
      expect(server.requests.length).toBeLessThanOrEqual(2);
      await server.close();
      server = undefined;
    }
  }, 60_000);

  it('credentials in base_url: no request at all, exit 3, the fix named, the password shown nowhere', async () => {
    server = await startLoopbackServer(() => ({ body: openaiCompletion({ content: 'x' }) }));
    const dir = project(`${server.url.replace('http://', 'http://user:sk-INURLSECRET99@')}/v1`);
    const r = await whet(['run'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(3);
    expect(server.requests.length).toBe(0);
    expect(r.stderr).toMatch(/base_url http:\/\/\*\*\*@127\.0\.0\.1:\d+\/v1\/chat\/completions carries credentials .*remove them from engine\.base_url .*TEST_KEY/);
    expect(r.stderr + r.stdout).not.toContain('INURLSECRET99');
    const run = join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!);
    expect(readFileSync(join(run, 'events.jsonl'), 'utf8')).not.toContain('INURLSECRET99');
  }, 60_000);

  it('a generator engine that refuses the key stops the generate stage the same way', async () => {
    server = await startLoopbackServer(() => refused(401, 'Incorrect API key provided', 'invalid_api_key'));
    const dir = project(`${server.url}/v1`);
    const cfg = join(dir, 'pipeline.yaml');
    write(
      cfg,
      readFileSync(cfg, 'utf8')
        .replace(/^engine: .*$/m, 'engine: {type: mock}')
        .replace('proposers: [feedback, structural]', `proposers: [llm], generator_engine: {type: openai, model: gpt-test, base_url: "${server.url}/v1", api_key_env: TEST_KEY}`),
    );
    const r = await whet(['run'], { cwd: dir, env });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stderr).toMatch(/HTTP 401\b.*refused the API key: check the key in the environment variable TEST_KEY/);
    expect(server.requests.length).toBe(1);
  }, 60_000);
});
