// The copies a run on the mock improves instead of the author's skill (state/mock-copies/<run>/, issue 41).
// A copy lives as long as its run: `whet prune` removes the copy of every run it removes, and both prune and
// every new mock run remove the copies whose run folder is gone (removed by hand), so the folder holds at
// most one copy per run in runs/ and never grows past the runs themselves.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { isSafeId } from '../config/safe-id.js';
import { stateLayout } from './layout.js';

/** The runs that have a mock copy, by folder name. */
export function mockCopyRuns(stateDir: string): string[] {
  const dir = stateLayout.mockCopies(stateDir);
  return existsSync(dir) ? readdirSync(dir).filter(isSafeId).sort() : [];
}

/** Copies whose run folder no longer exists. */
export function orphanMockCopies(stateDir: string): string[] {
  return mockCopyRuns(stateDir).filter((id) => !existsSync(stateLayout.runDir(stateDir, id)));
}

/** Removes a run's copy (nothing if it has none). */
export function removeMockCopy(stateDir: string, runId: string): void {
  rmSync(stateLayout.mockCopy(stateDir, runId), { recursive: true, force: true });
}

/** Removes every copy whose run is gone; returns their run ids. */
export function removeOrphanMockCopies(stateDir: string): string[] {
  const gone = orphanMockCopies(stateDir);
  for (const id of gone) removeMockCopy(stateDir, id);
  return gone;
}
