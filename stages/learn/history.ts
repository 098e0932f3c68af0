// What the stop rules need from the run so far, read from its artifacts: each iteration's gate decision,
// and the target's content at each iteration's start (what the run spent is src/evaluation/run-usage.ts's count).
// Only the current artifacts count; superseded ones (a redone stage) are history, not this run's path.
import { existsSync } from 'node:fs';
import { readArtifact } from '../../src/state/artifact-io.js';
import type { LoopManifest } from '../../src/loop/manifest.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { gateArtifact } from '../../src/artifacts/gate.js';

export interface RunHistory {
  decisions: Map<number, string | null>;
  targetHistory: { iteration: number; sha256: string }[];
}

export function runHistory(runDir: string, manifest: LoopManifest, upTo: number): RunHistory {
  const h: RunHistory = { decisions: new Map(), targetHistory: [{ iteration: 0, sha256: manifest.target.sha256 }] };
  for (let it = 1; it <= upTo; it++) {
    const p = iterationPaths(runDir, it);
    if (existsSync(p.baseline)) {
      const b = readArtifact(p.baseline, standaloneEvaluation, `iteration ${it} baseline`);
      if (b.inputs.target) h.targetHistory.push({ iteration: it, sha256: b.inputs.target });
    }
    h.decisions.set(it, existsSync(p.gate) ? readArtifact(p.gate, gateArtifact, `iteration ${it} gate`).decision : null);
  }
  return h;
}
