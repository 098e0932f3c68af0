// Who holds a state lock, and whether that holder is still there. On the holder's own machine the answer
// comes from the process table (is that pid alive, and is it the same process — not a later one that was
// given the recycled pid), never from a timestamp: a run may block its event loop, be suspended or run
// for hours, and it keeps its lock for as long as it lives; a killed one loses it at once. Only a lock
// written on another machine (a state directory on a shared disk) is judged by its heartbeat's age.
import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface Owner {
  pid: number;
  host: string;
  command: string;
  since: string;
  /** Tells this holding apart from any other, so a takeover or release never removes a newer lock. */
  token?: string;
  /** The process's start time in clock ticks after boot (Linux /proc), to recognise a recycled pid. */
  start?: string;
}

/** A lock on another machine whose heartbeat is older than this is abandoned. */
export const FOREIGN_STALE_MS = 60_000;
/** How often a holder refreshes its heartbeat and checks that the lock is still its own. */
export const HEARTBEAT_MS = 5_000;
/** A lock folder without a readable owner (a holder killed between mkdir and write, an old version's
 *  leftover) older than this is abandoned; younger, it may be a lock being written right now. */
export const ORPHAN_MS = 10_000;

export const ownerFile = (lockPath: string) => join(lockPath, 'owner.json');

export function readOwner(lockPath: string): Owner | undefined {
  try {
    const o = JSON.parse(readFileSync(ownerFile(lockPath), 'utf8')) as Partial<Owner>;
    return typeof o.pid === 'number' && typeof o.host === 'string' ? (o as Owner) : undefined;
  } catch {
    return undefined;
  }
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name, which may hold spaces). */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
  } catch {
    return undefined;
  }
}

/** The process is running (a zombie is not: it was killed and waits only to be reaped). */
export function isAlive(pid: number, start?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const state = processState(pid);
  if (state === 'Z' || state === 'X') return false;
  const now = processStart(pid);
  return !(start && now && now !== start);
}

export type Judgement = { held: true; who: string } | { held: false; why: string };

export function describe(o: Owner): string {
  return `pid ${o.pid} on ${o.host} (${o.command}, since ${o.since})`;
}

function ageMs(path: string, now: number): number | undefined {
  try {
    return now - statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Whether the lock at lockPath still belongs to a live holder, from the facts on disk right now. */
export function judge(lockPath: string, owner: Owner | undefined, now = Date.now()): Judgement {
  if (!owner) {
    const age = ageMs(lockPath, now) ?? 0;
    if (age > ORPHAN_MS) return { held: false, why: `a lock without an owner record, ${Math.round(age / 1000)}s old` };
    return { held: true, who: 'another process (its lock is being written)' };
  }
  if (owner.host === hostname()) {
    if (isAlive(owner.pid, owner.start)) return { held: true, who: describe(owner) };
    return { held: false, why: `${describe(owner)} is gone` };
  }
  const age = ageMs(ownerFile(lockPath), now) ?? 0;
  if (age > FOREIGN_STALE_MS) return { held: false, why: `${describe(owner)} has not refreshed it for ${Math.round(age / 1000)}s` };
  return { held: true, who: describe(owner) };
}

/** The same holding: the token when both have one (owners written by older versions have none). */
export function sameHolding(a: Owner | undefined, b: Owner | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.token || b.token) return a.token === b.token;
  return a.pid === b.pid && a.host === b.host && a.since === b.since;
}
