// The candidates a gate held for a person (decision pending_review), iteration by iteration: what `whet
// review list`, `whet review approve|reject` (stages/gate/review.ts) and the viewer's review queue all
// read, from here, below each of them.
import { existsSync, readFileSync } from 'node:fs';
import { iterationPaths } from './paths.js';
import { iterations } from './iterations.js';
import { gateArtifact, type GateArtifact } from '../artifacts/gate.js';

export interface Pending {
  iteration: number;
  gate: GateArtifact;
}

export function findPending(runDir: string, candidateId?: string): Pending[] {
  const out: Pending[] = [];
  for (const n of iterations(runDir)) {
    const p = iterationPaths(runDir, n).gate;
    if (!existsSync(p)) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(p, 'utf8'));
    } catch {
      continue; // a gate.json cut short holds no decision; `whet verify` names it
    }
    const g = gateArtifact.safeParse(raw);
    if (g.success && g.data.decision === 'pending_review' && (!candidateId || g.data.candidate_id === candidateId)) out.push({ iteration: n, gate: g.data });
  }
  return out;
}
