// The `openai:MODEL` and `anthropic:MODEL` intent engines of `whet intents`: thin adapters over the HTTP
// engines createEngine builds (src/engines/openai.ts, anthropic.ts), so intent evals get the same wire format,
// retry policy (429/5xx with retry-after and rate-limit reset headers, no retry on exhausted quota),
// adaptive concurrency and redaction as every other engine call, and no second SDK client exists.
//
// Endpoint and key come from `<PREFIX>_BASE_URL` and `<PREFIX>_API_KEY` (OPENAI_*, ANTHROPIC_*). A local
// server (a base URL given) may need no key; the engines refuse an empty one, so it gets a placeholder.
// The key reaches the engine through a private environment holding only that variable and the proxy
// variables (src/engines/http-proxy-env.ts), so nothing else from the caller's environment can change where requests
// go or what they carry; a proxy changes only the way there.
//
// The request is model-tools' toolRequest (the catalogue as tools plus the two pseudo-tools), the same
// one the improvement loop sends (src/evaluation/intent-decide.ts); the reply is read by readToolReply.
// OpenAI gets temperature 0 so reruns repeat; Anthropic gets max_tokens 1024 and no temperature, as
// before the move (identity() is unchanged, so earlier reports stay comparable).
import { engineConfig, type EngineConfig } from '../config/engine-schema.js';
import { UsageError } from '../core/errors.js';
import { redactDeep, redactText } from '../core/redact.js';
import { readToolReply, toolRequest } from './model-tools.js';
import type { CaseRun, IntentEngine, IntentErrorKind } from '../config/intent-types.js';
import { ANTHROPIC_DEFAULT_BASE_URL } from '../engines/anthropic.js';
import { PROXY_VARIABLES } from '../engines/http-proxy-env.js';
import { createEngine } from '../engines/index.js';
import { OPENAI_DEFAULT_BASE_URL } from '../engines/openai.js';
import type { EngineError, EngineResult } from '../engines/types.js';

export interface IntentAdapterOptions {
  env: NodeJS.ProcessEnv;
  /** Retries after the first request (`--retries`, default 2). */
  maxRetries?: number;
  /** Cases decided at once (`--concurrency`): the ceiling of the adaptive limit, so it never queues below it. */
  concurrency?: number;
}

export const INTENT_DEFAULT_RETRIES = 2;
export const INTENT_ANTHROPIC_MAX_TOKENS = 1024;

/** `<PREFIX>_BASE_URL` and `<PREFIX>_API_KEY`; a keyless local server gets a placeholder key. */
export function endpointFromEnv(spec: string, env: NodeJS.ProcessEnv, prefix: 'OPENAI' | 'ANTHROPIC'): { baseURL: string | undefined; apiKey: string } {
  const baseURL = env[`${prefix}_BASE_URL`] || undefined;
  const apiKey = env[`${prefix}_API_KEY`] || (baseURL ? 'not-needed' : undefined);
  if (!apiKey) throw new UsageError(`--engine ${spec}: set ${prefix}_API_KEY (or ${prefix}_BASE_URL for a local server that needs no key)`);
  return { baseURL, apiKey };
}

/**
 * An engine error as a case error. The family's message is `<engine>: HTTP 429 rate_limit_error: text
 * (why)`; reports have always shown `HTTP 429: …` first, so the status leads and the provider's type
 * follows. Kinds map one to one; `exit`/`spawn`/`rate_limited` cannot come from an HTTP engine.
 */
export function intentError(err: EngineError | undefined, engine: string): { kind: IntentErrorKind; message: string } {
  if (!err) return { kind: 'internal', message: `${engine}: the engine failed without saying why` };
  const kind: IntentErrorKind = err.kind === 'rate_limited' ? 'http' : err.kind;
  let text = err.message.startsWith(`${engine}: `) ? err.message.slice(engine.length + 2) : err.message;
  const http = /^HTTP (\d{3})(?: ([^:]+))?: ([\s\S]*)$/.exec(text);
  if (http) text = `HTTP ${http[1]}: ${http[2] ? `${http[2]}: ` : ''}${http[3]}`;
  else if (err.status !== undefined) text = `HTTP ${err.status}: ${text}`;
  return { kind, message: text.replace(/\s+/g, ' ').slice(0, 300) };
}

export function createModelIntentEngine(spec: string, type: 'openai' | 'anthropic', model: string, opts: IntentAdapterOptions): IntentEngine {
  const prefix = type === 'openai' ? 'OPENAI' : 'ANTHROPIC';
  const { baseURL, apiKey } = endpointFromEnv(spec, opts.env, prefix);
  const keyVar = `${prefix}_API_KEY`;
  const raw = {
    type,
    model,
    api_key_env: keyVar,
    max_retries: opts.maxRetries ?? INTENT_DEFAULT_RETRIES,
    ...(baseURL !== undefined ? { base_url: baseURL } : {}),
    ...(opts.concurrency !== undefined ? { max_concurrency: opts.concurrency } : {}),
    ...(type === 'openai' ? { temperature: 0 } : { max_tokens: INTENT_ANTHROPIC_MAX_TOKENS }),
  };
  // Checked like a pipeline.yaml engine, so a malformed base URL is one usage error before any case runs.
  const parsed = engineConfig.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0] === 'base_url' ? `${prefix}_BASE_URL` : String(issue?.path.join('.') ?? 'engine');
    throw new UsageError(`--engine ${spec}: ${field}: ${redactText(issue?.message ?? 'invalid')}`);
  }
  const cfg: EngineConfig = parsed.data;
  const proxyEnv = Object.fromEntries(PROXY_VARIABLES.filter((k) => opts.env[k] !== undefined).map((k) => [k, opts.env[k]]));
  const engine = createEngine(cfg, { env: { ...proxyEnv, [keyVar]: apiKey } });
  const base = baseURL ?? (type === 'openai' ? OPENAI_DEFAULT_BASE_URL : ANTHROPIC_DEFAULT_BASE_URL);
  const identity = redactDeep(
    type === 'openai' ? { type, model, base_url: base, temperature: 0 } : { type, model, base_url: base, max_tokens: INTENT_ANTHROPIC_MAX_TOKENS },
  );
  return {
    spec,
    label: redactText(`${type} ${model}${baseURL ? ` at ${baseURL}` : ''}`),
    identity: () => structuredClone(identity),
    async decide(request, o): Promise<Omit<CaseRun, 'id'>> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const { request: tools, toolset } = toolRequest(request.catalog, request.context, request.utterance);
      // The caller holds one adaptive-concurrency slot per call (types.ts Engine.concurrency): that is
      // how a 429 burst lowers how many cases are in flight.
      let release: (() => void) | undefined;
      try {
        release = await engine.concurrency?.acquire(o.signal);
      } catch {
        return { error: { kind: 'aborted', message: 'aborted while waiting for a free request slot' }, duration_ms: elapsed() };
      }
      let res: EngineResult;
      try {
        res = await engine.run({ kind: 'task', ...tools, taskId: request.id, timeoutMs: o.timeoutMs }, o.signal ? { signal: o.signal } : {});
      } finally {
        release?.();
      }
      if (!res.ok) return { error: intentError(res.error, type), duration_ms: elapsed() };
      const usage = { input_tokens: res.usage.input_tokens, output_tokens: res.usage.output_tokens };
      const decision = readToolReply(res, toolset);
      if (!decision) return { error: { kind: 'parse', message: `the reply has neither ${type === 'openai' ? 'a tool call' : 'a tool_use block'} nor text` }, usage, duration_ms: elapsed() };
      return { decision, usage, duration_ms: elapsed() };
    },
  };
}
