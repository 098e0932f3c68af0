// The review queue: every candidate a gate held for a person (pending_review), with its diff and the gate's
// checks, from the one verified list `whet review list` prints (src/inspect/review-queue.ts): a candidate
// of a damaged run, a forged gate.json's included, is never offered. Deciding one is not done
// here: the server hands approve/reject to the function `whet review` itself runs (commands/promote.ts),
// passed in by the command, so the viewer cannot drift from the command's checks, lock and messages.
import { reviewQueue } from '../inspect/review-queue.js';
import { iterationPaths } from '../loop/paths.js';
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
  for (const p of (await reviewQueue(stateDir, now)).pending) {
    const id = p.gate.candidate_id ?? '';
    const cands = readLenient(iterationPaths(p.runDir, p.iteration).candidates);
    const c = (cands?.candidates ?? []).find((x: Json) => x.id === id) as Json | undefined;
    out.push({ run_id: p.run_id, iteration: p.iteration, candidate: id, title: String(c?.title ?? id), reason: p.gate.reason, checks: p.gate.checks, diff: String(c?.diff ?? '') });
  }
  return out;
}

/** What the command gives the server to decide a held candidate; resolves to `whet review`'s own message. */
export type ReviewAction = (run: string, candidate: string, verdict: 'approve' | 'reject', iteration: number) => Promise<string>;
