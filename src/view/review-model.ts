// The review queue: every candidate a gate held for a person (pending_review), with its diff and the gate's
// checks, as `whet review list` finds them (src/loop/pending.ts findPending). Deciding one is not done
// here: the server hands approve/reject to the function `whet review` itself runs (commands/promote.ts),
// passed in by the command, so the viewer cannot drift from the command's checks, lock and messages.
import { listRuns } from '../inspect/status.js';
import { findPending } from '../loop/pending.js';
import { iterationPaths } from '../loop/paths.js';
import { stateLayout } from '../state/layout.js';
import { readLenient, type Json } from '../state/read-lenient.js';

export interface PendingView {
  run_id: string;
  iteration: number;
  candidate: string;
  title: string;
  reason: string;
  checks: { id: string; passed: boolean; detail: string }[];
  diff: string;
}

export async function pendingReviews(stateDir: string, now: Date): Promise<PendingView[]> {
  const out: PendingView[] = [];
  for (const r of await listRuns(stateDir, now)) {
    if (r.mode !== 'loop') continue;
    const runDir = stateLayout.runDir(stateDir, r.run_id);
    for (const p of findPending(runDir)) {
      const id = p.gate.candidate_id ?? '';
      const cands = readLenient(iterationPaths(runDir, p.iteration).candidates);
      const c = (cands?.candidates ?? []).find((x: Json) => x.id === id) as Json | undefined;
      out.push({ run_id: r.run_id, iteration: p.iteration, candidate: id, title: String(c?.title ?? id), reason: p.gate.reason, checks: p.gate.checks, diff: String(c?.diff ?? '') });
    }
  }
  return out;
}

/** What the command gives the server to decide a held candidate; resolves to `whet review`'s own message. */
export type ReviewAction = (run: string, candidate: string, verdict: 'approve' | 'reject', iteration: number) => Promise<string>;
