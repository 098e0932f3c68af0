// What model engines (openai, anthropic) share: the catalogue as a native tool list, the prompt, and
// the reading of a reply into a Decision.
//
// Tools. Each capability becomes a tool whose description is the capability's description, then
// "Offered by: <systems>", "Also called: <keywords>" and "Requires permission: <requires>" lines when
// present, and whose parameters are the capability's JSON Schema unchanged. Tool names must match
// ^[a-zA-Z0-9_-]{1,64}$ on both APIs, so other characters become "_" (`issue.create` →
// `issue_create`) and a clash gets a numeric suffix; names are mapped back to ids on the way out. A
// name that maps to no capability is reported as the capability it named: a hallucination.
//
// Clarify and refuse. Two pseudo-tools are added, `ask_clarification(question)` and `refuse(reason)`,
// and the system prompt says to answer only through tools; a model that asks or declines through a
// tool is read without guessing. A plain-text reply (no tool call) is the fallback: it is read as
// clarify when it contains a question mark ("?" or "？"), else as refuse, and marked "read from plain
// text" in the report. When several tools are called the first decides: a pseudo-tool makes the
// decision clarify/refuse; otherwise every capability call is kept, in order (multi-step).
//
// Both ways in send the same request: `whet intents` (model-engine.ts) and the improvement
// loop's intent tasks (src/evaluation/intent-decide.ts) build it with toolRequest and read the answer
// with readToolReply, so what the harness measures is what the loop would send.
import type { EngineRequest, EngineResult } from '../engines/types.js';
import type { CatalogEntry, Decision, PlannedCall } from '../config/intent-types.js';

export const CLARIFY_TOOL = 'ask_clarification';
export const REFUSE_TOOL = 'refuse';

export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ToolSet {
  tools: ToolSpec[];
  /** tool name → capability id */
  toId: Map<string, string>;
}

export function toolDescription(c: CatalogEntry): string {
  const lines = [c.description, `Offered by: ${c.systems.join(', ')}.`];
  if (c.keywords?.length) lines.push(`Also called: ${c.keywords.join(', ')}.`);
  if (c.requires?.length) lines.push(`Requires permission: ${c.requires.join(', ')}.`);
  return lines.join('\n');
}

