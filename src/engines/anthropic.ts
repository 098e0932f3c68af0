// The `anthropic` engine: the Messages API through the official `@anthropic-ai/sdk` with `baseURL`.
//
//   POST {base_url}/v1/messages
//   {"model", "max_tokens" (required by the API; default 4096), "system"?: <judge system> + SKILL.md,
//    "messages": [{"role":"user","content": prompt}], "temperature"?,
//    "tools"?: [{name, description, input_schema}], "tool_choice"?: {"type":"auto"|"any"|"none"|"tool", name?}}
//
// Answer: the `text` blocks of `content`, joined; `tool_use` blocks ({id, name, input}) become
// EngineResult.tool_calls; usage.input_tokens = input_tokens + cache_creation_input_tokens +
// cache_read_input_tokens (the whole prompt the model read), output_tokens as is; cost from `price`
// (cached tokens priced as input — an upper bound).
//
// The key is passed explicitly, so the SDK reads neither ANTHROPIC_API_KEY nor ANTHROPIC_AUTH_TOKEN
// (a bearer token found in the environment would otherwise be sent along); the base URL is pinned
// (ANTHROPIC_BASE_URL is not consulted); logging and OpenTelemetry spans are off. SDK retries are off.
import type Anthropic from '@anthropic-ai/sdk';
import type { AnthropicEngineConfig } from '../config/engine-schema.js';
import { SKILL_SEPARATOR } from './command.js';
import { apiFetch, warmFetch } from './http-fetch.js';
import { callWithRetries, classifySdkError } from './http-call.js';
import {
  composeSystem,
  finishHttpCall,
  glimpse,
  httpRuntime,
  isRecord,
  num,
  redact,
  type HttpEngineOptions,
  type ResponseReading,
} from './http-common.js';
import type { Engine, EngineRequest, EngineResult, ToolCall, ToolChoice, Usage } from './types.js';

// The SDK costs ~140 ms to import; load it on the first call so every other command starts fast.
let sdk: Promise<typeof import('@anthropic-ai/sdk')> | undefined;
const loadSdk = () => (sdk ??= import('@anthropic-ai/sdk'));

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_DEFAULT_MAX_TOKENS = 4096;

// `temperature` is still accepted by the API and by compatible servers, but SDK 1.x dropped it from its
// types (deprecated for the newest models); it is sent as a plain body field when the config sets it.
type MessageBody = Anthropic.Messages.MessageCreateParamsNonStreaming & { temperature?: number };

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
  let client: Promise<{ client: Anthropic; errors: Parameters<typeof classifySdkError>[1] }> | undefined;
  const getClient = () =>
    (client ??= loadSdk().then((m) => ({
      client: new m.default({ apiKey: rt.key, baseURL, maxRetries: 0, logLevel: 'off', openTelemetry: false, fetch: apiFetch }),
      errors: { APIError: m.APIError, APIConnectionError: m.APIConnectionError, APIConnectionTimeoutError: m.APIConnectionTimeoutError, APIUserAbortError: m.APIUserAbortError },
    })));
  // The SDK starts loading now, while the suite is read and the run set up, instead of inside the first
  // call's timing (~0.1 s of a 0.8 s task phase at 1,000 tasks × 50 ms / 64); prepare(), awaited before the
  // task phase, finishes it when the suite was read faster. A failure surfaces on the first call.
  loadSdk().catch(() => undefined);
  const secrets = [rt.key];
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
    prepare: () => getClient().then(warmFetch, () => undefined),
    async run(request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> {
      const started = performance.now();
      const body = anthropicRequestBody(cfg, request);
      const { client: c, errors } = await getClient();
      const outcome = await callWithRetries({
        engine: 'anthropic',
        send: (signal) => c.messages.create(body, { signal, maxRetries: 0, timeout: request.timeoutMs + 5000 }),
        classify: (err) => classifySdkError(err, errors),
        policy: rt.policy,
        timeoutMs: request.timeoutMs,
        concurrency: rt.concurrency,
        secrets,
        ...(runOpts?.signal ? { signal: runOpts.signal } : {}),
        ...(opts.sleep ? { sleep: opts.sleep } : {}),
        ...(opts.random ? { random: opts.random } : {}),
        ...(opts.now ? { now: opts.now } : {}),
      });
      return finishHttpCall('anthropic', outcome, readMessage, cfg.price, started, (s) => redact(s, secrets));
    },
  };
}
