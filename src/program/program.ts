// The scaffolding every whetstone program stands on — `whet` (src/cli.ts) and each stage program
// (src/stage-programs/<s>.ts) alike: a commander program with whetstone's version, output and error conventions,
// and `runCli`, which runs one without exiting and maps what it throws to an exit code (docs/reference/cli.md "Exit codes": 0 ok,
// 1 a gate or threshold failed, 2 bad usage or input, 3 engine or infrastructure error). Below the
// commands, so a stage program needs nothing of the CLI's own module to be a program.
import { Command, CommanderError } from 'commander';
import { WhetError, isNoSpace } from '../core/errors.js';
import { VERSION } from '../core/package-info.js';
import { redactText } from '../core/redact.js';
import type { CliDeps, SetCode } from './deps.js';

/** Builds the commander program for one call (only the command families it needs are imported). */
export type ProgramBuilder = (argv: string[], deps: CliDeps, setCode: SetCode) => Promise<Command>;

/** A commander program named `name` with whetstone's version, output and error conventions. */
export function baseProgram(name: string, deps: CliDeps): Command {
  return new Command(name)
    .version(VERSION)
    .exitOverride()
    .configureOutput({ writeOut: deps.stdout, writeErr: deps.stderr })
    .showHelpAfterError('(run with --help for usage)');
}

/** Runs the program `build` makes for `argv` without exiting; returns the exit code. */
export async function runProgram(argv: string[], raw: CliDeps, build: ProgramBuilder): Promise<number> {
  // Everything printed passes the one redaction (src/core/redact.ts): a key in a base_url or an argv value that
  // reached a message (a config error quoting it, an engine error naming the URL) is not shown.
  const deps: CliDeps = { ...raw, stdout: (s) => raw.stdout(redactText(s)), stderr: (s) => raw.stderr(redactText(s)) };
  let code = 0;
  try {
    await (await build(argv, deps, (c) => (code = c))).parseAsync(argv, { from: 'user' });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (err instanceof WhetError) {
      deps.stderr(`whet: ${err.message}\n`);
      return err.exitCode;
    }
    // A write that bypassed src/core/atomic.ts (a folder made, a file moved) on a full disk is still a full
    // disk, not a bug: said plainly, without a stack trace.
    if (isNoSpace(err)) {
      deps.stderr(`whet: no space left on device at ${err.path ?? 'the state directory'}; free some space, then run the command again\n`);
      return 3;
    }
    deps.stderr(`whet: internal error: ${(err as Error).stack ?? String(err)}\n`);
    return 3;
  }
}
