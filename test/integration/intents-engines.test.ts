// Intent engines against real processes and real HTTP: the command protocol through a scripted program,
// and the OpenAI / Anthropic engines against node:http servers on 127.0.0.1 speaking their wire formats.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { createEngine } from '../../src/engines/index.js';
import { decideIntent } from '../../src/evaluation/intent-decide.js';
import { catalogFromEntries } from '../../src/config/intent-catalog.js';
import { createIntentEngine } from '../../src/intents/engine-spec.js';
import { scoreIntentRun } from '../../src/intents/metrics.js';
import type { CatalogEntry, IntentCase, IntentRequest } from '../../src/config/intent-types.js';
import { listenLoopback } from '../support/http/server.js';
import { tempDir } from '../support/temp.js';

const ROOT = resolve(import.meta.dirname, '../..');
const PLANNER = join(ROOT, 'test/fixtures/intents/scripted-planner.mjs');
const entries: CatalogEntry[] = [
  { id: 'issue.create', description: 'Create an issue.', systems: ['jira', 'github'], keywords: ['ticket'], parameters: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } },
  { id: 'access.grant', description: 'Grant a role.', systems: ['okta'], requires: ['admin'], parameters: { type: 'object', properties: {} } },
];
const catalog = catalogFromEntries(entries);
const request = (id: string, utterance: string, context: Record<string, unknown> = {}): IntentRequest => ({ id, utterance, context, catalog: entries });

describe('command engine protocol', () => {
  const dir = tempDir('whet-intents-cmd-');
  const script = join(dir, 'script.json');
  writeFileSync(script, JSON.stringify({ echo: { $echo: true }, log: { $log: { behavior: 'clarify', question: 'which?' } }, garbage: { $garbage: true }, exit: { $exit: 4 }, sleep: { $sleep: 5000 }, bad: { behavior: 'maybe' } }));
  const engine = createIntentEngine(`command:node ${PLANNER} --flag 'two words'`, { cwd: ROOT, env: { ...process.env, SCRIPT_FILE: script } });
  const decide = (id: string, timeoutMs = 10_000) => engine.decide(request(id, '  file a tikcet: "Login fails"  ', { project: 'PAY' }), { timeoutMs });

  it('sends the request (never the expectation) on stdin, the case id in the environment, arguments unsplit', async () => {
    const r = await decide('echo');
    expect(r.decision?.behavior).toBe('refuse');
    const seen = JSON.parse(r.decision?.behavior === 'refuse' ? r.decision.reason : '{}');
    expect(seen).toEqual({
      protocol: 'whetstone.intents/1',
      id: 'echo',
      utterance: '  file a tikcet: "Login fails"  ',
      context: { project: 'PAY' },
      catalog: entries,
      env_case_id: 'echo',
      argv: ['--flag', 'two words'],
    });
    expect(engine.identity()).toMatchObject({ type: 'command', argv: ['node', PLANNER, '--flag', 'two words'] });
  });
  it('reads the last line when the program logs first', async () => {
    expect((await decide('log')).decision).toEqual({ behavior: 'clarify', question: 'which?', via: 'json' });
  });
  it('turns failures into errors, never decisions', async () => {
    expect((await decide('garbage')).error).toEqual({ kind: 'parse', message: 'stdout is not a JSON decision: this is not json' });
    expect((await decide('bad')).error?.message).toMatch(/"behavior" must be "call", "clarify" or "refuse"/);
    const exit = await decide('exit');
    expect(exit.error?.kind).toBe('exit');
    expect(exit.error?.message).toMatch(/exit code 4.*scripted failure/);
    const slow = await decide('sleep', 300);
    expect(slow.error?.kind).toBe('timeout');
    const missing = createIntentEngine('command:./no-such-planner', { cwd: dir, env: process.env });
    expect((await missing.decide(request('x', 'x'), { timeoutMs: 5000 })).error?.kind).toBe('spawn');
  });
  it('rejects an empty or unterminated command', () => {
    expect(() => createIntentEngine('command:', { cwd: ROOT, env: {} })).toThrow(UsageError);
    expect(() => createIntentEngine("command:node 'x", { cwd: ROOT, env: {} })).toThrow(/unterminated/);
  });
});

interface Seen {
  url: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}
/** A local server answering each request with reply(body); records what it received. */
async function serve(reply: (body: Record<string, unknown>) => { status?: number; json: unknown }): Promise<{ server: Server; base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>;
      seen.push({ url: req.url ?? '', headers: req.headers, body });
      const r = reply(body);
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(r.json));
    });
  });
  return { server, base: await listenLoopback(server), seen };
}
const lastUser = (body: Record<string, unknown>) => {
  const msgs = body.messages as { role: string; content: string }[];
  return msgs[msgs.length - 1]!.content;
};

