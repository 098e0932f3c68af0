// The process around a program, for `whet` (src/cli.ts) and every stage program (src/stage-programs/<s>.ts): the
// signals, the exit code, stdout drained. This is the only module that exits the process: everything else
// throws one of the error classes in core/errors.ts or returns a result, and runProgram maps those to
// exit codes.
import type { CliDeps } from './deps.js';
import { runProgram, type ProgramBuilder } from './program.js';
import { enableCompileCache } from '../core/compile-cache.js';

/** Runs `build`'s program on `argv` as this process, and exits with its code. */
export async function main(argv: string[], build: ProgramBuilder): Promise<never> {
  // Before the command's code is imported, so that Node 22+ can keep it compiled (core/compile-cache.ts).
  enableCompileCache();
  const ac = new AbortController();
  let interrupts = 0;
  let terminated = false;
  process.on('SIGINT', () => {
    // First Ctrl-C: stop at the next task boundary and write what is done. Second: leave now.
    if (++interrupts > 1) process.exit(130);
    process.stderr.write('whet: stopping after the tasks in flight (Ctrl-C again to quit now)\n');
    ac.abort();
  });
  // SIGTERM (timeout(1), systemd, CI cancellation, kill) is the first Ctrl-C: the abort reaches every
  // engine call, whose agent process trees are killed, and the run is recorded as interrupted. Without
  // a handler Node would die at once and leave the agents (and their children) running. 143 = 128 + 15,
  // what a shell reports for a process ended by SIGTERM.
  process.on('SIGTERM', () => {
    if (terminated || ++interrupts > 1) process.exit(143);
    terminated = true;
    process.stderr.write('whet: terminated; stopping the tasks in flight\n');
    ac.abort();
  });
  // A reader that went away (`whet report | head`, a closed pager): what is still to be printed has nowhere
  // to go, which is no failure of the command. It finishes — its state and artifacts are on disk either
  // way — and exits with its own code; without this the write's EPIPE was an unhandled crash (exit 1).
  let stdoutGone = false;
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    stdoutGone = true;
    if (err.code !== 'EPIPE') process.stderr.write(`whet: stdout: ${err.message}; the rest of the output is dropped\n`);
  });
  const deps: CliDeps = {
    cwd: process.cwd(),
    env: process.env,
    now: () => new Date(),
    stdout: (s) => {
      if (!stdoutGone) process.stdout.write(s);
    },
    stderr: (s) => process.stderr.write(s),
    signal: ac.signal,
    tty: process.stderr.isTTY === true,
  };
  const runCode = await runProgram(argv, deps, build);
  // Let stdout drain before exiting (a pipe may still hold the summary).
  await new Promise<void>((r) => {
    if (stdoutGone || process.stdout.writableLength === 0) return r();
    process.stdout.once('drain', () => r());
    process.stdout.once('error', () => r());
  });
  process.exit(terminated ? 143 : runCode);
}
