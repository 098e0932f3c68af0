// A little room kept aside in a running loop run's folder, so that a full disk can still be recorded
// (issue 33). When a write finds no space, marking the run `interrupted` means writing run.json and
// events.jsonl — which find no room either, and the run was left saying `running`. So while a process
// runs a run's stages, 16 KiB of zeros sit in `.space-reserve`; on a full disk the runner releases them,
// then marks the run. Whatever way the process leaves the run, the reserve goes with it.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicallySync } from '../core/atomic.js';

const RESERVE_BYTES = 16 * 1024;

const reserveOf = (runDir: string) => join(runDir, '.space-reserve');

/** Makes the reserve if it is not there; no room for it is no error (the marking is best effort then). */
export function keepReserve(runDir: string): void {
  const file = reserveOf(runDir);
  if (existsSync(file)) return;
  try {
    writeFileAtomicallySync(file, Buffer.alloc(RESERVE_BYTES));
  } catch {
    // A disk already this full fails at the next write anyway, and says so.
  }
}

/** Gives the reserve's room back: before recording a full disk, and when the run stops running stages. */
export function releaseReserve(runDir: string): void {
  rmSync(reserveOf(runDir), { force: true });
}
