// The few error classes whetstone has. Each carries the exit code the CLI uses (docs/reference/cli.md "Exit codes"):
// 2 bad usage or bad input, 3 engine or infrastructure error. Only src/cli.ts turns them into an exit.

export abstract class WhetError extends Error {
  abstract readonly exitCode: number;
}

/** The command line itself is wrong (missing flag, conflicting flags). */
export class UsageError extends WhetError {
  readonly exitCode = 2;
  override name = 'UsageError';
}

/** A file the user wrote is wrong; `where` is `file:line:col` when known. */
export class ConfigError extends WhetError {
  readonly exitCode = 2;
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly where?: string,
    readonly field?: string,
  ) {
    super(formatLocated(where, field, message));
  }
}

/** An engine, a judge's runtime or the machine failed; never a task failure. */
export class EngineError extends WhetError {
  readonly exitCode = 3;
  override name = 'EngineError';
}

/** Another process holds the state directory, or the state directory is inconsistent. */
export class StateError extends WhetError {
  readonly exitCode = 3;
  override name = 'StateError';
}

/**
 * The disk (or the user's quota) is full: what whetstone was writing is named, and nothing was left half
 * written (every write goes through atomic.ts). A loop run is marked interrupted and resumes once there is room.
 */
export class NoSpaceError extends StateError {
  override name = 'NoSpaceError';
  constructor(
    readonly path: string,
    /** What to do next, said after the path (a loop run names its resume command). */
    readonly then = 'free some space, then run the command again',
  ) {
    super(`no space left on device at ${path}; ${then}`);
  }
}

/** ENOSPC (disk full) or EDQUOT (quota reached): the two ways a write finds no room. */
export function isNoSpace(err: unknown): err is NodeJS.ErrnoException {
  if (err instanceof NoSpaceError) return true;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** A bug in whetstone. */
export class InternalError extends WhetError {
  readonly exitCode = 3;
  override name = 'InternalError';
}

export function formatLocated(where: string | undefined, field: string | undefined, message: string): string {
  const head = [where, field].filter((s) => s && s.length > 0).join(' ');
  return head ? `${head}: ${message}` : message;
}

/** Several located problems at once, so a user fixes a file in one pass. */
export class ConfigErrors extends ConfigError {
  constructor(
    readonly problems: ConfigError[],
    /** Problems found but not listed (a broken file can have thousands). */
    readonly more = 0,
  ) {
    super([...problems.map((p) => p.message), ...(more > 0 ? [`… and ${more} more problem${more === 1 ? '' : 's'}`] : [])].join('\n'));
  }
}

/** The problems of one file as one error: the first `max` listed, and how many more there were. */
export function configProblems(problems: ConfigError[], max = 30): ConfigError {
  if (problems.length === 1) return problems[0]!;
  return new ConfigErrors(problems.slice(0, max), Math.max(0, problems.length - max));
}
