// One writer per state directory. The lock is the folder `lock/` holding owner.json (pid, host, command,
// start time, a token). It appears in one step — a folder prepared beside it is renamed into place, and a
// rename never replaces a folder that has files in it — so there is never a lock without its owner, and
// a second process can always say who holds it. A holder keeps it for as long as it lives (lock-owner.ts
// says why that is decided from the process table and not from timestamps); a killed holder's lock is
// taken over at once by the next process. proper-lockfile did this with mtime staleness only and lost a
// lock whose folder we had written the owner into after ten seconds of every run.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { mapped } from '../core/atomic.js';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { StateError, UsageError } from '../core/errors.js';
import { stateLayout } from './layout.js';
import { describe, HEARTBEAT_MS, isAlive, judge, ownerFile, processStart, readOwner, sameHolding, type Owner } from './lock-owner.js';

export interface StateLock {
  release(): Promise<void>;
}

export interface LockOptions {
  /** Where a human-readable line goes when the lock is lost while held (default: stderr). */
  report?: (line: string) => void;
}

const ATTEMPTS = 5;
const LEFTOVER_MS = 60_000;

export async function acquireStateLock(stateDir: string, command: string, opts: LockOptions = {}): Promise<StateLock> {
  makeStateDir(stateDir);
  const lockPath = stateLayout.lock(stateDir);
  const me: Owner = { pid: process.pid, host: hostname(), command, since: new Date().toISOString(), token: randomUUID() };
  const start = processStart(process.pid);
  if (start) me.start = start;
  for (let i = 0; i < ATTEMPTS; i++) {
    if (tryCreate(lockPath, me)) {
      sweepLeftovers(stateDir);
      return hold(stateDir, lockPath, me, opts.report ?? ((l) => process.stderr.write(`${l}\n`)));
    }
    const owner = readOwner(lockPath);
    if (!exists(lockPath)) continue;
    const j = judge(lockPath, owner);
    if (j.held) throw new StateError(`state directory ${stateDir} is in use by ${j.who}; wait for it to finish or stop it, or use another --state-root`);
    takeOver(lockPath, owner, me.token!);
  }
  throw new StateError(`state directory ${stateDir}: could not take its lock after ${ATTEMPTS} attempts (other processes keep taking it); try again`);
}

/**
 * A process killed between preparing its lock folder and renaming it (or while moving one aside) leaves
 * `lock.<token>.new|stale|released` behind. Old ones go; a young one may be another process's lock being
 * made right now, so it goes only when the owner it names is a process of this host that is gone.
 */
function sweepLeftovers(stateDir: string): void {
  for (const name of readdirSync(stateDir)) {
    if (!/^lock\.[0-9a-f-]{36}\.(new|stale|released)$/.test(name)) continue;
    const path = join(stateDir, name);
    try {
      const old = Date.now() - statSync(path).mtimeMs > LEFTOVER_MS;
      const owner = old ? undefined : readOwner(path);
      const dead = owner !== undefined && owner.host === hostname() && !isAlive(owner.pid, owner.start);
      if (old || dead) rmSync(path, { recursive: true, force: true });
    } catch {
      // Gone meanwhile.
    }
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Renames a prepared folder into place; false when a lock is already there. */
function tryCreate(lockPath: string, me: Owner): boolean {
  const fresh = `${lockPath}.${me.token}.new`;
  mkdirSync(fresh);
  try {
    // The folder's rename is what makes the lock appear whole; its owner file is written in one call, so a
    // kill leaves at most a young folder that the next process sweeps once its owner is gone.
    writeFileSync(ownerFile(fresh), JSON.stringify(me));
    renameSync(fresh, lockPath);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOSPC') throw mapped(err, ownerFile(fresh));
    if (code === 'EEXIST' || code === 'ENOTEMPTY' || code === 'ENOTDIR' || code === 'EISDIR') return false;
    throw new StateError(`cannot create the lock ${lockPath}: ${(err as Error).message}`);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
}

/**
 * Moves an abandoned lock aside and removes it. Between judging it and moving it another process may
 * have taken it over and made its own: a moved lock that is not the one judged is put back.
 */
function takeOver(lockPath: string, judged: Owner | undefined, token: string): void {
  const aside = `${lockPath}.${token}.stale`;
  try {
    renameSync(lockPath, aside);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new StateError(`cannot take over the abandoned lock ${lockPath}: ${(err as Error).message}`);
  }
  if (!sameHolding(readOwner(aside), judged)) {
    try {
      renameSync(aside, lockPath);
      return;
    } catch {
      // Yet another process took the place meanwhile; the holder whose lock was moved reports the loss.
    }
  }
  rmSync(aside, { recursive: true, force: true });
}

function hold(stateDir: string, lockPath: string, me: Owner, report: (line: string) => void): StateLock {
  let lost = false;
  let misses = 0;
  const ours = () => readOwner(lockPath)?.token === me.token;
  const beat = setInterval(() => {
    if (ours()) {
      misses = 0;
      const now = new Date();
      try {
        utimesSync(ownerFile(lockPath), now, now);
      } catch {
        // Removed under us: the next beat sees it.
      }
      return;
    }
    // Twice in a row: a takeover that moves a lock aside and puts it back is not a loss.
    if (++misses < 2) return;
    lost = true;
    clearInterval(beat);
    const other = readOwner(lockPath);
    const now = other ? `it is now held by ${describe(other)}` : 'its lock folder was removed';
    report(`whet: warning: this process lost its lock on state directory ${stateDir}: ${now}. Two processes may now write the same runs; let this one finish or stop it before starting another.`);
  }, HEARTBEAT_MS);
  beat.unref();
  const releaseNow = () => {
    clearInterval(beat);
    process.off('exit', releaseNow);
    if (lost || !ours()) return;
    const aside = `${lockPath}.${me.token}.released`;
    try {
      renameSync(lockPath, aside);
      rmSync(aside, { recursive: true, force: true });
    } catch {
      // Already gone: nothing is left to release.
    }
  };
  // process.exit (a second Ctrl-C) skips every finally: the lock goes with the process anyway.
  process.on('exit', releaseNow);
  return { release: async () => releaseNow() };
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

export type RunLiveness = { alive: true } | { alive: false; why: string };

/**
 * Whether a run whose run.json says `running` has a live process behind it (issue 39): the state lock
 * held — by the same judgement a new command makes before taking it over — by a holder that is this run
 * (a loop names its run in the lock's command) or names no run. A run killed with kill -9 never wrote
 * `interrupted`; the read models say it from this, so a dead run is not shown as running.
 */
export function runLiveness(stateDir: string, runId: string): RunLiveness {
  const lockPath = stateLayout.lock(stateDir);
  if (!exists(lockPath)) return { alive: false, why: 'no process holds the state lock' };
  const owner = readOwner(lockPath);
  const j = judge(lockPath, owner);
  if (!j.held) return { alive: false, why: j.why };
  const named = owner ? /\(([^()\s]+)\)\s*$/.exec(owner.command)?.[1] : undefined;
  if (named !== undefined && named !== runId) return { alive: false, why: `the state lock is held by another run (${describe(owner!)})` };
  return { alive: true };
}
