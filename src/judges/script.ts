// The script judge: any program decides, exit 0 = pass. The program gets the output three ways —
// a file named by AI_OUTPUT_FILE (the seed's contract), stdin (for filters), and the task's prompt in
// a file — so that judges written for the seed run unchanged and new ones need no parsing glue.
// Only a completed run counts as a verdict: a program that could not start, timed out, was aborted or
// died on a signal did not judge anything, so those are errors, never fails.
// Stdin comes from the output file through a bash redirect rather than runProcess's `input`: piping
// input to a program that never reads it raises an uncaught EPIPE that kills whet, and an empty
// `input` leaves the pipe open so a program that does read stdin waits until the timeout.
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { writeFileAtomically } from '../core/atomic.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeOutcome, runProcess, type RunOutcome } from '../core/proc.js';
import type { JudgeSpec } from '../config/suite-schema.js';
import type { JudgeContext, JudgeResult } from './types.js';
import { errorResult, oneLine, tailLines } from './result.js';

type ScriptSpec = Extract<JudgeSpec, { type: 'script' }>;

export type ProgramRun = { ok: true; outcome: RunOutcome } | { ok: false; message: string };

/** `command` as argv: arrays are taken as they are; strings split on whitespace (no shell quoting). */
export function commandArgv(command: string | string[], suiteDir: string): string[] {
  const argv = typeof command === 'string' ? command.trim().split(/\s+/).filter((a) => a.length > 0) : [...command];
  const program = argv[0];
  // `./check.sh` or `judges/check.py` mean "next to the suite", not "next to wherever whet was started".
  if (program !== undefined && program.includes('/') && !path.isAbsolute(program)) argv[0] = path.resolve(suiteDir, program);
  return argv;
}

export function timeoutOf(timeoutSeconds: number | undefined, ctx: JudgeContext): number {
  return timeoutSeconds !== undefined ? Math.round(timeoutSeconds * 1000) : ctx.timeoutMs;
}

/**
 * Runs a judge program on the output, with cwd = the suite folder. The temp folder holding the output
 * and prompt files is removed afterwards whatever happened.
 */
export async function runOnOutput(
  argv: string[],
  ctx: JudgeContext,
  timeoutMs: number,
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<ProgramRun> {
  if (argv.length === 0) return { ok: false, message: 'empty command' };
  const cwd = path.resolve(ctx.suiteDir);
  const isDir = await stat(cwd).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) return { ok: false, message: `suite folder ${cwd} does not exist` };
  let dir: string | undefined;
  try {
    dir = await mkdtemp(path.join(tmpdir(), 'whet-judge-'));
    const outputFile = path.join(dir, 'output.txt');
    const promptFile = path.join(dir, 'prompt.txt');
    await writeFileAtomically(outputFile, ctx.output, { mode: 0o600 });
    await writeFileAtomically(promptFile, ctx.task.prompt, { mode: 0o600 });
    const outcome = await runProcess({
      argv: ['bash', '-c', 'exec "$@" < "$AI_OUTPUT_FILE"', 'whet-judge', ...argv],
      cwd,
      env: {
        ...process.env,
        ...extraEnv,
        AI_OUTPUT_FILE: outputFile,
        WHET_TASK_ID: ctx.task.id,
        WHET_TASK_PROMPT_FILE: promptFile,
      },
      timeoutMs,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    // runProcess names the program it started (bash); the user needs to hear about their program.
    if (outcome.spawnError !== undefined) {
      const why = tailLines(outcome.stderr, 1).replace(/^whet-judge: line \d+: (exec: )?/, '');
      outcome.spawnError = `cannot run ${argv[0] ?? ''}: ${why}`;
    }
    return { ok: true, outcome };
  } catch (err) {
    return { ok: false, message: `cannot run ${argv[0] ?? ''}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** Why a run produced no verdict, or undefined when it ran to an exit code. */
export function noVerdict(o: RunOutcome, timeoutMs: number): string | undefined {
  if (o.spawnError || o.timedOut || o.aborted || o.exitCode === null) return describeOutcome(o, timeoutMs);
  // Node reports a failed spawn (missing cwd, say) as a negative errno "exit code" with no spawnError.
  if (o.exitCode < 0) return `could not be started (spawn errno ${o.exitCode})`;
  return undefined;
}

/** The last lines of stdout and stderr: where a checker says what it did not like. */
export function outputTail(o: RunOutcome): string {
  return [tailLines(o.stdout), tailLines(o.stderr)].filter((s) => s.length > 0).join(' | ');
}

export async function judgeScript(spec: ScriptSpec, ctx: JudgeContext): Promise<JudgeResult> {
  const argv = commandArgv(spec.command, ctx.suiteDir);
  const timeoutMs = timeoutOf(spec.timeout_seconds, ctx);
  const run = await runOnOutput(argv, ctx, timeoutMs);
  if (!run.ok) return errorResult('script', run.message);
  const o = run.outcome;
  const broken = noVerdict(o, timeoutMs);
  if (broken !== undefined) return errorResult('script', `judge script ${broken}`);
  const tail = outputTail(o);
  if (o.exitCode === 0) {
    return { type: 'script', passed: true, score: 1, reason: oneLine(tail ? `exit 0: ${tailLines(o.stdout, 1) || tail}` : 'exit 0') };
  }
  return { type: 'script', passed: false, score: 0, reason: oneLine(`exit code ${o.exitCode}${tail ? `: ${tail}` : ''}`) };
}
