// The one definition of a safe id. Run, candidate, task, case and variant ids become file and folder
// names inside the state directory (runs/<run>/iter-NNN/results/<variant>.jsonl …), so an id read from a
// flag, a suite, a ranking or any artifact must be a plain file name before it reaches a path: no
// separator, no "." or "..", no NUL, nothing a file system treats specially, and a bounded length.
// Every entry point checks with this file (`checkIdFlag` for the command line; schemas with the zod forms
// in safe-id-schema.ts, kept apart so the commands that only check a flag load no zod); the path
// layer (src/state/layout.ts) checks again with `insideRoot`, so an entry point that was missed is an
// internal error rather than a write outside the state directory.
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { InternalError, UsageError } from '../core/errors.js';

export const SAFE_ID_MAX = 128;
/** Letters, digits, ".", "_", "-"; a letter or digit first (so never "." / ".." / a hidden or flag-like name). */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** Iteration folders are iter-NNN; a bound keeps a number from a file from naming something absurd. */
export const MAX_ITERATION = 99_999;

const RULE = `letters, digits, ".", "_" or "-", starting with a letter or digit, at most ${SAFE_ID_MAX} characters`;

/** Why `value` is not a safe id, or undefined when it is one. */
export function unsafeIdProblem(value: string): string | undefined {
  if (SAFE_ID.test(value)) return undefined;
  const why = (() => {
    if (value.length === 0) return 'it is empty';
    if (value.includes('\0')) return 'it contains a NUL byte';
    if (value === '.' || value === '..') return `"${value}" names a folder, not a file`;
    if (isAbsolute(value) || /^[A-Za-z]:/.test(value)) return 'it is an absolute path';
    const sep = /[/\\]/.exec(value);
    if (sep) return `it contains ${JSON.stringify(sep[0])} (a path separator)`;
    if (value.length > SAFE_ID_MAX) return `it is ${value.length} characters long`;
    if (!/^[A-Za-z0-9]/.test(value)) return `it starts with ${JSON.stringify([...value][0])}`;
    const bad = [...value].find((ch) => !/[A-Za-z0-9._-]/.test(ch));
    return `it contains ${JSON.stringify(bad)}`;
  })();
  return `must be a safe file name: ${why}; use ${RULE}`;
}

export function isSafeId(value: unknown): value is string {
  return typeof value === 'string' && SAFE_ID.test(value);
}

/** How an offending value is quoted in a message: escaped, and cut when very long. */
export function shownId(value: string): string {
  const q = JSON.stringify(value);
  return q.length > 60 ? `${q.slice(0, 40)}…" (${value.length} characters)` : q;
}

/** A command-line id (`--run`, a RUN or CANDIDATE argument): the id itself, or a UsageError (exit 2). */
export function checkIdFlag(value: string, flag: string): string {
  const problem = unsafeIdProblem(value);
  if (problem) throw new UsageError(`${flag} ${shownId(value)}: ${problem}`);
  return value;
}

/**
 * `path` resolved, after checking it stays inside `root` (the state directory, a run folder). Every path
 * the layout builds from an id goes through here: an unsafe id that slipped past its entry point is a
 * bug in whetstone, and it stops here instead of touching a file outside.
 */
export function insideRoot(root: string, path: string, what: string): string {
  const abs = resolve(path);
  const rel = relative(resolve(root), abs);
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel) || path.includes('\0')) {
    throw new InternalError(`${what} ${shownId(path)} is not inside ${root}: an unchecked id reached the path layer`);
  }
  return path;
}

/** The id part of a path, checked the same way (an id reaching the layout must already be safe). */
export function layoutId(value: string, what: string): string {
  const problem = unsafeIdProblem(value);
  if (problem) throw new InternalError(`${what} ${shownId(value)} reached the path layer unchecked: ${problem}`);
  return value;
}

/** `--iteration N`: a whole number from 1 to MAX_ITERATION, or a UsageError (Number('') would be 0). */
export function checkIterationFlag(value: string, flag = '--iteration'): number {
  const n = Number(value);
  if (!/^[1-9]\d*$/.test(value.trim()) || n > MAX_ITERATION) throw new UsageError(`${flag} must be a whole number from 1 to ${MAX_ITERATION}, not ${shownId(value)}`);
  return n;
}
