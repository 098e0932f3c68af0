// What the stop rules need from the run so far, read from its artifacts: each iteration's gate decision,
// the target's content at each iteration's start, and the engine calls and cost every stage recorded.
// Only the current artifacts count; superseded ones (a redone stage) are history, not this run's path.
import { existsSync } from 'node:fs';
import { readArtifact } from '../../src/state/artifact-io.js';
import type { LoopManifest } from '../../src/loop/manifest.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { pipelineEvaluation, standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { gateArtifact } from '../../src/artifacts/gate.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';

export interface RunHistory {
  decisions: Map<number, string | null>;
  targetHistory: { iteration: number; sha256: string }[];
  engine_calls: number;
  cost_usd: number;
}

export function runHistory(runDir: string, manifest: LoopManifest, upTo: number): RunHistory {
  const h: RunHistory = { decisions: new Map(), targetHistory: [{ iteration: 0, sha256: manifest.target.sha256 }], engine_calls: 0, cost_usd: 0 };
  for (let it = 1; it <= upTo; it++) {
    const p = iterationPaths(runDir, it);
    if (existsSync(p.baseline)) {
      const b = readArtifact(p.baseline, standaloneEvaluation, `iteration ${it} baseline`);
      if (b.inputs.target) h.targetHistory.push({ iteration: it, sha256: b.inputs.target });
      h.engine_calls += b.evaluation.engine_calls;
      h.cost_usd += b.evaluation.usage.cost_usd ?? 0;
    }
    if (existsSync(p.candidates)) {
      const c = readArtifact(p.candidates, candidatesArtifact, `iteration ${it} candidates`);
      h.engine_calls += c.engine_calls ?? 0;
      h.cost_usd += c.cost_usd ?? 0;
    }
    if (existsSync(p.ranking)) {
      const r = readArtifact(p.ranking, rankingArtifact, `iteration ${it} ranking`);
      h.engine_calls += r.engine_calls ?? 0;
      h.cost_usd += r.cost_usd ?? 0;
    }
    if (existsSync(p.evaluation)) {
      const e = readArtifact(p.evaluation, pipelineEvaluation, `iteration ${it} evaluation`).evaluation;
      for (const v of [e.candidate, e.baseline]) {
        h.engine_calls += v?.engine_calls ?? 0;
        h.cost_usd += v?.usage.cost_usd ?? 0;
      }
    }
    h.decisions.set(it, existsSync(p.gate) ? readArtifact(p.gate, gateArtifact, `iteration ${it} gate`).decision : null);
  }
  h.cost_usd = Math.round(h.cost_usd * 1e6) / 1e6;
  return h;
}
