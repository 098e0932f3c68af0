// Redoing part of an iteration never deletes: the artifacts from the redone stage on move to
// iter-NNN/superseded/<time>/ where they stay readable.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../errors.js';
import { iterationPaths } from '../loop/paths.js';
import { readBackup } from '../state/promote.js';
import { STEPS, type Step } from './next-step.js';

const FILE_OF: Record<Step, keyof ReturnType<typeof iterationPaths>> = {
  baseline: 'baseline',
  generate: 'candidates',
  discriminate: 'ranking',
  evaluate: 'evaluation',
  gate: 'gate',
  learn: 'learning',
};

export function supersedeFrom(a: { stateDir: string; runId: string; runDir: string; iteration: number; from: Step; now: Date }): string[] {
  const p = iterationPaths(a.runDir, a.iteration);
  const later = STEPS.slice(STEPS.indexOf(a.from));
  if (STEPS.indexOf(a.from) < STEPS.indexOf('gate') && readBackup(a.stateDir, a.runId, a.iteration) && existsSync(p.gate)) {
    throw new UsageError(`iteration ${a.iteration} already promoted its candidate; roll it back first (whet rollback ${a.runId}) before redoing ${a.from}`);
  }
  const dest = join(p.dir, 'superseded', a.now.toISOString().replace(/[:.]/g, '-'));
  const moved: string[] = [];
  for (const step of later) {
    const file = p[FILE_OF[step]] as string;
    if (!existsSync(file)) continue;
    mkdirSync(dest, { recursive: true });
    renameSync(file, join(dest, basename(file)));
    moved.push(basename(file));
  }
  return moved;
}
