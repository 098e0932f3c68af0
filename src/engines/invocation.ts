// Running one agent program and deciding what its run means. The command engine and its presets (claude,
// codex) each describe a run as a CommandInvocation — argv, stdin, environment, working directory, and
// how to read stdout — and executeInvocation turns the process outcome into an EngineResult: spawn
// failures, timeouts (the whole process tree killed), aborts and non-zero exits become error values,
// never exceptions, each message ending with the tail of the program's stderr.
import { basename } from 'node:path';

import { runProcess, type RunOutcome } from '../core/proc.js';
import type { EngineErrorKind, EngineResult, RateLimitInfo, ToolCall, Usage } from './types.js';

/** What an agent run reported besides its answer (tool calls, whether the skill was invoked). */
export interface RunExtras {
  tool_calls?: ToolCall[];
  skill_triggered?: boolean;
  /** A Skill call naming the installed skill was refused (permission denial or an is_error result). */
  skill_denied?: boolean;
  /** The subscription rate limit the run ran into (only read when the run failed). */
  rate_limit?: RateLimitInfo;
}

/** The last lines of stderr on one line, bounded, for error messages. */
export function stderrTail(stderr: string, maxLines = 5, maxChars = 800): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.length > 0);
  const tail = lines.slice(-maxLines).join(' | ');
  return tail.length > maxChars ? `…${tail.slice(-maxChars)}` : tail;
}

export function withStderr(message: string, stderr: string): string {
  const tail = stderrTail(stderr);
  return tail ? `${message}; stderr: ${tail}` : message;
}

export function snippet(s: string, max = 200): string {
  const one = s.trim().replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** What a successful run's stdout means, decided by the engine. */
export type StdoutVerdict =
  | { ok: true; output: string; usage: Usage; extras?: RunExtras }
  | { ok: false; kind: 'parse' | 'exit'; message: string; usage?: Usage; extras?: RunExtras; status?: number };

/** One program run, fully decided: what to start, where, with what, and how to read its stdout. */
export interface CommandInvocation {
  argv: string[];
  input: string;
  env: NodeJS.ProcessEnv;
  cwd: string;
  timeoutMs: number;
  signal?: AbortSignal;
  /** Reads stdout of a run that exited 0. */
  parseStdout(stdout: string): StdoutVerdict;
  /**
   * Optional: for a run that exited non-zero, a more precise account found in stdout (Claude Code
   * reports API errors in its JSON on stdout with an empty stderr). Returns undefined when there is none.
   */
  explainExit?(stdout: string): { message: string; usage?: Usage; extras?: RunExtras; status?: number } | undefined;
}

/** `status`: the provider's HTTP status behind the failure, when the program reported one (retry.ts reads it). */
export function failure(kind: EngineErrorKind, message: string, durationMs: number, usage: Usage = {}, extras: RunExtras = {}, status?: number): EngineResult {
  const error = status === undefined ? { kind, message } : { kind, message, status };
  return { ok: false, output: '', usage, duration_ms: Math.max(0, Math.round(durationMs)), error, ...extras };
}

/** Runs one invocation and classifies the outcome. Never throws. */
export async function executeInvocation(inv: CommandInvocation): Promise<EngineResult> {
  const started = performance.now();
  const elapsed = (): number => performance.now() - started;
  const program = basename(inv.argv[0] ?? '');
  if (inv.signal?.aborted) return failure('aborted', `${program}: aborted before start`, elapsed());
  let outcome: RunOutcome;
  try {
    outcome = await runProcess({
      argv: inv.argv,
      input: inv.input,
      cwd: inv.cwd,
      env: inv.env,
      timeoutMs: inv.timeoutMs,
      ...(inv.signal ? { signal: inv.signal } : {}),
    });
  } catch (err) {
    return failure('spawn', `cannot run ${program}: ${err instanceof Error ? err.message : String(err)}`, elapsed());
  }
  const duration = outcome.durationMs;
  if (outcome.spawnError) return failure('spawn', outcome.spawnError, duration);
  if (outcome.exitCode !== null && outcome.exitCode < 0) {
    // Node reports a failed spawn(2) (e.g. ENOENT for a vanished working directory) as a negative errno.
    return failure('spawn', withStderr(`cannot start ${program} in ${inv.cwd} (errno ${outcome.exitCode})`, outcome.stderr), duration);
  }
  if (outcome.aborted) return failure('aborted', withStderr(`${program}: aborted`, outcome.stderr), duration);
  if (outcome.timedOut) {
    return failure('timeout', withStderr(`${program}: timed out after ${inv.timeoutMs} ms (process tree killed)`, outcome.stderr), duration);
  }
  if (outcome.exitCode !== 0) {
    const how = outcome.signal ? `killed by ${outcome.signal}` : `exited with code ${outcome.exitCode}`;
    const precise = inv.explainExit?.(outcome.stdout);
    if (precise) return failure('exit', withStderr(`${program} ${how}: ${precise.message}`, outcome.stderr), duration, precise.usage, precise.extras, precise.status);
    return failure('exit', withStderr(`${program} ${how}`, outcome.stderr), duration);
  }
  const verdict = inv.parseStdout(outcome.stdout);
  if (!verdict.ok) return failure(verdict.kind, withStderr(`${program}: ${verdict.message}`, outcome.stderr), duration, verdict.usage, verdict.extras, verdict.status);
  return { ok: true, output: verdict.output, usage: verdict.usage, duration_ms: duration, ...verdict.extras };
}

/** Parses stdout as one JSON document; the error names the JSON problem and shows how stdout begins. */
export function parseJsonStdout(stdout: string): { ok: true; value: unknown } | { ok: false; message: string } {
  const text = stdout.trim();
  if (text.length === 0) return { ok: false, message: 'expected JSON on stdout, got nothing' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return { ok: false, message: `stdout is not JSON (${why}); stdout begins: "${snippet(text)}"` };
  }
}
