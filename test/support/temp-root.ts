// vitest globalSetup: the run's own temporary directory. TMPDIR (and TMP/TEMP) point at a fresh folder
// under the system's for the whole run — every worker, every program a test spawns (engines' workspaces,
// Chromium's profiles, npm) — and the folder is removed when the run ends, so a run leaves nothing in the
// system temporary directory (`.ci/run` counts its entries before and after). It also prints what was left
// in it by anything other than `tempDir`, which cleans up after each file itself.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(join(tmpdir(), 'whet-vitest-'));
  for (const name of ['TMPDIR', 'TMP', 'TEMP']) process.env[name] = root;
  // npm runs the tests with SHLVL=0: a bash script the tests start themselves (pyenv's python3 shim, a fake
  // CLI) would take itself for a remote top-level shell, source ~/.bashrc and wait on pyenv's rehash lock.
  // whetstone's own spawns set it (src/core/proc.ts shellEnv); the tests' direct ones get it here.
  if (!(Number(process.env.SHLVL) >= 1)) process.env.SHLVL = '1';
  return () => {
    let left: string[] = [];
    try {
      left = readdirSync(root);
    } catch {
      return;
    }
    if (left.length > 0) {
      const shown = left.slice(0, 10).join(', ');
      process.stdout.write(`temporary entries left by the run, removed now: ${left.length} (${shown}${left.length > 10 ? ', …' : ''})\n`);
    }
    rmSync(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
