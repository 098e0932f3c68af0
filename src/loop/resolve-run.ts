// Which run a command means: the named one (checked to exist), or the newest improvement-loop run. Apart
// from open.ts so `whet status`, `show` and `diff` find a run without loading config and suite code.
import { existsSync, readdirSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { checkIdFlag, isSafeId } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { iterations } from './iterations.js';

/**
 * Whether run.json says this is a loop run. Only the mode is read, leniently, as status reads it: the
 * command that acts on the run opens it through its schema and names what is wrong there, rather than an
 * older run being chosen in silence. Reading no schema keeps zod out of `whet show`.
 */
const isLoopRun = (stateDir: string, id: string) => {
  const dir = stateLayout.runDir(stateDir, id);
  const m = readLenient(stateLayout.runManifest(dir));
  // run.json lost or unreadable: a folder with iterations was a loop run, and the read models name the damage.
  return m ? m.mode === 'loop' : existsSync(stateLayout.events(dir)) && iterations(dir).length > 0;
};

/** The newest run in the state dir, or the named one. */
export function resolveRun(stateDir: string, runId?: string): string {
  const runs = stateLayout.runsDir(stateDir);
  if (runId !== undefined) {
    checkIdFlag(runId, 'run');
    const dir = stateLayout.runDir(stateDir, runId);
    if (!existsSync(stateLayout.runManifest(dir)) && !existsSync(stateLayout.events(dir))) throw new UsageError(`no run "${runId}" in ${stateDir}`);
    return runId;
  }
  const newest = existsSync(runs)
    ? readdirSync(runs)
        .filter(isSafeId)
        .sort()
        .reverse()
        .find((id) => isLoopRun(stateDir, id))
    : undefined;
  if (!newest) throw new UsageError(`no improvement-loop run in ${stateDir}; start one with "whet run"`);
  return newest;
}
