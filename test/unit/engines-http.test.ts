// Pure parts of the openai and anthropic engines: request bodies, response readers, error bodies, system
// text, cost, redaction, config parsing, identity and the factory.
import { describe, expect, it } from 'vitest';

import { engineConfig, type AnthropicEngineConfig, type OpenAIEngineConfig } from '../../src/config/engine-schema.js';
import { anthropicRequestBody, readMessage } from '../../src/engines/anthropic.js';
import { providerDetails } from '../../src/engines/http-call.js';
import { classifyPostError, HttpStatusError, UnreadableBodyError } from '../../src/engines/http-json.js';
import { ApiHeaders } from '../../src/engines/http-response.js';
import { composeSystem, costOf, redact } from '../../src/engines/http-common.js';
import { countCalls, createEngine } from '../../src/engines/index.js';
import { openaiRequestBody, readChatCompletion } from '../../src/engines/openai.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { ConfigError } from '../../src/core/errors.js';

const skill = { name: 's', text: '# Skill\nDo X.\n' };
const req = (over: Partial<EngineRequest> = {}): EngineRequest => ({ kind: 'task', prompt: 'P', skill, timeoutMs: 1000, ...over });
const oa: OpenAIEngineConfig = { type: 'openai', model: 'gpt-x' };
const an: AnthropicEngineConfig = { type: 'anthropic', model: 'claude-x' };
const KEY = 'sk-unit-3b7d9f1a2c4e6081';

describe('system text and request bodies', () => {
  it('composes judge system text, then the skill, with the skill separator', () => {
    expect(composeSystem(req())).toBe(skill.text);
    expect(composeSystem(req({ system: 'Grade.' }))).toBe(`Grade.\n\n---\n\n${skill.text}`);
    const { skill: _none, ...bare } = req();
    expect(composeSystem(bare)).toBeUndefined();
    expect(composeSystem({ ...bare, skill: { name: 'e', text: '' } })).toBeUndefined();
  });

  it('openai: tool choice maps to strings or a named function; tools only when given', () => {
    const tools = [{ name: 't', input_schema: { type: 'object' } }];
    expect(openaiRequestBody(oa, req({ tools, toolChoice: 'required' })).tool_choice).toBe('required');
    expect(openaiRequestBody(oa, req({ tools, toolChoice: 'none' })).tool_choice).toBe('none');
    expect(openaiRequestBody(oa, req({ tools })).tool_choice).toBeUndefined();
    expect(openaiRequestBody(oa, req({ tools: [] })).tools).toBeUndefined();
    expect(openaiRequestBody(oa, req()).temperature).toBeUndefined();
  });

  it('anthropic: max_tokens always present, tool_choice mapped, input_schema typed as object', () => {
    expect(anthropicRequestBody(an, req()).max_tokens).toBe(4096);
    expect(anthropicRequestBody({ ...an, max_tokens: 99 }, req({ maxTokens: 7 })).max_tokens).toBe(7);
    const tools = [{ name: 't', description: 'd', input_schema: { properties: { a: { type: 'string' } } } }];
    const body = anthropicRequestBody(an, req({ tools, toolChoice: { name: 't' } }));
    expect(body.tools).toEqual([{ name: 't', description: 'd', input_schema: { type: 'object', properties: { a: { type: 'string' } } } }]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 't' });
    expect(anthropicRequestBody(an, req({ tools, toolChoice: 'none' })).tool_choice).toEqual({ type: 'none' });
    expect(anthropicRequestBody(an, req({ tools, toolChoice: 'auto' })).tool_choice).toEqual({ type: 'auto' });
  });
});

describe('earlier turns', () => {
  it('go between the system text and the prompt as real turns, in both wire formats', () => {
    const history = [{ role: 'user' as const, content: 'we use PAY' }, { role: 'assistant' as const, content: 'Noted.' }];
    expect(openaiRequestBody(oa, req({ history })).messages).toEqual([
      { role: 'system', content: skill.text },
      { role: 'user', content: 'we use PAY' },
      { role: 'assistant', content: 'Noted.' },
      { role: 'user', content: 'P' },
    ]);
    expect(anthropicRequestBody(an, req({ history })).messages).toEqual([...history, { role: 'user', content: 'P' }]);
    expect(anthropicRequestBody(an, req()).messages).toEqual([{ role: 'user', content: 'P' }]);
  });
});