const OPENAI_REPLIES: Record<string, { content: string | null; tool_calls?: unknown[] } | 'error'> = {
  'file a ticket': { content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'issue_create', arguments: '{"title":"Login fails"}' } }] },
  'which one': { content: null, tool_calls: [{ id: 'c2', type: 'function', function: { name: 'ask_clarification', arguments: '{"question":"Which project?"}' } }] },
  'make me admin': { content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'refuse', arguments: '{"reason":"admins only"}' } }] },
  'plain question': { content: 'Which tracker do you mean?' },
  'plain no': { content: 'I cannot do that.' },
  'broken args': { content: null, tool_calls: [{ id: 'c4', type: 'function', function: { name: 'issue_create', arguments: '{"title": ' } }] },
  invented: { content: null, tool_calls: [{ id: 'c5', type: 'function', function: { name: 'issue_delete', arguments: '{}' } }] },
  boom: 'error',
};

describe('openai engine (Chat Completions wire format)', () => {
  let srv: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    srv = await serve((body) => {
      const r = OPENAI_REPLIES[lastUser(body)];
      if (r === 'error' || !r) return { status: 500, json: { error: { message: 'server exploded', type: 'server_error' } } };
      return {
        json: {
          id: 'chatcmpl-1', object: 'chat.completion', created: 1, model: body.model,
          choices: [{ index: 0, message: { role: 'assistant', ...r }, finish_reason: r.tool_calls ? 'tool_calls' : 'stop' }],
          usage: { prompt_tokens: 50, completion_tokens: 7, total_tokens: 57 },
        },
      };
    });
  });
  afterAll(() => srv.server.close());
  const engine = () => createIntentEngine('openai:test-model', { cwd: ROOT, env: { OPENAI_BASE_URL: `${srv.base}/v1`, OPENAI_API_KEY: 'sk-test' }, maxRetries: 0 });

  it('sends the catalogue as function tools plus the two pseudo-tools, the context and the history', async () => {
    const history = [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }];
    const r = await engine().decide(request('o1', 'file a ticket', { project: 'PAY', history }), { timeoutMs: 10_000 });
    expect(r.decision).toEqual({ behavior: 'call', calls: [{ capability: 'issue.create', params: { title: 'Login fails' } }], via: 'tool' });
    expect(r.usage).toEqual({ input_tokens: 50, output_tokens: 7 });
    const seen = srv.seen[srv.seen.length - 1]!;
    expect(seen.url).toBe('/v1/chat/completions');
    expect(seen.headers.authorization).toBe('Bearer sk-test');
    expect(seen.body).toMatchObject({ model: 'test-model', temperature: 0, tool_choice: 'auto' });
    const tools = seen.body.tools as { type: string; function: { name: string; description: string; parameters: unknown } }[];
    expect(tools.map((t) => [t.type, t.function.name])).toEqual([['function', 'issue_create'], ['function', 'access_grant'], ['function', 'ask_clarification'], ['function', 'refuse']]);
    expect(tools[0]!.function.description).toBe('Create an issue.\nOffered by: jira, github.\nAlso called: ticket.');
    expect(tools[1]!.function.description).toContain('Requires permission: admin.');
    expect(tools[0]!.function.parameters).toEqual(entries[0]!.parameters);
    const msgs = seen.body.messages as { role: string; content: string }[];
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(msgs[0]!.content).toContain('"project": "PAY"');
    expect(msgs[0]!.content).not.toContain('history');
  });

  it('sends the same messages and tools from the improvement loop as from whet intents (the runtime path)', async () => {
    const history = [{ role: 'user', content: 'we use PAY' }, { role: 'assistant', content: 'Noted.' }];
    const c: IntentCase = { id: 'o2', kind: 'multi_turn', utterance: 'file a ticket', context: { project: 'PAY', history }, expect: { behavior: 'call', capability: 'issue.create', params: {} }, line: 1 };
    await engine().decide(request(c.id, c.utterance, c.context), { timeoutMs: 10_000 });
    const harness = srv.seen[srv.seen.length - 1]!.body;
    const loopEngine = createEngine({ type: 'openai', model: 'test-model', base_url: `${srv.base}/v1`, api_key_env: 'T_KEY', max_retries: 0 }, { env: { T_KEY: 'sk-test' } });
    const r = await decideIntent({ engine: loopEngine, intentCase: c, intents: { cases: new Map([[c.id, c]]), catalog }, timeoutMs: 10_000 });
    expect(r.ok).toBe(true);
    const loop = srv.seen[srv.seen.length - 1]!.body;
    expect(loop.messages).toEqual(harness.messages);
    expect((loop.messages as { role: string }[]).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(loop.tools).toEqual(harness.tools);
    expect(loop.tool_choice).toBe(harness.tool_choice);
  });

  it('reads pseudo-tools, plain text, broken arguments and invented tools', async () => {
    const e = engine();
    const d = async (u: string) => (await e.decide(request('o', u), { timeoutMs: 10_000 })).decision;
    expect(await d('which one')).toEqual({ behavior: 'clarify', question: 'Which project?', via: 'tool' });
    expect(await d('make me admin')).toEqual({ behavior: 'refuse', reason: 'admins only', via: 'tool' });
    expect(await d('plain question')).toEqual({ behavior: 'clarify', question: 'Which tracker do you mean?', via: 'text' });
    expect(await d('plain no')).toEqual({ behavior: 'refuse', reason: 'I cannot do that.', via: 'text' });
    expect(await d('broken args')).toMatchObject({ behavior: 'call', calls: [{ capability: 'issue.create', paramsError: /not valid JSON/ }] });
    expect(await d('invented')).toMatchObject({ behavior: 'call', calls: [{ capability: 'issue_delete' }] });
  });

  it('an HTTP failure is an error for the case, without the key in it', async () => {
    const r = await engine().decide(request('o', 'boom'), { timeoutMs: 10_000 });
    expect(r.error?.kind).toBe('http');
    expect(r.error?.message).toMatch(/^HTTP 500: .*server exploded/);
    expect(r.error?.message).not.toContain('sk-test');
  });

  it('broken and invented calls are scored as hallucinations', async () => {
    const e = engine();
    const cases: IntentCase[] = ['broken args', 'invented'].map((u, i) => ({ id: `h${i}`, kind: 'direct', utterance: u, context: {}, expect: { behavior: 'call', capability: 'issue.create', params: {} }, line: i + 1 }));
    const runs = await Promise.all(cases.map(async (c) => ({ id: c.id, ...(await e.decide(request(c.id, c.utterance), { timeoutMs: 10_000 })) })));
    const { metrics } = scoreIntentRun(cases, runs, catalog);
    expect(metrics.overall.hallucination).toMatchObject({ n: 2, d: 2 });
    expect(metrics.overall.selection).toMatchObject({ n: 1, d: 2 });
  });
});

