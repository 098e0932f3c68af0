// The candidates waiting for a person, as one verified list: what `whet review list` prints and the
// viewer's review queue shows (issue 42). The viewer once read the gates itself and offered a candidate whose
// gate.json had been forged to pending_review, which `whet review list` rightly left out and approving
// refused. A candidate is offered only when approving it would get past the refusal `whet review` makes
// first (refuse-damaged.ts): its run passes verify-run.ts's check.
import { findPending } from '../loop/pending.js';
import type { GateArtifact } from '../artifacts/gate.js';
import { readRecords } from '../state/records-read.js';
import { stateLayout } from '../state/layout.js';
import type { Problem } from '../state/verify-files.js';
import { blocking } from './refuse-damaged.js';
import { listRuns } from './status.js';

export interface Waiting {
  run_id: string;
  runDir: string;
  iteration: number;
  gate: GateArtifact;
}

export interface ReviewQueue {
  pending: Waiting[];
  /** The damage of loop runs whose candidates are not offered (approving would be refused). */
  problems: Problem[];
}

export async function reviewQueue(stateDir: string, now: Date): Promise<ReviewQueue> {
  const pending: Waiting[] = [];
  const problems: Problem[] = [];
  for (const r of await listRuns(stateDir, now)) {
    if (r.mode !== 'loop') continue;
    const runDir = stateLayout.runDir(stateDir, r.run_id);
    const bad = r.problems.length ? blocking(r.problems, readRecords(runDir).legacy) : [];
    if (bad.length) {
      problems.push(...bad);
      continue;
    }
    for (const p of findPending(runDir)) pending.push({ run_id: r.run_id, runDir, iteration: p.iteration, gate: p.gate });
  }
  return { pending, problems };
}
