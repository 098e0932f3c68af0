// The openai: / anthropic: intent engines are the engine family's HTTP engines behind an adapter
// (src/intents/model-engine.ts), so `whet intents` gets what the family does and the old SDK-direct
// engines did not: exhausted quota is not retried, Anthropic's cached prompt tokens are counted, the
// per-request timeout and the caller's abort are told apart, and credentials in a base URL never reach
// a label, an identity, an error or the report. Real HTTP on 127.0.0.1 only.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createIntentEngine } from '../../src/intents/engine-spec.js';
import { catalogFromEntries } from '../../src/config/intent-catalog.js';
import { runEngine } from '../../src/intents/run-engine.js';
import { runIntents } from '../../src/intents/run-intents.js';
import type { CatalogEntry, IntentCase, IntentRequest } from '../../src/config/intent-types.js';
import { startLoopbackServer, type LoopbackServer } from '../support/http/server.js';
import { anthropicError, anthropicMessage, openaiCompletion, openaiError } from '../support/http/wire.js';
import { tempDir } from '../support/temp.js';

const entries: CatalogEntry[] = [
  { id: 'issue.create', description: 'Create an issue.', systems: ['jira'], parameters: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } },
];
const request = (utterance: string): IntentRequest => ({ id: 'f1', utterance, context: {}, catalog: entries });
const created = openaiCompletion({ content: null, toolCalls: [{ id: 'c1', name: 'issue_create', arguments: '{"title":"Login fails"}' }] });
const call = { behavior: 'call', calls: [{ capability: 'issue.create', params: { title: 'Login fails' } }], via: 'tool' };

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const openai = async (env: Record<string, string> = {}, retries?: number) => {
  server ??= await startLoopbackServer();
  return createIntentEngine('openai:gpt-test', { cwd: tmpdir(), env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-family-test-key', ...env }, ...(retries !== undefined ? { maxRetries: retries } : {}) });
};

describe('intent engines on the engine family', () => {
  it('a 429 with retry-after is retried after the wait the server asked for, and the case is decided', async () => {
    server = await startLoopbackServer();
    server.script({ status: 429, headers: { 'retry-after': '1' }, body: openaiError('slow down', 'requests', 'rate_limit_exceeded') }, { body: created });
    const r = await (await openai()).decide(request('file a ticket'), { timeoutMs: 10_000 });
    expect(r.error).toBeUndefined();
    expect(r.decision).toEqual(call);
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.at - server.requests[0]!.at).toBeGreaterThanOrEqual(900);
  });

  it('a 429 for exhausted quota is not retried: waiting cannot fix it', async () => {
    server = await startLoopbackServer();
    server.script({ status: 429, body: openaiError('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota') }, { body: created });
    const r = await (await openai({}, 3)).decide(request('file a ticket'), { timeoutMs: 10_000 });
    expect(server.requests).toHaveLength(1);
    expect(r.decision).toBeUndefined();
    expect(r.error?.kind).toBe('http');
    expect(r.error?.message).toMatch(/^HTTP 429: insufficient_quota.*exceeded your current quota/);
  });

  it('anthropic: a 529 is retried, and cached prompt tokens count as input', async () => {
    server = await startLoopbackServer();
    const tool = anthropicMessage({ content: [{ type: 'tool_use', id: 't1', name: 'issue_create', input: { title: 'Login fails' } }], inputTokens: 20, cacheRead: 30, outputTokens: 4 });
    server.script({ status: 529, headers: { 'retry-after-ms': '20' }, body: anthropicError('overloaded_error', 'Overloaded') }, { body: tool });
    const engine = createIntentEngine('anthropic:claude-test', { cwd: tmpdir(), env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'ak-family-test' } });
    const r = await engine.decide(request('file a ticket'), { timeoutMs: 10_000 });
    expect(r.decision).toEqual(call);
    expect(r.usage).toEqual({ input_tokens: 50, output_tokens: 4 });
    expect(server.requests.map((q) => q.path)).toEqual(['/v1/messages', '/v1/messages']);
    expect(server.requests[1]!.body).toMatchObject({ max_tokens: 1024, tool_choice: { type: 'auto' } });
    expect(server.requests[1]!.body).not.toHaveProperty('temperature');
    expect(engine.identity()).toEqual({ type: 'anthropic', model: 'claude-test', base_url: server.url, max_tokens: 1024 });
  });

  it('a 429 burst lowers how many cases are in flight (adaptive concurrency), and every case is still decided', async () => {
    const cases: IntentCase[] = Array.from({ length: 8 }, (_, i) => ({ id: `a${i}`, kind: 'direct', utterance: 'file a ticket', context: {}, expect: { behavior: 'call', capability: 'issue.create', params: {} }, line: i + 1 }));
    const run = async (burst: boolean) => {
      server = await startLoopbackServer((_req, i) =>
        burst && i < 4 ? { status: 429, headers: { 'retry-after-ms': '200' }, body: openaiError('slow down', 'requests', 'rate_limit_exceeded') } : { delayMs: 150, body: created },
      );
      const engine = createIntentEngine('openai:gpt-test', { cwd: tmpdir(), env: { OPENAI_BASE_URL: `${server.url}/v1`, OPENAI_API_KEY: 'sk-family-test-key' }, concurrency: 4 });
      const runs = await runEngine(engine, cases, catalogFromEntries(entries), { concurrency: 4, timeoutMs: 10_000 });
      const requests = server.requests.map((q) => q.inFlight);
      await server.close();
      server = undefined;
      return { runs, requests };
    };
    // Without 429s all four workers are in flight at once, so a lower figure below is the controller's doing.
    const calm = await run(false);
    expect(Math.max(...calm.requests)).toBe(4);
    const { runs, requests } = await run(true);
    expect(runs.every((r) => r.decision?.behavior === 'call')).toBe(true);
    expect(requests).toHaveLength(12); // 4 refused, their 4 retries, the 4 cases after them
    // The burst halved the limit to 2 (counted once); the retries' four successes raise it to 3, never back to 4 here.
    expect(Math.max(...requests.slice(8))).toBeLessThanOrEqual(3);
  });

  it('tells the per-request timeout from the caller\'s abort', async () => {
    server = await startLoopbackServer(() => ({ delayMs: 3000, body: created }));
    const engine = await openai({}, 0);
    const slow = await engine.decide(request('file a ticket'), { timeoutMs: 300 });
    expect(slow.error).toEqual({ kind: 'timeout', message: expect.stringMatching(/no response within 300 ms/) });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 200);
    const aborted = await engine.decide(request('file a ticket'), { timeoutMs: 10_000, signal: stop.signal });
    expect(aborted.error?.kind).toBe('aborted');
    expect(aborted.duration_ms).toBeLessThan(2500);
  });

  it('credentials in the base URL stay out of the label, the identity, the errors and the report', async () => {
    server = await startLoopbackServer(() => ({ body: created }));
    const secret = 'pw-USERINFO-s3cret';
    const base = `${server.url.replace('://', `://user:${secret}@`)}/v1`;
    const engine = await openai({ OPENAI_BASE_URL: base }, 0);
    expect(engine.label).not.toContain(secret);
    expect(JSON.stringify(engine.identity())).not.toContain(secret);
    expect(engine.identity()).toMatchObject({ type: 'openai', model: 'gpt-test', temperature: 0 });
    // fetch refuses a URL with credentials, so the request fails; its error must not carry them either.
    const r = await engine.decide(request('file a ticket'), { timeoutMs: 5000 });
    expect(r.error).toBeDefined();
    expect(r.error!.message).not.toContain(secret);

    const dir = tempDir('whet-intents-family-');
    writeFileSync(join(dir, 'cases.jsonl'), `${JSON.stringify({ id: 'c1', kind: 'direct', utterance: 'file a ticket', expect: { behavior: 'call', capability: 'issue.create', params: {} } })}\n`);
    writeFileSync(join(dir, 'catalog.json'), JSON.stringify({ capabilities: entries }));
    const result = await runIntents(
      { cases: 'cases.jsonl', catalog: 'catalog.json', engine: 'openai:gpt-test', out: dir, retries: 0 },
      { cwd: dir, env: { OPENAI_BASE_URL: base, OPENAI_API_KEY: 'sk-family-test-key' }, now: () => new Date('2026-03-14T12:00:00Z'), warn: () => undefined },
    );
    const report = readFileSync(join(dir, 'report-2026-03-14.md'), 'utf8');
    expect(report).toContain('openai gpt-test at http://');
    for (const text of [report, JSON.stringify(result)]) expect(text).not.toContain(secret);
  });

  it('a malformed base URL is a usage error before any case runs', () => {
    expect(() => createIntentEngine('openai:m', { cwd: tmpdir(), env: { OPENAI_BASE_URL: 'localhost:11434/v1?x=1' } })).toThrow(/--engine openai:m: OPENAI_BASE_URL: /);
  });
});