describe('anthropic engine (Messages wire format)', () => {
  let srv: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    srv = await serve((body) => {
      const u = lastUser(body);
      const content =
        u === 'file a ticket'
          ? [{ type: 'text', text: 'Creating it.' }, { type: 'tool_use', id: 'tu1', name: 'issue_create', input: { title: 'Login fails' } }, { type: 'tool_use', id: 'tu2', name: 'access_grant', input: {} }]
          : u === 'which one'
            ? [{ type: 'tool_use', id: 'tu3', name: 'ask_clarification', input: { question: 'Which project?' } }]
            : [{ type: 'text', text: 'No.' }];
      if (u === 'boom') return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: 'bad tools' } } };
      return { json: { id: 'msg_1', type: 'message', role: 'assistant', model: body.model, content, stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 40, output_tokens: 9 } } };
    });
  });
  afterAll(() => srv.server.close());
  const engine = () => createIntentEngine('anthropic:claude-test', { cwd: ROOT, env: { ANTHROPIC_BASE_URL: srv.base, ANTHROPIC_API_KEY: 'ak-test' }, maxRetries: 0 });

  it('sends tools with input_schema and the system prompt; reads tool_use blocks in order', async () => {
    const r = await engine().decide(request('a1', 'file a ticket', { project: 'PAY' }), { timeoutMs: 10_000 });
    expect(r.decision).toEqual({ behavior: 'call', calls: [{ capability: 'issue.create', params: { title: 'Login fails' } }, { capability: 'access.grant', params: {} }], via: 'tool' });
    expect(r.usage).toEqual({ input_tokens: 40, output_tokens: 9 });
    const seen = srv.seen[srv.seen.length - 1]!;
    expect(seen.url).toBe('/v1/messages');
    // This SDK version sends the key as a bearer token; older ones used x-api-key. Either carries it.
    expect(seen.headers['x-api-key'] ?? seen.headers.authorization?.replace(/^Bearer /, '')).toBe('ak-test');
    expect(seen.headers['anthropic-version']).toBeTruthy();
    expect(seen.body).toMatchObject({ model: 'claude-test', max_tokens: 1024, tool_choice: { type: 'auto' } });
    expect(seen.body.system).toContain('"project": "PAY"');
    const tools = seen.body.tools as { name: string; input_schema: unknown }[];
    expect(tools.map((t) => t.name)).toEqual(['issue_create', 'access_grant', 'ask_clarification', 'refuse']);
    expect(tools[0]!.input_schema).toEqual(entries[0]!.parameters);
    expect(seen.body.messages).toEqual([{ role: 'user', content: 'file a ticket' }]);
  });
  it('reads clarification, plain text, and HTTP errors', async () => {
    const e = engine();
    expect((await e.decide(request('a', 'which one'), { timeoutMs: 10_000 })).decision).toEqual({ behavior: 'clarify', question: 'Which project?', via: 'tool' });
    expect((await e.decide(request('a', 'other'), { timeoutMs: 10_000 })).decision).toEqual({ behavior: 'refuse', reason: 'No.', via: 'text' });
    const err = await e.decide(request('a', 'boom'), { timeoutMs: 10_000 });
    expect(err.error).toMatchObject({ kind: 'http', message: expect.stringMatching(/^HTTP 400: .*bad tools/) });
  });
  it('needs a key or a base URL', () => {
    expect(() => createIntentEngine('anthropic:m', { cwd: ROOT, env: {} })).toThrow(/set ANTHROPIC_API_KEY/);
  });
});