describe('response readers', () => {
  it('openai: content parts, missing usage, and unreadable bodies', () => {
    expect(readChatCompletion({ choices: [{ message: { content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] } }] })).toEqual({ ok: true, output: 'ab', tool_calls: [], usage: {} });
    expect(readChatCompletion({ choices: [{ message: { content: null } }], usage: { prompt_tokens: 3, completion_tokens: 0 } })).toEqual({
      ok: true,
      output: '',
      tool_calls: [],
      usage: { input_tokens: 3, output_tokens: 0 },
    });
    expect(readChatCompletion('<html>').ok).toBe(false);
    expect(readChatCompletion({ choices: [] }).ok).toBe(false);
  });

  it('anthropic: text blocks joined, thinking ignored, cache tokens counted as input', () => {
    const r = readMessage({
      content: [{ type: 'thinking', thinking: 'hmm' }, { type: 'text', text: 'A' }, { type: 'tool_use', id: 'toolu_1', name: 'x', input: { a: 1 } }, { type: 'text', text: 'B' }],
      usage: { input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 9 },
    });
    expect(r).toEqual({ ok: true, output: 'AB', tool_calls: [{ id: 'toolu_1', name: 'x', input: { a: 1 } }], usage: { input_tokens: 105, output_tokens: 9 } });
    expect(readMessage({ type: 'message' }).ok).toBe(false);
    expect(readMessage(null).ok).toBe(false);
  });
});

