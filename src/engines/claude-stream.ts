// Reading `claude -p --output-format stream-json --verbose`: one JSON message per line (NDJSON), the
// same messages the Agent SDK parses (anthropics/claude-agent-sdk-python,
// src/claude_agent_sdk/_internal/message_parser.py @ 008e361d):
//
//   {"type":"system","subtype":"init","cwd":…,"session_id":…,"tools":[…],"model":…,"skills"?:[…]}
//   {"type":"assistant","message":{"model":…,"content":[{"type":"text","text":…} |
//       {"type":"tool_use","id":"toolu_…","name":"Skill","input":{"skill":"<name>"}} | …],"usage":{…}},
//    "parent_tool_use_id":null|"toolu_…","session_id":…}
//   {"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":…,"content":"Launching skill: <name>"}]}}
//   {"type":"result","subtype":"success",…,"result":…,"total_cost_usd":…,"usage":{…}}   (last line)
//
//   {"type":"rate_limit_event","rate_limit_info":{"status":…,"resetsAt":…,"rateLimitType":…}}  (claude-rate-limit.ts)
//
// Other lines (stream_event, system hook/task messages, …) are skipped. A line that
// is not JSON is counted and skipped — the run may still have produced its result — but a stream with
// no result message is a parse error that quotes the first such line.
//
// Skill triggering: Claude Code invokes a skill through its `Skill` tool; the tool_use input names the
// skill as `skill` (current releases: {"skill":"pdf"}, {"skill":"ms-office-suite:pdf"} for plugin skills,
// per the tool's own description captured in ruanyf/weekly issue #8818) or as `command` (earlier
// releases, {"command":"code-review"}). The skill counts as triggered when some Skill call names it —
// exactly, or as the last `:`-separated part, ignoring a leading `/`. Subagent calls count too.
// A call counts only when it went through: its tool_result arrived without `is_error` and the result
// envelope's `permission_denials` ([{tool_name, tool_use_id, tool_input}], Agent SDK SDKPermissionDenial)
// does not list it. Headless runs never prompt: a call without permission is answered at once with the
// error result "Claude requested permissions to use Skill, but you haven't granted it yet." and the skill
// never loads, so counting it would report a trigger that did not happen. Such a call is reported apart
// as skill_denied (denied, or failed with is_error) — the measurement then says something about the
// permission setup, not the skill's description.
import { extractUsage } from './command.js';
import { envelopeError, withStatus } from './claude-result.js';
import { claudeRateLimit } from './claude-rate-limit.js';
import type { RunExtras, StdoutVerdict } from './invocation.js';
import type { ToolCall, Usage } from './types.js';
import { isRecord, clip } from './values.js';

export interface ClaudeStream {
  /** The final `type: "result"` message, when the stream has one. */
  result?: Record<string, unknown>;
  toolCalls: ToolCall[];
  /** Every Skill tool call: the skill named, as written, and the call id when the stream gave one. */
  skillCalls: { skill: string; id?: string }[];
  /** tool_use_id → whether its tool_result had `is_error: true`. */
  toolResults: Map<string, boolean>;
  /** Every rate_limit_event line, and whether an assistant message carried `"error": "rate_limit"`. */
  rateLimitEvents: Record<string, unknown>[];
  assistantRateLimited: boolean;
  messages: number;
  badLines: number;
  firstBadLine?: string;
}



/** Splits and parses the stream; never throws. */
export function readClaudeStream(stdout: string): ClaudeStream {
  const stream: ClaudeStream = { toolCalls: [], skillCalls: [], toolResults: new Map(), rateLimitEvents: [], assistantRateLimited: false, messages: 0, badLines: 0 };
  for (const raw of stdout.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    let msg: unknown;
    try {
      msg = JSON.parse(line);
    } catch {
      stream.badLines++;
      stream.firstBadLine ??= clip(line);
      continue;
    }
    if (!isRecord(msg)) continue;
    stream.messages++;
    if (msg['type'] === 'result') stream.result = msg;
    if (msg['type'] === 'rate_limit_event') stream.rateLimitEvents.push(msg);
    if (msg['type'] === 'assistant' && msg['error'] === 'rate_limit') stream.assistantRateLimited = true;
    if (!isRecord(msg['message']) || !Array.isArray(msg['message']['content'])) continue;
    if (msg['type'] === 'user') readToolResults(msg['message']['content'], stream.toolResults);
    if (msg['type'] !== 'assistant') continue;
    for (const block of msg['message']['content']) {
      if (!isRecord(block) || block['type'] !== 'tool_use' || typeof block['name'] !== 'string') continue;
      const call: ToolCall = { name: block['name'], input: block['input'] };
      if (typeof block['id'] === 'string') call.id = block['id'];
      stream.toolCalls.push(call);
      if (block['name'] === 'Skill' && isRecord(block['input'])) {
        const named = block['input']['skill'] ?? block['input']['command'];
        if (typeof named === 'string') stream.skillCalls.push(call.id === undefined ? { skill: named } : { skill: named, id: call.id });
      }
    }
  }
  return stream;
}

