// Temporary directories for engine calls. Each call gets its own directories, made with mkdtemp under
// os.tmpdir(), and every one of them is removed when the call ends — on success, on failure, on timeout
// and when the callback throws. Removal problems are swallowed: a leftover temp directory must never
// turn an answer into an error.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