export function buildToolSet(catalog: CatalogEntry[]): ToolSet {
  const taken = new Set([CLARIFY_TOOL, REFUSE_TOOL]);
  const toId = new Map<string, string>();
  const tools: ToolSpec[] = [];
  for (const c of catalog) {
    const base = c.id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'capability';
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}_${n}`;
    taken.add(name);
    toId.set(name, c.id);
    tools.push({ name, description: toolDescription(c), parameters: c.parameters });
  }
  tools.push(
    {
      name: CLARIFY_TOOL,
      description: 'Ask the user one question instead of acting, when a required value is missing or the request could mean different tools.',
      parameters: { type: 'object', properties: { question: { type: 'string' } }, required: ['question'] },
    },
    {
      name: REFUSE_TOOL,
      description: 'Decline the request, when no tool can do it or the user is not allowed to.',
      parameters: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'] },
    },
  );
  return { tools, toId };
}

export const SYSTEM_PROMPT = [
  'You decide what a tool-using assistant does with the user’s latest message. Answer only by calling tools.',
  '- To act, call the matching tool with arguments taken from the message and the context. For a request with several steps, call the tools in order.',
  `- If a required value is missing, or the request could mean different tools, call ${CLARIFY_TOOL} with one short question. Never guess a value the user did not give.`,
  `- If no tool can do it, or the user is not allowed to, call ${REFUSE_TOOL} with the reason.`,
].join('\n');

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/**
 * The conversation: `context.history` (or `messages` / `turns`), when it is a list of
 * {role: user|assistant, content: string}, becomes earlier turns; the rest of the context is shown as
 * JSON in the system prompt; the utterance is the last user turn, verbatim.
 */
export function conversation(context: Record<string, unknown>, utterance: string): { system: string; turns: ChatTurn[] } {
  const rest: Record<string, unknown> = { ...context };
  let turns: ChatTurn[] = [];
  for (const key of ['history', 'messages', 'turns']) {
    const h = context[key];
    if (Array.isArray(h) && h.length > 0 && h.every(isTurn)) {
      turns = h.map((t) => ({ role: t.role, content: t.content }));
      delete rest[key];
      break;
    }
  }
  const system = Object.keys(rest).length > 0 ? `${SYSTEM_PROMPT}\n\nContext (JSON):\n${JSON.stringify(rest, null, 2)}` : SYSTEM_PROMPT;
  return { system, turns: [...turns, { role: 'user', content: utterance }] };
}

function isTurn(v: unknown): v is ChatTurn {
  if (v === null || typeof v !== 'object') return false;
  const t = v as Record<string, unknown>;
  return (t.role === 'user' || t.role === 'assistant') && typeof t.content === 'string';
}

export interface RawToolCall {
  name: string;
  /** Parsed arguments, or undefined with `error` when they were not valid JSON. */
  args: unknown;
  error?: string;
}

/** A reply (tool calls plus any text) as a Decision; undefined when it says nothing at all. */
export function readReply(calls: RawToolCall[], text: string, toolset: ToolSet): Decision | undefined {
  const first = calls[0];
  const argText = (c: RawToolCall, key: string) => {
    const v = c.args && typeof c.args === 'object' ? (c.args as Record<string, unknown>)[key] : undefined;
    return typeof v === 'string' ? v : '';
  };
  if (first?.name === CLARIFY_TOOL) return { behavior: 'clarify', question: argText(first, 'question'), via: 'tool' };
  if (first?.name === REFUSE_TOOL) return { behavior: 'refuse', reason: argText(first, 'reason'), via: 'tool' };
  if (first) {
    const planned: PlannedCall[] = calls
      .filter((c) => c.name !== CLARIFY_TOOL && c.name !== REFUSE_TOOL)
      .map((c) => ({ capability: toolset.toId.get(c.name) ?? c.name, params: c.args, ...(c.error ? { paramsError: c.error } : {}) }));
    return { behavior: 'call', calls: planned, via: 'tool' };
  }
  const t = text.trim();
  if (t === '') return undefined;
  return /[?？]/.test(t) ? { behavior: 'clarify', question: t, via: 'text' } : { behavior: 'refuse', reason: t, via: 'text' };
}

/** Arguments as sent: a JSON string (OpenAI) or an object (Anthropic, some compatible servers). */
export function parseArgs(raw: unknown): { args: unknown; error?: string } {
  if (typeof raw !== 'string') return { args: raw ?? {} };
  if (raw.trim() === '') return { args: {} };
  try {
    return { args: JSON.parse(raw) };
  } catch (err) {
    return { args: undefined, error: `arguments are not valid JSON: ${(err as Error).message}` };
  }
}

/** The parts of an engine request that say what the model sees: system prompt, history, utterance, tools. */
export type ToolRequest = Required<Pick<EngineRequest, 'prompt' | 'system' | 'history' | 'tools' | 'toolChoice'>>;

/**
 * One case as a tool-calling engine request: the catalogue as native tools plus the two pseudo-tools,
 * the context in the system prompt, earlier turns as real chat turns and the utterance as the last user
 * turn. The toolset maps tool names back to capability ids when the reply is read.
 */
export function toolRequest(catalog: CatalogEntry[], context: Record<string, unknown>, utterance: string): { request: ToolRequest; toolset: ToolSet } {
  const toolset = buildToolSet(catalog);
  const conv = conversation(context, utterance);
  return {
    toolset,
    request: {
      prompt: utterance,
      system: conv.system,
      history: conv.turns.slice(0, -1),
      tools: toolset.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.parameters })),
      toolChoice: 'auto',
    },
  };
}

/** A successful engine answer (native tool calls plus any text) as a Decision; undefined when it says nothing. */
export function readToolReply(res: Pick<EngineResult, 'tool_calls' | 'output'>, toolset: ToolSet): Decision | undefined {
  const calls: RawToolCall[] = (res.tool_calls ?? []).map((tc) => ({ name: tc.name, ...parseArgs(tc.input) }));
  return readReply(calls, res.output, toolset);
}
