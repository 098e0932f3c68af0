// A loop run's iterations and the artifacts each holds, read from the folder names alone. Apart from
// next-step.ts (which reads the handoff inside the newest artifact, through its schema) so that the read
// models — `whet status`, `whet show` — list and show runs without loading zod.
import { existsSync, readdirSync } from 'node:fs';
import { MAX_ITERATION } from '../config/safe-id.js';
import { iterationPaths } from './paths.js';
import { LOOP_STAGES } from '../config/stage-names.js';

/** A loop iteration's steps: its baseline, then the stages (src/config/stage-names.ts). */
export const STEPS = ['baseline', ...LOOP_STAGES] as const;
export type Step = (typeof STEPS)[number];

/** Files in write order with the step that wrote them. */
export const WRITTEN_BY: { file: 'baseline' | 'candidates' | 'ranking' | 'shardPlan' | 'evaluation' | 'gate' | 'learning'; step: Step }[] = [
  { file: 'baseline', step: 'baseline' },
  { file: 'candidates', step: 'generate' },
  { file: 'ranking', step: 'discriminate' },
  { file: 'shardPlan', step: 'evaluate' },
  { file: 'evaluation', step: 'evaluate' },
  { file: 'gate', step: 'gate' },
  { file: 'learning', step: 'learn' },
];

export function iterations(runDir: string): number[] {
  if (!existsSync(runDir)) return [];
  return readdirSync(runDir)
    .filter((d) => /^iter-\d{3,}$/.test(d))
    .map((d) => Number(d.slice(5)))
    // A folder numbered past what whetstone writes is none of its iterations (and no path it builds).
    .filter((n) => n <= MAX_ITERATION)
    .sort((a, b) => a - b);
}

/** The newest artifact of an iteration and the step that wrote it, or undefined when it has none. */
export function newestArtifact(runDir: string, iteration: number): { step: Step; path: string } | undefined {
  const p = iterationPaths(runDir, iteration);
  for (const w of [...WRITTEN_BY].reverse()) if (existsSync(p[w.file])) return { step: w.step, path: p[w.file] };
  return undefined;
}

