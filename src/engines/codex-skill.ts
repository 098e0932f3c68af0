// What a `codex exec --json` run says about the installed skill and about rate limits.
//
// Skill reads. Codex lists each discovered skill to the model as "- <name>: <description> (file:
// <path>)" and tells it to "open its SKILL.md" once it decides to use one (openai/codex
// codex-rs/core/src/skills/render.rs, "How to use a skill (progressive disclosure)"). There is no
// dedicated event for that: the exec event stream has no file-read item (codex-rs/exec/src/exec_events.rs:
// agent_message, reasoning, command_execution, file_change, mcp_tool_call, web_search, todo_list, …), so
// the model opens the file with a shell command, e.g.
//   {"type":"item.completed","item":{"id":"item_2","type":"command_execution",
//    "command":"/bin/bash -lc \"sed -n '1,200p' .agents/skills/notes/SKILL.md\"","aggregated_output":"---\nname: notes…",
//    "exit_code":0,"status":"completed"}}
// The skill counts as triggered when a completed command_execution names its installed SKILL.md
// (`skills/<name>/SKILL.md`, relative or absolute, or `skills/*/SKILL.md`) and exited 0; one that was
// declined (sandbox/approval) or failed is reported as skill_denied, as for claude. A task prompt that
// names the skill as `$<name>` makes Codex inject the body itself (skills/injection.rs) with no command:
// such a prompt is not a trigger measurement.
//
// Rate limits. turn.failed / error messages:
//   "exceeded retry limit, last status: 429 Too Many Requests, request id: …"  (codex-rs/core/src/error.rs
//       RetryLimitReachedError; quoted in openai/codex issues #10550, #26057) → status 429, retried with
//       backoff and fed to the adaptive concurrency like any 429;
//   "You've hit your usage limit. … Try again at 3:05 PM." / "… at Mar 3rd, 2026 3:05 PM." / "Try again
//       later." (error.rs UsageLimitReachedError, retry_suffix + format_retry_timestamp: local time,
//       minute precision) → a subscription limit, reset at that local minute (+ 60 s: the seconds were cut).
import type { RateLimitInfo, ToolCall } from './types.js';
import { isRecord } from './values.js';

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Whether the installed skill's SKILL.md was read (triggered) or a read of it was refused (denied). */
export function codexSkillOutcome(toolCalls: ToolCall[], skill: string): { triggered: boolean; denied: boolean } {
  const names = new RegExp(`skills/(?:${escapeRe(skill)}|\\*)/SKILL\\.md`);
  let triggered = false;
  let denied = false;
  for (const c of toolCalls) {
    if (c.name !== 'command_execution' || !isRecord(c.input) || typeof c.input['command'] !== 'string') continue;
    if (!names.test(c.input['command'])) continue;
    const status = c.input['status'];
    if (status === 'completed' && (c.input['exit_code'] === 0 || c.input['exit_code'] === undefined)) triggered = true;
    else if (status === 'declined' || status === 'failed' || (typeof c.input['exit_code'] === 'number' && c.input['exit_code'] !== 0)) denied = true;
  }
  return { triggered, denied: denied && !triggered };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function hour24(h: number, ampm: string): number {
  const pm = ampm.toUpperCase() === 'PM';
  return (h % 12) + (pm ? 12 : 0);
}

/** The reset of a usage-limit message, epoch ms (local time, as Codex printed it), or undefined. */
export function usageLimitResetMs(message: string, now: Date = new Date()): number | undefined {
  const full = /try again at ([A-Za-z]{3}) (\d{1,2})(?:st|nd|rd|th), (\d{4}) (\d{1,2}):(\d{2}) (AM|PM)/i.exec(message);
  if (full) {
    const month = MONTHS.indexOf((full[1] ?? '').toLowerCase());
    if (month < 0) return undefined;
    return new Date(Number(full[3]), month, Number(full[2]), hour24(Number(full[4]), full[6] ?? 'AM'), Number(full[5])).getTime() + 60_000;
  }
  const today = /try again at (\d{1,2}):(\d{2}) (AM|PM)/i.exec(message);
  if (!today) return undefined;
  const at = new Date(now.getFullYear(), now.getMonth(), now.getDate(), hour24(Number(today[1]), today[3] ?? 'AM'), Number(today[2]));
  return at.getTime() + 60_000;
}

/** A failure message's rate-limit meaning: a subscription limit, a plain 429, or nothing. */
export function codexRateLimit(message: string, now: Date = new Date()): { limit?: RateLimitInfo; status?: number } {
  if (/usage limit/i.test(message)) {
    const resets = usageLimitResetMs(message, now);
    // No status: backing off for seconds cannot outlast a usage limit; the gate waits or stops instead.
    return { limit: { ...(resets !== undefined ? { resets_at: resets } : {}), detail: "you've hit your usage limit" } };
  }
  if (/\b429\b|too many requests|rate limit/i.test(message)) return { status: 429 };
  return {};
}
