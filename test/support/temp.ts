// Temporary folders for tests, each removed when its test file ends. `tempDir` records what it makes; the
// setup file (test/support/temp-cleanup.ts) removes them after the file's last hook, and a process-exit sweep
// removes whatever a run outside vitest made. Under vitest, the system temporary directory itself is a
// folder of the run's own (test/support/temp-root.ts), so what a spawned program leaves goes with it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const KEY = Symbol.for('whetstone.test.tempDirs');
type Registry = { dirs: string[]; sweep: boolean };

function registry(): Registry {
  const g = globalThis as { [KEY]?: Registry };
  return (g[KEY] ??= { dirs: [], sweep: false });
}

/** A new, empty folder under the system temporary directory, removed when the test file ends. */
export function tempDir(prefix = 'whet-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const reg = registry();
  reg.dirs.push(dir);
  if (!reg.sweep) {
    reg.sweep = true;
    process.once('exit', removeTempDirs);
  }
  return dir;
}

/** Remove every folder `tempDir` made so far (a read-only file or a busy folder does not stop the rest). */
export function removeTempDirs(): void {
  const reg = registry();
  for (const dir of reg.dirs.splice(0)) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Left for the run's own temporary root (temp-root.ts), removed when the run ends.
    }
  }
}
