// Whether a process is still running, for the tests that check a killed run leaves no agent behind (the
// engines' tree-killing timeout, SIGTERM to whet): a process that has exited is gone, or a zombie waiting
// to be reaped (`Z`/`X` in /proc/<pid>/stat), which no longer runs anything.
import { readFileSync } from 'node:fs';

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw err;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false; // vanished between the two checks
  }
}

/** Waits up to `ms` for every one of `pids` to exit; those still running then (none when all exited). */
export async function waitAllDead(pids: number[], ms = 5000): Promise<number[]> {
  const deadline = Date.now() + ms;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter(isAlive);
  }
  return alive;
}
