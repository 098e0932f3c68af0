// One writer per state directory. proper-lockfile makes the lock (an mkdir, refreshed while held); we
// add the owner's pid and host inside it so that a lock left by a process killed with -9 is recovered at
// once when that pid is gone, instead of after the stale timeout, and so a refusal can say who holds it.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import { StateError, UsageError } from '../errors.js';
import { stateLayout } from './layout.js';
import { log } from '../log.js';

export interface StateLock {
  release(): Promise<void>;
}

interface Owner {
  pid: number;
  host: string;
  command: string;
  since: string;
}

export async function acquireStateLock(stateDir: string, command: string): Promise<StateLock> {
  makeStateDir(stateDir);
  const lockPath = stateLayout.lock(stateDir);
  const attempt = () =>
    lockfile.lock(stateDir, {
      lockfilePath: lockPath,
      realpath: false,
      stale: 30_000,
      update: 10_000,
      retries: 0,
      // Losing the lock mid-run (clock jump, someone deleting it) must not crash a run half-written.
      onCompromised: (err) => log.warn({ stateDir, err: err.message }, 'state lock compromised'),
    });
  let release: () => Promise<void>;
  try {
    release = await attempt();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ELOCKED') throw err;
    const owner = readOwner(lockPath);
    if (owner && owner.host === hostname() && !isAlive(owner.pid)) {
      rmSync(lockPath, { recursive: true, force: true });
      release = await attempt();
    } else {
      const who = owner ? `pid ${owner.pid} on ${owner.host} (${owner.command}, since ${owner.since})` : 'another process';
      throw new StateError(`state directory ${stateDir} is in use by ${who}; wait for it to finish or stop it, or use another --state-root`);
    }
  }
  const owner: Owner = { pid: process.pid, host: hostname(), command, since: new Date().toISOString() };
  writeFileSync(join(lockPath, 'owner.json'), JSON.stringify(owner));
  return {
    release: async () => {
      try {
        rmSync(join(lockPath, 'owner.json'), { force: true });
        await release();
      } catch {
        // Already released or removed: nothing left to do.
      }
    },
  };
}

function readOwner(lockPath: string): Owner | undefined {
  try {
    return JSON.parse(readFileSync(join(lockPath, 'owner.json'), 'utf8')) as Owner;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}


/**
 * Creates the state directory. A file where it (or a folder above it) should be is the user's path
 * being wrong, not a whetstone bug: say which path, instead of an ENOTDIR/EEXIST stack trace.
 */
function makeStateDir(stateDir: string): void {
  try {
    mkdirSync(stateDir, { recursive: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOTDIR' && code !== 'EEXIST') throw new StateError(`cannot create state directory ${stateDir}: ${(err as Error).message}`);
    const file = firstFileOn(stateDir);
    const what = file === stateDir ? 'is a file' : `cannot be created: ${file} is a file`;
    throw new UsageError(`state directory ${stateDir} ${what}, not a directory; point --state-root (or state_dir in pipeline.yaml) at a directory`);
  }
}

/** The path itself or the nearest folder above it that exists as something other than a directory. */
function firstFileOn(path: string): string {
  let found = path;
  for (let p = path; ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) found = p;
    } catch {
      // Not there (or not reachable through a file): look further up.
    }
    if (dirname(p) === p) return found;
  }
}