describe('error bodies and SDK errors', () => {
  it('reads both providers\' error shapes', () => {
    expect(providerDetails({ message: 'Incorrect API key', type: 'invalid_request_error', param: null, code: 'invalid_api_key' })).toEqual({
      message: 'Incorrect API key',
      type: 'invalid_request_error',
      code: 'invalid_api_key',
    });
    expect(providerDetails({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_1' })).toEqual({ message: 'Overloaded', type: 'overloaded_error' });
    expect(providerDetails({ type: 'error', error: { type: 'rate_limit_error', message: 'm', details: { error_code: 'enforced_spend_limit_reached' } } })).toMatchObject({
      code: 'enforced_spend_limit_reached',
    });
    expect(providerDetails('Bad Gateway')).toEqual({});
  });

  it('classifies postJson failures: provider details, a bare status, a body, a socket error', () => {
    const headers = new ApiHeaders(['retry-after', '2']);
    const e429 = new HttpStatusError(429, JSON.stringify({ error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } }), headers);
    const f = classifyPostError(e429);
    expect(f).toMatchObject({ kind: 'http', status: 429, message: 'slow down', providerType: 'requests', providerCode: 'rate_limit_exceeded' });
    expect(f.headers?.get('retry-after')).toBe('2');
    expect(classifyPostError(new HttpStatusError(500, '{"detail":"boom"}', headers))).toMatchObject({ kind: 'http', status: 500, message: '{"detail":"boom"}' });
    expect(classifyPostError(new HttpStatusError(400, 'x'.repeat(2000), headers)).message.length).toBeLessThan(400);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    expect(classifyPostError(refused)).toEqual({ kind: 'connection', message: 'connection error: connect ECONNREFUSED 127.0.0.1:9' });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(classifyPostError(reset).message).toBe('connection error: socket hang up (ECONNRESET)');
    expect(classifyPostError(new TypeError('fetch failed', { cause: reset })).message).toBe('connection error: fetch failed: socket hang up (ECONNRESET)');
    expect(classifyPostError(new UnreadableBodyError('Unexpected token')).kind).toBe('parse');
    expect(classifyPostError(new DOMException('This operation was aborted', 'AbortError')).kind).toBe('aborted');
  });
});

describe('cost and redaction', () => {
  it('prices input and output tokens per million', () => {
    expect(costOf({ input_tokens: 2_000_000, output_tokens: 100_000 }, { input_per_mtok: 3, output_per_mtok: 15 })).toBe(7.5);
    expect(costOf({ input_tokens: 10 }, undefined)).toBeUndefined();
    expect(costOf({}, { input_per_mtok: 3, output_per_mtok: 15 })).toBeUndefined();
  });

  it('removes every occurrence of a key, also URL-encoded', () => {
    const key = 'sk-a+b/c=d';
    expect(redact(`Bearer ${key}; again ${key}; url ${encodeURIComponent(key)}`, [key])).toBe('Bearer [REDACTED]; again [REDACTED]; url [REDACTED]');
    expect(redact('abc', ['ab'])).toBe('abc');
  });
});

describe('config, identity and the factory', () => {
  it('parses the YAML fields of each engine type and rejects unknown or bad ones', () => {
    expect(engineConfig.parse({ type: 'openai', model: 'm', base_url: 'http://localhost:11434/v1', api_key_env: 'OLLAMA_KEY', temperature: 0, max_tokens: 512, price: { input_per_mtok: 0.15, output_per_mtok: 0.6 }, max_retries: 3, retry_max_wait_seconds: 30, max_concurrency: 4 }).type).toBe('openai');
    expect(engineConfig.parse({ type: 'anthropic', model: 'm', max_tokens: 1024 }).type).toBe('anthropic');
    expect(engineConfig.parse({ type: 'codex', model: 'gpt-5-codex', sandbox: 'read-only', skill_delivery: 'agents_md' }).type).toBe('codex');
    expect(engineConfig.parse({ type: 'claude', mode: 'installed', permission_mode: 'acceptEdits', allowed_tools: ['Read'] }).type).toBe('claude');
    expect(engineConfig.parse({ type: 'openai', model: 'gpt-4o', base_url: 'https://r.openai.azure.com/openai/v1' }).type).toBe('openai');
    for (const bad of [
      { type: 'openai' },
      { type: 'openai', model: 'm', api_key: 'sk-inline' },
      { type: 'openai', model: 'm', base_url: 'ftp://x' },
      // Azure's classic form: the SDK would append /chat/completions after the query string.
      { type: 'openai', model: 'm', base_url: 'https://r.openai.azure.com/openai/deployments/gpt4o?api-version=2024-06-01' },
      { type: 'openai', model: 'm', api_key_env: 'not a name' },
      { type: 'anthropic', model: 'm', price: { input_per_mtok: 1 } },
      { type: 'claude', mode: 'symlinked' },
      { type: 'codex', sandbox: 'none' },
    ]) {
      expect(engineConfig.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('identity holds what changes answers — never the key, the key variable, price or retry settings', () => {
    const env = { K: KEY };
    const id = (over: Partial<OpenAIEngineConfig>) => createEngine({ ...oa, api_key_env: 'K', ...over }, { env }).identity();
    expect(id({})).toEqual({
      type: 'openai',
      base_url: 'https://api.openai.com/v1',
      model: 'gpt-x',
      temperature: null,
      max_tokens: null,
      max_tokens_param: 'max_tokens',
      skill_delivery: 'system',
      skill_separator: '\n\n---\n\n',
    });
    const seen = new Set([{}, { model: 'y' }, { base_url: 'http://127.0.0.1:1/v1' }, { temperature: 0 }, { max_tokens: 5 }, { max_tokens_param: 'max_completion_tokens' as const }].map((o) => JSON.stringify(id(o))));
    expect(seen.size).toBe(6);
    const same = [{ price: { input_per_mtok: 1, output_per_mtok: 2 } }, { max_retries: 0 }, { max_concurrency: 2 }, { timeout_seconds: 5 }].map((o) => JSON.stringify(id(o)));
    expect(new Set([...same, JSON.stringify(id({}))]).size).toBe(1);
    const anth = createEngine({ ...an, api_key_env: 'K' }, { env }).identity();
    expect(anth).toEqual({ type: 'anthropic', base_url: 'https://api.anthropic.com', model: 'claude-x', temperature: null, max_tokens: 4096, skill_delivery: 'system', skill_separator: '\n\n---\n\n' });
    expect(JSON.stringify([id({}), anth])).not.toMatch(/sk-unit|"K"/);
  });

  it('a missing key is a ConfigError naming the variable, thrown when the engine is built', () => {
    const build = () => createEngine({ ...oa, api_key_env: 'WHET_NO_SUCH_KEY' }, { env: {} });
    expect(build).toThrow(ConfigError);
    expect(build).toThrow(/WHET_NO_SUCH_KEY/);
    expect(() => createEngine(an, { env: { ANTHROPIC_API_KEY: '  ' } })).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => createEngine(oa, { env: { OPENAI_API_KEY: KEY } })).not.toThrow();
  });

  it('exposes the adaptive controller, also through countCalls', () => {
    const engine = createEngine({ ...oa, max_concurrency: 3 }, { env: { OPENAI_API_KEY: KEY } });
    expect(engine.concurrency?.max).toBe(3);
    expect(countCalls(engine).concurrency).toBe(engine.concurrency);
    expect(createEngine({ type: 'mock' }).concurrency).toBeUndefined();
  });
});