function readToolResults(content: unknown[], into: Map<string, boolean>): void {
  for (const block of content) {
    if (isRecord(block) && block['type'] === 'tool_result' && typeof block['tool_use_id'] === 'string') into.set(block['tool_use_id'], block['is_error'] === true);
  }
}

/** Whether a Skill call's name means `skill` (exactly, plugin-qualified, or as a /slash command). */
export function namesSkill(called: string, skill: string): boolean {
  const bare = called.trim().replace(/^\//, '');
  return bare === skill || bare.split(':').pop() === skill;
}

/** The tool_use ids the result envelope lists in `permission_denials`. */
export function deniedIds(result: Record<string, unknown> | undefined): Set<string> {
  const denials = result?.['permission_denials'];
  if (!Array.isArray(denials)) return new Set();
  return new Set(denials.flatMap((d) => (isRecord(d) && typeof d['tool_use_id'] === 'string' ? [d['tool_use_id']] : [])));
}

/**
 * Whether `skill` was invoked and loaded (triggered), and whether a call naming it was refused (denied):
 * listed in permission_denials, or answered with an is_error tool_result. A call with no result at all
 * (the stream ended first) is neither.
 */
export function skillOutcome(stream: ClaudeStream, skill: string): { triggered: boolean; denied: boolean } {
  const denied = deniedIds(stream.result);
  let triggered = false;
  let refused = false;
  for (const call of stream.skillCalls) {
    if (!namesSkill(call.skill, skill) || call.id === undefined) continue;
    const isError = stream.toolResults.get(call.id);
    if (denied.has(call.id) || isError === true) refused = true;
    else if (isError === false) triggered = true;
  }
  return { triggered, denied: refused };
}

function extrasOf(stream: ClaudeStream, skillName: string | undefined): RunExtras {
  const extras: RunExtras = { tool_calls: stream.toolCalls };
  const limit = claudeRateLimit(stream.rateLimitEvents, stream.assistantRateLimited, stream.result);
  if (limit) extras.rate_limit = limit;
  if (skillName === undefined) return extras;
  const outcome = skillOutcome(stream, skillName);
  extras.skill_triggered = outcome.triggered;
  if (outcome.denied) extras.skill_denied = true;
  return extras;
}

/** Reads the stdout of a stream-json run that exited 0. `skillName`: the installed skill, if any. */
export function parseClaudeStream(stdout: string, skillName: string | undefined): StdoutVerdict {
  const stream = readClaudeStream(stdout);
  const extras = extrasOf(stream, skillName);
  if (!stream.result) {
    const why = stream.badLines
      ? `${stream.badLines} line(s) of stdout are not JSON, e.g. "${stream.firstBadLine}"`
      : stream.messages
        ? `${stream.messages} message(s) but none of type "result"`
        : 'stdout is empty';
    return { ok: false, kind: 'parse', message: `no result in Claude Code's stream-json output: ${why}`, extras };
  }
  const usage: Usage = extractUsage(stream.result);
  const why = envelopeError(stream.result);
  if (why) return { ok: false, kind: 'exit', message: why, usage, extras, ...withStatus(stream.result) };
  if (typeof stream.result['result'] !== 'string') return { ok: false, kind: 'parse', message: 'Claude Code result has no "result" string', usage, extras };
  return { ok: true, output: stream.result['result'], usage, extras };
}

/** For a non-zero exit: the result message's own account, when the stream got that far. */
export function explainClaudeStreamExit(stdout: string, skillName: string | undefined): { message: string; usage?: Usage; extras?: RunExtras; status?: number } | undefined {
  const stream = readClaudeStream(stdout);
  if (!stream.result) return undefined;
  const subtype = typeof stream.result['subtype'] === 'string' ? stream.result['subtype'] : 'missing';
  return {
    message: envelopeError(stream.result) ?? `claude printed a result with subtype ${subtype} but exited non-zero`,
    usage: extractUsage(stream.result),
    extras: extrasOf(stream, skillName),
    ...withStatus(stream.result),
  };
}
