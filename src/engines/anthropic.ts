// The `anthropic` engine: the Messages API, each call one JSON POST over whetstone's own transport
// (http-json.ts says why no SDK; the openai engine sends the same way).
//
//   POST {base_url}/v1/messages
//   x-api-key: <key>; authorization: Bearer <key>; anthropic-version: 2023-06-01; content-type: application/json
//   {"model", "max_tokens" (required by the API; default 4096), "system"?: <judge system> + SKILL.md,
//    "messages": [{"role":"user","content": prompt}], "temperature"?,
//    "tools"?: [{name, description, input_schema}], "tool_choice"?: {"type":"auto"|"any"|"none"|"tool", name?}}
//
// Answer: the `text` blocks of `content`, joined; `tool_use` blocks ({id, name, input}) become
// EngineResult.tool_calls; usage.input_tokens = input_tokens + cache_creation_input_tokens +
// cache_read_input_tokens (the whole prompt the model read), output_tokens as is; cost from `price`
// (cached tokens priced as input — an upper bound). Errors: {"type":"error","error":{"type","message"}}
// with a non-2xx status (Anthropic API reference, "Errors"; 529 overloaded_error); retry-after and the
// anthropic-ratelimit-*-reset headers are honoured (retry.ts).
//
// Only the config says where requests go and as whom: the key comes from the variable the config names,
// and neither ANTHROPIC_AUTH_TOKEN nor ANTHROPIC_BASE_URL is consulted.
import type { AnthropicEngineConfig } from '../config/engine-schema.js';
import { SKILL_SEPARATOR } from './command.js';
import { jsonEndpoint } from './http-json.js';
import {
  composeSystem,
  glimpse,
  httpRuntime,
  isRecord,
  num,
  type HttpEngineOptions,
  type ResponseReading,
} from './http-common.js';
import type { Engine, EngineRequest, EngineResult, ToolCall, ToolChoice, Usage } from './types.js';

/** The API version every request names (the Messages API's only stable one). */
export const ANTHROPIC_VERSION = '2023-06-01';
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

/** A Messages API request body, as far as whetstone fills it. */
export interface MessageBody {
  model: string;
  max_tokens: number;
  messages: { role: 'user' | 'assistant'; content: string }[];
  system?: string;
  /** Still accepted by the API and by compatible servers (deprecated for the newest models). */
  temperature?: number;
  tools?: { name: string; description?: string; input_schema: { type: 'object'; [key: string]: unknown } }[];
  tool_choice?: { type: 'auto' } | { type: 'none' } | { type: 'any' } | { type: 'tool'; name: string };
}

function toolChoice(choice: ToolChoice): NonNullable<MessageBody['tool_choice']> {
  if (choice === 'auto') return { type: 'auto' };
  if (choice === 'none') return { type: 'none' };
  if (choice === 'required') return { type: 'any' };
  return { type: 'tool', name: choice.name };
}

/** The request body for one call; pure, so tests can see exactly what is sent. */
export function anthropicRequestBody(cfg: AnthropicEngineConfig, request: EngineRequest): MessageBody {
  const body: MessageBody = {
    model: cfg.model,
    max_tokens: request.maxTokens ?? cfg.max_tokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    messages: [...(request.history ?? []).map((t) => ({ role: t.role, content: t.content })), { role: 'user', content: request.prompt }],
  };
  const system = composeSystem(request);
  if (system !== undefined) body.system = system;
  const temperature = request.temperature ?? cfg.temperature;
  if (temperature !== undefined) body.temperature = temperature;
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      input_schema: { type: 'object' as const, ...t.input_schema },
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  return body;
}

/** Reads a Messages API response body. Pure; unit-tested. */
export function readMessage(value: unknown): ResponseReading {
  if (!isRecord(value)) return { ok: false, message: `response is not a JSON object: "${glimpse(value)}"` };
  const content = value['content'];
  if (!Array.isArray(content)) return { ok: false, message: `response has no content array: "${glimpse(value)}"` };
  let output = '';
  const tool_calls: ToolCall[] = [];
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block['type'] === 'text' && typeof block['text'] === 'string') output += block['text'];
    if (block['type'] === 'tool_use' && typeof block['name'] === 'string') {
      const tc: ToolCall = { name: block['name'], input: block['input'] };
      if (typeof block['id'] === 'string') tc.id = block['id'];
      tool_calls.push(tc);
    }
  }
  const usage: Usage = {};
  const u = isRecord(value['usage']) ? value['usage'] : undefined;
  if (u) {
    const parts = [num(u['input_tokens']), num(u['cache_creation_input_tokens']), num(u['cache_read_input_tokens'])];
    if (parts.some((p) => p !== undefined)) usage.input_tokens = parts.reduce<number>((a, b) => a + (b ?? 0), 0);
    const out = num(u['output_tokens']);
    if (out !== undefined) usage.output_tokens = out;
  }
  return { ok: true, output, tool_calls, usage };
}

export function createAnthropicEngine(cfg: AnthropicEngineConfig, opts: HttpEngineOptions = {}): Engine {
  const rt = httpRuntime(cfg, 'ANTHROPIC_API_KEY', opts);
  const baseURL = cfg.base_url ?? ANTHROPIC_DEFAULT_BASE_URL;
  // The key as the API reference's header, and in the bearer form @anthropic-ai/sdk 1.x sends it in
  // (client.js apiKeyAuth): compatible servers and proxies accept one or the other.
  const auth = { 'x-api-key': rt.key, authorization: `Bearer ${rt.key}`, 'anthropic-version': ANTHROPIC_VERSION };
  const endpoint = jsonEndpoint('anthropic', baseURL, '/v1/messages', auth, rt, cfg.price, opts);
  const identity = {
    type: 'anthropic',
    base_url: baseURL,
    model: cfg.model,
    temperature: cfg.temperature ?? null,
    max_tokens: cfg.max_tokens ?? ANTHROPIC_DEFAULT_MAX_TOKENS,
    skill_delivery: 'system',
    skill_separator: SKILL_SEPARATOR,
  };
  return {
    type: 'anthropic',
    concurrency: rt.concurrency,
    identity: () => structuredClone(identity),
    prepare: endpoint.prepare,
    run: (request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> => endpoint.call(anthropicRequestBody(cfg, request), readMessage, request, runOpts?.signal),
  };
}
