// The `anthropic:MODEL` intent engine: the Messages API through the official SDK. Base URL from
// ANTHROPIC_BASE_URL (without /v1), key from ANTHROPIC_API_KEY, passed explicitly so the SDK never
// goes looking for other credentials; the key is never printed. The catalogue is sent as
// `tools: [{name, description, input_schema}]`; `tool_use` content blocks come back with `input`
// objects and are read through model-tools.ts, like any text block. No temperature is sent: the
// Messages API version this SDK speaks has no such parameter. The SDK retries 429/5xx and honours
// retry-after. A failed request is an error for that case, never a wrong decision.
import type Anthropic from '@anthropic-ai/sdk';
import { buildToolSet, conversation, readReply, type RawToolCall } from './model-tools.js';
import { endpointFromEnv, modelError, type ModelEngineOptions } from './openai-engine.js';
import type { CaseRun, IntentEngine } from './types.js';

const MAX_TOKENS = 1024;

export function createAnthropicIntentEngine(spec: string, model: string, opts: ModelEngineOptions): IntentEngine {
  const { baseURL, apiKey } = endpointFromEnv(spec, opts.env, 'ANTHROPIC');
  // The SDK is imported on the first decision, so commands that never call a model start fast.
  let client: Promise<Anthropic> | undefined;
  const getClient = () => (client ??= import('@anthropic-ai/sdk').then((m) => new m.default({ apiKey, baseURL: baseURL ?? null, maxRetries: opts.maxRetries ?? 2 })));
  return {
    spec,
    label: `anthropic ${model}${baseURL ? ` at ${baseURL}` : ''}`,
    identity: () => ({ type: 'anthropic', model, base_url: baseURL ?? 'https://api.anthropic.com', max_tokens: MAX_TOKENS }),
    async decide(request, o): Promise<Omit<CaseRun, 'id'>> {
      const started = performance.now();
      const toolset = buildToolSet(request.catalog);
      const { system, turns } = conversation(request.context, request.utterance);
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const res = await (await getClient()).messages.create(
          {
            model,
            max_tokens: MAX_TOKENS,
            system,
            messages: turns,
            tools: toolset.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters as Anthropic.Tool.InputSchema })),
            tool_choice: { type: 'auto' },
          },
          { timeout: o.timeoutMs, signal: o.signal },
        );
        const calls: RawToolCall[] = [];
        let text = '';
        for (const block of res.content) {
          if (block.type === 'tool_use') calls.push({ name: block.name, args: block.input ?? {} });
          else if (block.type === 'text') text += block.text;
        }
        const decision = readReply(calls, text, toolset);
        const usage = { input_tokens: res.usage?.input_tokens, output_tokens: res.usage?.output_tokens };
        if (!decision) return { error: { kind: 'parse', message: 'the reply has neither a tool_use block nor text' }, usage, duration_ms: elapsed() };
        return { decision, usage, duration_ms: elapsed() };
      } catch (err) {
        return { error: modelError(err, o.signal, apiKey), duration_ms: elapsed() };
      }
    },
  };
}
