// The `openai:MODEL` intent engine: any OpenAI-compatible Chat Completions endpoint (OpenAI, Ollama,
// vLLM, LM Studio, OpenRouter) through the official SDK. Base URL from OPENAI_BASE_URL, key from
// OPENAI_API_KEY (a local server without one gets a placeholder key; the key is never printed). The
// catalogue is sent as `tools: [{type: "function", function: {name, description, parameters}}]`;
// `message.tool_calls[].function.arguments` (a JSON string, or an object on some compatible servers)
// is read back through model-tools.ts. Temperature 0 so reruns repeat; the SDK retries 429/5xx and
// honours retry-after. A failed request is an error for that case, never a wrong decision.
import type OpenAI from 'openai';
import { redact } from '../engines/http-common.js';
import { UsageError } from '../core/errors.js';
import { buildToolSet, conversation, parseArgs, readReply, type RawToolCall } from './model-tools.js';
import type { CaseRun, IntentEngine, IntentErrorKind } from './types.js';

export interface ModelEngineOptions {
  env: NodeJS.ProcessEnv;
  maxRetries?: number;
}

/**
 * A failed request as a case error. The key is cut out of the message first: a server (or proxy) that
 * echoes the Authorization header in its error body would otherwise put it into the report and --json.
 */
export function modelError(err: unknown, signal: AbortSignal | undefined, apiKey: string): { kind: IntentErrorKind; message: string } {
  if (signal?.aborted) return { kind: 'aborted', message: 'aborted' };
  const e = err as { name?: string; status?: number; message?: string };
  if (e?.name?.includes('Timeout')) return { kind: 'timeout', message: redact(e.message ?? 'request timed out', [apiKey]) };
  const status = typeof e?.status === 'number' ? `HTTP ${e.status}: ` : '';
  return { kind: 'http', message: `${status}${redact(e?.message ?? String(err), [apiKey]).replace(/\s+/g, ' ').slice(0, 300)}` };
}

/**
 * The endpoint and key of a model engine, from `<PREFIX>_BASE_URL` and `<PREFIX>_API_KEY`. A local server
 * (a base URL given) may need no key; the SDKs refuse an empty one, so it gets a placeholder.
 */
export function endpointFromEnv(spec: string, env: NodeJS.ProcessEnv, prefix: 'OPENAI' | 'ANTHROPIC'): { baseURL: string | undefined; apiKey: string } {
  const baseURL = env[`${prefix}_BASE_URL`] || undefined;
  const apiKey = env[`${prefix}_API_KEY`] || (baseURL ? 'not-needed' : undefined);
  if (!apiKey) throw new UsageError(`--engine ${spec}: set ${prefix}_API_KEY (or ${prefix}_BASE_URL for a local server that needs no key)`);
  return { baseURL, apiKey };
}

export function createOpenAiIntentEngine(spec: string, model: string, opts: ModelEngineOptions): IntentEngine {
  const { baseURL, apiKey } = endpointFromEnv(spec, opts.env, 'OPENAI');
  // The SDK is imported on the first decision, so commands that never call a model start fast.
  let client: Promise<OpenAI> | undefined;
  const getClient = () => (client ??= import('openai').then((m) => new m.default({ apiKey, baseURL: baseURL ?? null, maxRetries: opts.maxRetries ?? 2 })));
  return {
    spec,
    label: `openai ${model}${baseURL ? ` at ${baseURL}` : ''}`,
    identity: () => ({ type: 'openai', model, base_url: baseURL ?? 'https://api.openai.com/v1', temperature: 0 }),
    async decide(request, o): Promise<Omit<CaseRun, 'id'>> {
      const started = performance.now();
      const toolset = buildToolSet(request.catalog);
      const { system, turns } = conversation(request.context, request.utterance);
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const res = await (await getClient()).chat.completions.create(
          {
            model,
            temperature: 0,
            messages: [{ role: 'system', content: system }, ...turns],
            tools: toolset.tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })),
            tool_choice: 'auto',
          },
          { timeout: o.timeoutMs, signal: o.signal },
        );
        const message = res.choices[0]?.message;
        const calls: RawToolCall[] = (message?.tool_calls ?? []).map((tc) => {
          if (tc.type === 'function') {
            const { args, error } = parseArgs(tc.function.arguments);
            return { name: tc.function.name, args, ...(error ? { error } : {}) };
          }
          const { args, error } = parseArgs(tc.custom.input);
          return { name: tc.custom.name, args, ...(error ? { error } : {}) };
        });
        const decision = readReply(calls, message?.content ?? '', toolset);
        const usage = { input_tokens: res.usage?.prompt_tokens, output_tokens: res.usage?.completion_tokens };
        if (!decision) return { error: { kind: 'parse', message: 'the reply has neither a tool call nor text' }, usage, duration_ms: elapsed() };
        return { decision, usage, duration_ms: elapsed() };
      } catch (err) {
        return { error: modelError(err, o.signal, apiKey), duration_ms: elapsed() };
      }
    },
  };
}
