// Temporary directories for engine calls. Each call gets its own directories, made with mkdtemp under
// os.tmpdir(), and every one of them is removed when the call ends — on success, on failure, on timeout
// and when the callback throws. Removal problems are swallowed: a leftover temp directory must never
// turn an answer into an error.
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, isAbsolute } from 'node:path';

export interface Workspace {
  /** Creates a fresh, empty directory (`<tmp>/<prefix>XXXXXX`) that is removed when the call ends. */
  tempDir(prefix: string): Promise<string>;
}

export async function withWorkspace<T>(fn: (ws: Workspace) => Promise<T>): Promise<T> {
  const created: string[] = [];
  const ws: Workspace = {
    async tempDir(prefix: string): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), prefix));
      created.push(dir);
      return dir;
    },
  };
  try {
    return await fn(ws);
  } finally {
    await Promise.all(
      created.map((dir) => rm(dir, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined)),
    );
  }
}

/** Copies a task's files into `cwd` at their relative paths; a path that would leave `cwd` is a bug upstream. */
export async function placeFiles(cwd: string, files: readonly { source: string; path: string }[] | undefined): Promise<void> {
  for (const f of files ?? []) {
    const dest = join(cwd, f.path);
    const rel = relative(cwd, dest);
    if (rel.startsWith('..') || isAbsolute(rel)) throw new Error(`task file ${f.path} would land outside the workspace`);
    await cp(f.source, dest, { recursive: true, dereference: true, errorOnExist: false, force: true });
  }
}
