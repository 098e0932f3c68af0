// The `openai` engine: any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama, vLLM, LM Studio,
// OpenRouter, …), the request sent as JSON over whetstone's own transport (http-json.ts says why no SDK).
//
//   POST {base_url}/chat/completions
//   Authorization: Bearer <key>; Content-Type: application/json
//   {"model", "messages": [{"role":"system","content": <judge system> + SKILL.md}, {"role":"user","content": prompt}],
//    "temperature"?, "max_tokens" | "max_completion_tokens"?, "tools"?: [{"type":"function","function":{name,description,parameters}}],
//    "tool_choice"?}
//
// Answer: choices[0].message.content; native tool calls (choices[0].message.tool_calls[].function
// {name, arguments: JSON text}) become EngineResult.tool_calls with `arguments` parsed (kept as the raw
// string when it is not JSON); usage from usage.prompt_tokens / completion_tokens; cost from `price`.
// Errors: {"error": {"message", "type", "param", "code"}} with a non-2xx status (OpenAI API reference,
// "Error codes"); retry-after / retry-after-ms headers are honoured (retry.ts).
//
// Only the config says where requests go and as whom: nothing is read from OPENAI_BASE_URL,
// OPENAI_ORG_ID or OPENAI_PROJECT_ID, and the key only from the variable the config names.
import type { OpenAIEngineConfig } from '../config/engine-schema.js';
import { isOpenAIItself, isOpenAIReasoningModel } from '../config/engine-warnings.js';
import {
  composeSystem,
  glimpse,
  httpRuntime,
  isRecord,
  num,
  type HttpEngineOptions,
  type ResponseReading,
} from './http-common.js';
import { SKILL_SEPARATOR } from './command.js';
import { jsonEndpoint } from './http-json.js';
import type { Engine, EngineRequest, EngineResult, ToolCall, ToolChoice, Usage } from './types.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** A Chat Completions request body, as far as whetstone fills it. */
export interface ChatBody {
  model: string;
  messages: { role: 'system' | 'user' | 'assistant'; content: string }[];
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  tools?: { type: 'function'; function: { name: string; description?: string; parameters: Record<string, unknown> } }[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
}

function toolChoice(choice: ToolChoice): ChatBody['tool_choice'] {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

/**
 * The output-cap parameter: the config's, else `max_completion_tokens` for OpenAI's own reasoning models
 * (o1, o3, o4-mini, gpt-5…: they answer 400 "Unsupported parameter: 'max_tokens' … Use
 * 'max_completion_tokens' instead"), else `max_tokens`, which OpenAI-compatible servers understand.
 */
export function maxTokensParam(cfg: OpenAIEngineConfig): 'max_tokens' | 'max_completion_tokens' {
  if (cfg.max_tokens_param) return cfg.max_tokens_param;
  return isOpenAIItself(cfg.base_url) && isOpenAIReasoningModel(cfg.model) ? 'max_completion_tokens' : 'max_tokens';
}

/** The request body for one call; pure, so tests can see exactly what is sent. */
export function openaiRequestBody(cfg: OpenAIEngineConfig, request: EngineRequest): ChatBody {
  const messages: ChatBody['messages'] = [];
  const system = composeSystem(request);
  if (system !== undefined) messages.push({ role: 'system', content: system });
  for (const t of request.history ?? []) messages.push({ role: t.role, content: t.content });
  messages.push({ role: 'user', content: request.prompt });
  const body: ChatBody = { model: cfg.model, messages };
  const temperature = request.temperature ?? cfg.temperature;
  if (temperature !== undefined) body.temperature = temperature;
  const maxTokens = request.maxTokens ?? cfg.max_tokens;
  if (maxTokens !== undefined) body[maxTokensParam(cfg)] = maxTokens;
  if (request.tools?.length) {
    body.tools = request.tools.map((t) => ({
      type: 'function' as const,
      function: { name: t.name, ...(t.description !== undefined ? { description: t.description } : {}), parameters: t.input_schema },
    }));
    if (request.toolChoice !== undefined) body.tool_choice = toolChoice(request.toolChoice);
  }
  return body;
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** Reads a Chat Completions response body. Pure; unit-tested. */
export function readChatCompletion(value: unknown): ResponseReading {
  if (!isRecord(value)) return { ok: false, message: `response is not a JSON object: "${glimpse(value)}"` };
  const choices = value['choices'];
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  const message = isRecord(first) ? first['message'] : undefined;
  if (!isRecord(message)) return { ok: false, message: `response has no choices[0].message: "${glimpse(value)}"` };
  const content = message['content'];
  let output = '';
  if (typeof content === 'string') output = content;
  else if (Array.isArray(content)) {
    output = content.map((p) => (isRecord(p) && typeof p['text'] === 'string' ? p['text'] : '')).join('');
  }
  const tool_calls: ToolCall[] = [];
  for (const call of Array.isArray(message['tool_calls']) ? message['tool_calls'] : []) {
    if (!isRecord(call) || !isRecord(call['function']) || typeof call['function']['name'] !== 'string') continue;
    const tc: ToolCall = { name: call['function']['name'], input: parseArguments(call['function']['arguments']) };
    if (typeof call['id'] === 'string') tc.id = call['id'];
    tool_calls.push(tc);
  }
  const usage: Usage = {};
  if (isRecord(value['usage'])) {
    const input = num(value['usage']['prompt_tokens']);
    const output = num(value['usage']['completion_tokens']);
    if (input !== undefined) usage.input_tokens = input;
    if (output !== undefined) usage.output_tokens = output;
  }
  return { ok: true, output, tool_calls, usage };
}

export function createOpenAIEngine(cfg: OpenAIEngineConfig, opts: HttpEngineOptions = {}): Engine {
  const rt = httpRuntime(cfg, 'OPENAI_API_KEY', opts);
  const baseURL = cfg.base_url ?? OPENAI_DEFAULT_BASE_URL;
  const endpoint = jsonEndpoint('openai', baseURL, '/chat/completions', { authorization: `Bearer ${rt.key}` }, rt, cfg.price, opts);
  // Decided once: it parses the base URL, and every call's answer is checked against it.
  const tokenParam = maxTokensParam(cfg);
  const identity = {
    type: 'openai',
    base_url: baseURL,
    model: cfg.model,
    temperature: cfg.temperature ?? null,
    max_tokens: cfg.max_tokens ?? null,
    max_tokens_param: tokenParam,
    skill_delivery: 'system',
    skill_separator: SKILL_SEPARATOR,
  };
  return {
    type: 'openai',
    concurrency: rt.concurrency,
    identity: () => structuredClone(identity),
    prepare: endpoint.prepare,
    async run(request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> {
      return withTokenParamHint(await endpoint.call(openaiRequestBody(cfg, request), readChatCompletion, request, runOpts?.signal), tokenParam);
    },
  };
}

/** A 400 about the output-cap parameter says which setting fixes it (the server's text alone does not). */
function withTokenParamHint(res: EngineResult, sent: 'max_tokens' | 'max_completion_tokens'): EngineResult {
  if (res.ok || res.error?.status !== 400 || !/max_completion_tokens|max_tokens/.test(res.error.message)) return res;
  const other = sent === 'max_tokens' ? 'max_completion_tokens' : 'max_tokens';
  return { ...res, error: { ...res.error, message: `${res.error.message} (whetstone sent ${sent}; set max_tokens_param: ${other} in the engine config)` } };
}