describe('the same scripted decisions through both wire formats', () => {
  // The seed-format fixture's script, served as model replies: the counts must equal the hand count
  // in intents-cli.test.ts, and the two engines must agree on every case.
  const SEED = join(ROOT, 'test/fixtures/intents/seed-format');
  type Scripted = { behavior?: string; capability?: string; params?: unknown; calls?: { capability: string; params: unknown }[]; question?: string; reason?: string; $exit?: number };
  let script: Record<string, Scripted>;
  let byUtterance: Map<string, string>;
  let openai: Awaited<ReturnType<typeof serve>>;
  let anthropic: Awaited<ReturnType<typeof serve>>;
  const toolCalls = (s: Scripted): { name: string; input: unknown }[] => {
    if (s.behavior === 'clarify') return [{ name: 'ask_clarification', input: { question: s.question } }];
    if (s.behavior === 'refuse') return [{ name: 'refuse', input: { reason: s.reason } }];
    const calls = s.calls ?? [{ capability: s.capability!, params: s.params }];
    return calls.map((c) => ({ name: c.capability.replace(/\./g, '_'), input: c.params }));
  };
  beforeAll(async () => {
    const { readFileSync } = await import('node:fs');
    script = JSON.parse(readFileSync(join(SEED, 'script.json'), 'utf8')) as Record<string, Scripted>;
    byUtterance = new Map(readFileSync(join(SEED, 'intent-cases.jsonl'), 'utf8').trim().split('\n').map((l) => {
      const c = JSON.parse(l) as { id: string; utterance: string };
      return [c.utterance, c.id];
    }));
    const find = (body: Record<string, unknown>) => script[byUtterance.get(lastUser(body)) ?? ''] ?? {};
    openai = await serve((body) => {
      const s = find(body);
      if (s.$exit !== undefined) return { status: 500, json: { error: { message: 'down' } } };
      const tool_calls = toolCalls(s).map((t, i) => ({ id: `c${i}`, type: 'function', function: { name: t.name, arguments: JSON.stringify(t.input) } }));
      return { json: { id: 'x', object: 'chat.completion', created: 1, model: 'm', choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls }, finish_reason: 'tool_calls' }] } };
    });
    anthropic = await serve((body) => {
      const s = find(body);
      if (s.$exit !== undefined) return { status: 529, json: { type: 'error', error: { type: 'overloaded_error', message: 'down' } } };
      const content = toolCalls(s).map((t, i) => ({ type: 'tool_use', id: `t${i}`, name: t.name, input: t.input }));
      return { json: { id: 'm', type: 'message', role: 'assistant', model: 'm', content, stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 } } };
    });
  });
  afterAll(() => {
    openai.server.close();
    anthropic.server.close();
  });

  it('gives the hand-counted figures on both engines, with no disagreement', async () => {
    const { runIntents } = await import('../../src/intents/run-intents.js');
    const out = tempDir('whet-intents-wire-');
    const env = { OPENAI_BASE_URL: `${openai.base}/v1`, OPENAI_API_KEY: 'k', ANTHROPIC_BASE_URL: anthropic.base, ANTHROPIC_API_KEY: 'k' };
    const result = await runIntents(
      { cases: join(SEED, 'intent-cases.jsonl'), catalog: join(SEED, 'catalog.yaml'), engine: 'openai:m', compare: 'anthropic:m', out, retries: 0 },
      { cwd: ROOT, env, now: () => new Date('2026-03-14T12:00:00Z'), warn: () => undefined },
    );
    for (const run of result.runs) {
      const o = run.metrics.overall;
      expect([o.selection, o.params, o.clarification, o.false_clarification, o.hallucination, o.overreach, o.refusal].map((f) => `${f.n}/${f.d}`)).toEqual(['6/7', '2/4', '1/3', '1/7', '3/9', '1/2', '1/2']);
      expect(o.errors).toBe(1);
    }
    expect(result.disagreements).toEqual([]);
    expect(result.exit_code).toBe(1);
  });
});
