// The single way whetstone starts another program. It goes through zx so every spawn is quiet, never
// throws on a non-zero exit, gets the prompt on stdin, and on timeout loses its whole process tree:
// the child is started in its own process group (`detached`) and zx's kill walks the tree and then
// signals the group. Arguments are interpolated as an array, so zx quotes each one; no caller ever
// builds a shell string from user data.

import { linkAbort } from './abort.js';

export interface RunOptions {
  /** Program and its arguments; argv[0] is looked up on PATH. */
  argv: string[];
  /** Written to the child's stdin, then stdin is closed. */
  input?: string;
  cwd?: string;
  /** The complete environment of the child (callers start from process.env when they want it). */
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface RunOutcome {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** Set when the program could not be started at all (not found, not executable). */
  spawnError?: string;
}

type Zx = typeof import('zx/core');
let zxModule: Promise<Zx> | undefined;
// zx costs ~100 ms to import; runs on the in-process mock engine never pay it.
function loadZx(): Promise<Zx> {
  zxModule ??= import('zx/core');
  return zxModule;
}

/** A child's own signal, linked to the run's through one listener (core/abort.ts). */
function childSignal(parent: AbortSignal | undefined): { signal?: AbortSignal; done(): void } {
  if (!parent) return { done: () => undefined };
  const own = new AbortController();
  return { signal: own.signal, done: linkAbort(parent, own) };
}

/**
 * The environment of zx's wrapping bash. A bash whose stdin is a socket (node's child pipes are socket
 * pairs) and whose SHLVL says it is top-level takes itself for a remote shell and sources ~/.bashrc before
 * `exec`: every agent spawned from cron, systemd or a CI runner (no SHLVL there) ran the user's shell set-up
 * first — pyenv's init and its rehash lock took 0.1–2 s a spawn here. With SHLVL set it is a nested shell.
 */
export function shellEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const level = Number(env.SHLVL);
  return Number.isInteger(level) && level >= 1 ? env : { ...env, SHLVL: '1' };
}

export async function runProcess(opts: RunOptions): Promise<RunOutcome> {
  if (opts.argv.length === 0) throw new Error('runProcess: empty argv');
  const { $ } = await loadZx();
  const child = childSignal(opts.signal);
  const started = performance.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
  }, opts.timeoutMs);
  try {
    const proc = $({
      quiet: true,
      nothrow: true,
      verbose: false,
      cwd: opts.cwd,
      env: shellEnv(opts.env ?? process.env),
      // zx writes nothing for an empty input and leaves stdin open; give such a child /dev/null instead.
      ...(opts.input ? { input: opts.input } : { stdio: ['ignore', 'pipe', 'pipe'] as const }),
      detached: true,
      timeout: opts.timeoutMs,
      timeoutSignal: 'SIGKILL',
      killSignal: 'SIGKILL',
      signal: child.signal,
    })`exec ${opts.argv}`;
    // A program that exits without reading its stdin closes the pipe under zx's write; that EPIPE is
    // not a failure of ours (the exit status says what happened) and must not crash the process.
    proc.child?.stdin?.on('error', () => undefined);
    const out = await proc;
    const durationMs = Math.round(performance.now() - started);
    const aborted = opts.signal?.aborted ?? false;
    const exitCode = out.exitCode;
    const outcome: RunOutcome = {
      exitCode,
      signal: out.signal,
      stdout: out.stdout,
      stderr: out.stderr,
      // Once our timer fired the run is a timeout, even if the killed tree let the parent exit 0 first.
      timedOut: timedOut && !aborted,
      aborted,
      durationMs,
    };
    // node reports a failed spawn (missing cwd, no bash) as a negative errno "exit code".
    if (exitCode !== null && exitCode < 0) outcome.spawnError = `cannot start ${opts.argv[0]}: ${out.stderr.trim() || `spawn error ${exitCode}`}`;
    // bash reports a missing or non-executable program as 127 / 126 before anything ran.
    if ((exitCode === 127 || exitCode === 126) && /not found|No such file|Permission denied|cannot execute/i.test(out.stderr)) {
      outcome.spawnError = `cannot run ${opts.argv[0]}: ${out.stderr.trim().split('\n').pop() ?? ''}`;
    }
    return outcome;
  } finally {
    clearTimeout(timer);
    child.done();
  }
}

/** A short, single-line description of how a run ended, for error messages. */
export function describeOutcome(o: RunOutcome, timeoutMs: number): string {
  if (o.spawnError) return o.spawnError;
  if (o.timedOut) return `timed out after ${timeoutMs} ms (process tree killed)`;
  if (o.aborted) return 'aborted';
  const tail = o.stderr.trim().split('\n').slice(-3).join(' | ').slice(0, 500);
  const how = o.signal ? `killed by ${o.signal}` : `exit code ${o.exitCode}`;
  return tail ? `${how}: ${tail}` : how;
}
