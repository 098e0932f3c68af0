// Response bodies in the OpenAI and Anthropic wire formats, for the loopback test server.
//
// OpenAI Chat Completions: {"id","object":"chat.completion","created","model","choices":[{"index",
//   "message":{"role":"assistant","content":…|null,"tool_calls"?:[{"id","type":"function","function":
//   {"name","arguments":"<JSON text>"}}]},"finish_reason"}],"usage":{"prompt_tokens","completion_tokens",
//   "total_tokens"}} (types in openai-node src/resources/chat/completions).
// OpenAI errors: {"error":{"message","type","param","code"}} — the openai SDK hands `body.error` to
//   APIError (openai-node src/core/error.ts, APIError.generate).
// Anthropic Messages: {"id","type":"message","role":"assistant","model","content":[{"type":"text","text"}
//   | {"type":"tool_use","id","name","input"}],"stop_reason","stop_sequence","usage":{"input_tokens",
//   "output_tokens","cache_creation_input_tokens","cache_read_input_tokens"}}.
// Anthropic errors: {"type":"error","error":{"type","message"},"request_id"} — "Errors are always returned
//   as JSON, with a top-level error object that always includes a type and message value"
//   (https://docs.claude.com/en/api/errors), e.g. 429 rate_limit_error, 529 overloaded_error.

export interface OpenAIToolCall {
  id: string;
  name: string;
  arguments: string;
}

export function openaiCompletion(opts: { content?: string | null; toolCalls?: OpenAIToolCall[]; promptTokens?: number; completionTokens?: number; model?: string } = {}): object {
  const prompt = opts.promptTokens ?? 12;
  const completion = opts.completionTokens ?? 5;
  return {
    id: 'chatcmpl-loopback',
    object: 'chat.completion',
    created: 1_700_000_000,
    model: opts.model ?? 'gpt-test',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: opts.content === undefined ? 'loopback answer' : opts.content,
          refusal: null,
          ...(opts.toolCalls ? { tool_calls: opts.toolCalls.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.arguments } })) } : {}),
        },
        logprobs: null,
        finish_reason: opts.toolCalls ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  };
}

export function openaiError(message: string, type: string, code: string | null = null): object {
  return { error: { message, type, param: null, code } };
}

export type AnthropicBlock = { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown };

export function anthropicMessage(
  opts: { content?: AnthropicBlock[]; inputTokens?: number; outputTokens?: number; cacheCreation?: number; cacheRead?: number; model?: string } = {},
): object {
  const content = opts.content ?? [{ type: 'text', text: 'loopback answer' }];
  return {
    id: 'msg_01LOOPBACK',
    type: 'message',
    role: 'assistant',
    model: opts.model ?? 'claude-test',
    content,
    stop_reason: content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: {
      input_tokens: opts.inputTokens ?? 20,
      output_tokens: opts.outputTokens ?? 7,
      cache_creation_input_tokens: opts.cacheCreation ?? 0,
      cache_read_input_tokens: opts.cacheRead ?? 0,
    },
  };
}

export function anthropicError(type: string, message: string): object {
  return { type: 'error', error: { type, message }, request_id: 'req_011LOOPBACK' };
}
