// Reading `codex exec --json`: one JSON event per line on stdout (progress goes to stderr). Event and
// item shapes from openai/codex codex-rs/exec/src/exec_events.rs (ThreadEvent, ThreadItemDetails) and
// openai/codex docs/exec.md "JSON output mode", whose sample is:
//
//   {"type":"thread.started","thread_id":"0199a213-81c0-7800-8aa1-bbab2a035a53"}
//   {"type":"turn.started"}
//   {"type":"item.completed","item":{"id":"item_0","type":"reasoning","text":"**Searching for README files**"}}
//   {"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"","status":"in_progress"}}
//   {"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"bash -lc ls","aggregated_output":"…","exit_code":0,"status":"completed"}}
//   {"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"Yep — there's a `README.md` in the repository root."}}
//   {"type":"turn.completed","usage":{"input_tokens":24763,"cached_input_tokens":24448,"output_tokens":122}}
//
// Failures: {"type":"turn.failed","error":{"message":…}} ends the turn; {"type":"error","message":…}
// is also used for transient notices ("Reconnecting... 1/5") while the turn goes on, so it only decides
// the outcome when no turn completed.
//
// Mapping: output = the text of the last completed agent_message; usage summed over turn.completed
// (input_tokens already includes cached_input_tokens, as in the OpenAI API); tool calls from completed
// items: command_execution {command, exit_code, status}, file_change {changes, status}, web_search
// {query}, mcp_tool_call as `mcp:<server>/<tool>` with its arguments, collab_tool_call as `collab:<tool>`.
// With an installed skill (skill_delivery: installed) skill_triggered says whether the model opened its
// SKILL.md, and failures that are rate limits carry a status / rate_limit (codex-skill.ts); with
// AGENTS.md (always loaded whole) skill_triggered is not reported.
import { codexRateLimit, codexSkillOutcome } from './codex-skill.js';
import type { RunExtras, StdoutVerdict } from './invocation.js';
import type { ToolCall, Usage } from './types.js';
import { isRecord, clip } from './values.js';

export interface CodexRun {
  messages: string[];
  toolCalls: ToolCall[];
  usage: Usage;
  turnsCompleted: number;
  turnFailed?: string;
  errors: string[];
  events: number;
  badLines: number;
  firstBadLine?: string;
}



function toolCallOf(item: Record<string, unknown>): ToolCall | undefined {
  const pick = (...keys: string[]): Record<string, unknown> => Object.fromEntries(keys.filter((k) => k in item).map((k) => [k, item[k]]));
  const id = typeof item['id'] === 'string' ? { id: item['id'] } : {};
  switch (item['type']) {
    case 'command_execution':
      return { name: 'command_execution', input: pick('command', 'exit_code', 'status'), ...id };
    case 'file_change':
      return { name: 'file_change', input: pick('changes', 'status'), ...id };
    case 'web_search':
      return { name: 'web_search', input: pick('query'), ...id };
    case 'mcp_tool_call':
      return { name: `mcp:${String(item['server'])}/${String(item['tool'])}`, input: item['arguments'], ...id };
    case 'collab_tool_call':
      return { name: `collab:${String(item['tool'])}`, input: pick('prompt', 'status'), ...id };
    default:
      return undefined;
  }
}

function addUsage(total: Usage, u: unknown): void {
  if (!isRecord(u)) return;
  for (const key of ['input_tokens', 'output_tokens'] as const) {
    const v = u[key];
    if (typeof v === 'number' && Number.isFinite(v)) total[key] = (total[key] ?? 0) + v;
  }
}

/** Splits and reads the event stream; never throws. */
export function readCodexEvents(stdout: string): CodexRun {
  const run: CodexRun = { messages: [], toolCalls: [], usage: {}, turnsCompleted: 0, errors: [], events: 0, badLines: 0 };
  for (const raw of stdout.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    let ev: unknown;
    try {
      ev = JSON.parse(line);
    } catch {
      run.badLines++;
      run.firstBadLine ??= clip(line);
      continue;
    }
    if (!isRecord(ev)) continue;
    run.events++;
    if (ev['type'] === 'turn.completed') {
      run.turnsCompleted++;
      addUsage(run.usage, ev['usage']);
    } else if (ev['type'] === 'turn.failed') {
      run.turnFailed = isRecord(ev['error']) && typeof ev['error']['message'] === 'string' ? ev['error']['message'] : 'turn failed';
    } else if (ev['type'] === 'error' && typeof ev['message'] === 'string') {
      run.errors.push(ev['message']);
    } else if (ev['type'] === 'item.completed' && isRecord(ev['item'])) {
      const item = ev['item'];
      if (item['type'] === 'agent_message' && typeof item['text'] === 'string') run.messages.push(item['text']);
      const call = toolCallOf(item);
      if (call) run.toolCalls.push(call);
    }
  }
  return run;
}

function extrasOf(run: CodexRun, skillName: string | undefined, failure?: string): { extras: RunExtras; status?: number } {
  const extras: RunExtras = { tool_calls: run.toolCalls };
  if (skillName !== undefined) {
    const o = codexSkillOutcome(run.toolCalls, skillName);
    extras.skill_triggered = o.triggered;
    if (o.denied) extras.skill_denied = true;
  }
  if (failure === undefined) return { extras };
  const limit = codexRateLimit(failure);
  if (limit.limit) extras.rate_limit = limit.limit;
  return { extras, ...(limit.status !== undefined ? { status: limit.status } : {}) };
}

/** Reads the stdout of a `codex exec --json` run that exited 0. `skillName`: the installed skill, if any. */
export function parseCodexStdout(stdout: string, skillName?: string): StdoutVerdict {
  const run = readCodexEvents(stdout);
  const failure = run.turnFailed ?? (run.turnsCompleted === 0 ? run.errors[run.errors.length - 1] : undefined);
  const { extras, ...status } = extrasOf(run, skillName, failure);
  if (run.turnFailed !== undefined) return { ok: false, kind: 'exit', message: `codex turn failed: ${clip(run.turnFailed, 400)}`, usage: run.usage, extras, ...status };
  if (run.turnsCompleted === 0) {
    const why = run.errors.length
      ? `error: ${clip(run.errors[run.errors.length - 1] ?? '', 400)}`
      : run.badLines
        ? `${run.badLines} line(s) of stdout are not JSON, e.g. "${run.firstBadLine}"`
        : `${run.events} event(s) and no turn.completed`;
    return { ok: false, kind: run.errors.length ? 'exit' : 'parse', message: `codex exec --json ended without a completed turn: ${why}`, usage: run.usage, extras, ...status };
  }
  return { ok: true, output: run.messages[run.messages.length - 1] ?? '', usage: run.usage, extras };
}

/** For a non-zero exit: the failure codex reported in its events, when it reported one. */
export function explainCodexExit(stdout: string, skillName?: string): { message: string; usage?: Usage; extras?: RunExtras; status?: number } | undefined {
  const run = readCodexEvents(stdout);
  const why = run.turnFailed ?? run.errors[run.errors.length - 1];
  return why === undefined ? undefined : { message: clip(why, 400), usage: run.usage, ...extrasOf(run, skillName, why) };
}
