// Files a suite names for its judges (pytest tests, JSON Schemas, judge specs) live next to the suite:
// checked when the suite is read (suite.ts) and again when a judge opens them. A suite can come from
// someone else, so a judge must not be able to reach outside its folder: lexically (`../x`, absolute
// paths elsewhere) nor through a symlink inside the folder that points out. Both checks are needed —
// the lexical one gives a clear message for the common mistake, the realpath one closes the symlink hole.
import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export type ResolvedPath = { ok: true; path: string } | { ok: false; message: string };

/** True when `target` is strictly below `base` (both absolute). */
export function isInside(base: string, target: string): boolean {
  const rel = path.relative(base, target);
  if (rel === '' || path.isAbsolute(rel)) return false;
  return rel !== '..' && !rel.startsWith(`..${path.sep}`);
}

/**
 * Resolves `file` against the suite folder and returns its real path, or why it is refused.
 * `what` names the file in messages ("pytest test_file", "JSON Schema").
 */
export async function resolveInsideSuite(suiteDir: string, file: string, what: string): Promise<ResolvedPath> {
  const base = path.resolve(suiteDir);
  const target = path.resolve(base, file);
  if (!isInside(base, target)) {
    return { ok: false, message: `${what} ${JSON.stringify(file)} is outside the suite folder ${base}; refused` };
  }
  let realBase: string;
  try {
    realBase = await realpath(base);
  } catch {
    return { ok: false, message: `suite folder ${base} does not exist` };
  }
  let realTarget: string;
  try {
    realTarget = await realpath(target);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'not found' : `cannot be read (${code ?? String(err)})`;
    return { ok: false, message: `${what} ${JSON.stringify(file)} ${why}: ${target}` };
  }
  if (!isInside(realBase, realTarget)) {
    return {
      ok: false,
      message: `${what} ${JSON.stringify(file)} resolves outside the suite folder (through a symlink) to ${realTarget}; refused`,
    };
  }
  const info = await stat(realTarget);
  if (!info.isFile()) return { ok: false, message: `${what} ${JSON.stringify(file)} is not a file: ${realTarget}` };
  return { ok: true, path: realTarget };
}

/**
 * The seed's pytest judge ran "pytest on fixtures/{test_file}", so seed suites name a bare `test_x.py`
 * that lives in `fixtures/`. The path as written wins when it exists; else `fixtures/<file>` when that
 * exists and stays inside `fixtures/` (a `../` cannot use the fallback to reach elsewhere). The result
 * is still checked for confinement by whoever opens it.
 */
export function pytestFileInSuite(suiteDir: string, file: string): string {
  const base = path.resolve(suiteDir);
  if (path.isAbsolute(file) || existsSync(path.resolve(base, file))) return file;
  const fixtures = path.join(base, 'fixtures');
  const fallback = path.resolve(fixtures, file);
  return isInside(fixtures, fallback) && existsSync(fallback) ? path.relative(base, fallback) : file;
}
