// Redoing part of an iteration never deletes: the artifacts from the redone stage on move to
// iter-NNN/superseded/<time>/ where they stay readable.
import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
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

/** The step that would run after moving `from` and later artifacts away (checked before moving anything). */
export function stepAfterSuperseding(runDir: string, iteration: number, from: Step): Step | undefined {
  const p = iterationPaths(runDir, iteration);
  const earlier = STEPS.slice(0, STEPS.indexOf(from)).reverse();
  const newest = earlier.find((s) => existsSync(p[FILE_OF[s]] as string));
  if (!newest) return 'baseline';
  const h = JSON.parse(readFileSync(p[FILE_OF[newest]] as string, 'utf8')) as { next_step?: string; selected?: string | null };
  const map: Record<string, Step> = { generate: 'generate', discriminate: 'discriminate', evaluate: 'evaluate', gate_decision: 'gate', learn: 'learn' };
  const step = h.next_step ? map[h.next_step] : undefined;
  return step === 'evaluate' && !h.selected ? 'learn' : step;
}

export function supersedeFrom(a: { stateDir: string; runId: string; runDir: string; iteration: number; from: Step; now: Date; only?: boolean }): string[] {
  const p = iterationPaths(a.runDir, a.iteration);
  const later = STEPS.slice(STEPS.indexOf(a.from));
  if (a.only) {
    const would = stepAfterSuperseding(a.runDir, a.iteration, a.from);
    if (would !== a.from) throw new UsageError(`iteration ${a.iteration} cannot run ${a.from} now: its artifacts lead to ${would ?? 'the end of the iteration'} (nothing was moved)`);
  }
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
