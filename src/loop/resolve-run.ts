// Which run a command means: the named one (checked to exist), or the newest improvement-loop run. Apart
// from open.ts so `whet status`, `show` and `diff` find a run without loading config and suite code.
import { existsSync, readdirSync } from 'node:fs';
import { readArtifact } from '../state/artifact-io.js';
import { UsageError } from '../core/errors.js';
import { checkIdFlag, isSafeId } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { loopManifest } from './manifest.js';

/** The newest run in the state dir, or the named one. */
export function resolveRun(stateDir: string, runId?: string): string {
  const runs = stateLayout.runsDir(stateDir);
  if (runId !== undefined) {
    checkIdFlag(runId, 'run');
    if (!existsSync(stateLayout.runManifest(stateLayout.runDir(stateDir, runId)))) throw new UsageError(`no run "${runId}" in ${stateDir}`);
    return runId;
  }
  const loops = existsSync(runs)
    ? readdirSync(runs)
        .filter(isSafeId)
        .sort()
        .reverse()
        .filter((id) => {
          try {
            return readArtifact(stateLayout.runManifest(stateLayout.runDir(stateDir, id)), loopManifest).mode === 'loop';
          } catch {
            return false;
          }
        })
    : [];
  if (!loops[0]) throw new UsageError(`no improvement-loop run in ${stateDir}; start one with "whet run"`);
  return loops[0];
}
