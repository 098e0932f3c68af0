// Redoing part of an iteration never deletes: the artifacts from the redone stage on move to
// iter-NNN/superseded/<time>/ where they stay readable. So do artifacts that cannot be read back (a
// truncated write from a full disk), so the run can go on from the newest valid one.
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { UsageError } from '../core/errors.js';
import { iterationPaths } from '../loop/paths.js';
import { readBackup } from '../state/promote.js';
import { decideAfter, readHandoff, STEPS, type Step } from '../loop/next-step.js';

const FILE_OF: Record<Step, keyof ReturnType<typeof iterationPaths>> = {
  baseline: 'baseline',
  generate: 'candidates',
  discriminate: 'ranking',
  evaluate: 'evaluation',
  gate: 'gate',
  learn: 'learning',
};

/**
 * The step that would run after moving `from` and later artifacts away (checked before moving anything);
 * undefined when the earlier artifacts end the iteration. Invalid earlier artifacts are skipped, as
 * nextStep skips them.
 */
export function stepAfterSuperseding(runDir: string, iteration: number, from: Step): Step | undefined {
  const p = iterationPaths(runDir, iteration);
  for (const s of STEPS.slice(0, STEPS.indexOf(from)).reverse()) {
    const file = p[FILE_OF[s]] as string;
    if (!existsSync(file)) continue;
    const h = readHandoff(file, s);
    if (h instanceof Error) continue;
    const next = decideAfter(s, h, iteration);
    return next.kind === 'step' ? next.step : undefined;
  }
  return 'baseline';
}

/** Refuses, before anything moves, a redo that would leave a promoted candidate in place unexplained. */
export function refuseRedoAfterPromotion(a: { stateDir: string; runId: string; runDir: string; iteration: number; from: Step }): void {
  const p = iterationPaths(a.runDir, a.iteration);
  if (STEPS.indexOf(a.from) < STEPS.indexOf('gate') && readBackup(a.stateDir, a.runId, a.iteration) && existsSync(p.gate)) {
    throw new UsageError(`iteration ${a.iteration} already promoted its candidate; roll it back first (whet rollback ${a.runId}) before redoing ${a.from}`);
  }
}

function moveAway(dir: string, files: string[], now: Date): string[] {
  const dest = join(dir, 'superseded', now.toISOString().replace(/[:.]/g, '-'));
  const moved: string[] = [];
  for (const file of files) {
    if (!existsSync(file)) continue;
    mkdirSync(dest, { recursive: true });
    renameSync(file, join(dest, basename(file)));
    moved.push(basename(file));
  }
  return moved;
}

/** Whether superseding from `from` would move anything (an artifact of that stage or a later one exists). */
export function wouldSupersede(runDir: string, iteration: number, from: Step): boolean {
  const p = iterationPaths(runDir, iteration);
  return STEPS.slice(STEPS.indexOf(from)).some((s) => existsSync(p[FILE_OF[s]] as string));
}

/** Moves the artifacts of `from` and later stages of the iteration to superseded/ (checks come first). */
export function supersedeFrom(a: { runDir: string; iteration: number; from: Step; now: Date }): string[] {
  const p = iterationPaths(a.runDir, a.iteration);
  const files = STEPS.slice(STEPS.indexOf(a.from)).map((s) => p[FILE_OF[s]] as string);
  // A redone evaluation plans its shards anew: the old plan and the shards it gathered go too.
  if (STEPS.indexOf(a.from) <= STEPS.indexOf('evaluate')) files.push(p.shardPlan, p.shards);
  return moveAway(p.dir, files, a.now);
}

/** Moves artifacts that could not be read back to superseded/ (they stay there for a person to look at). */
export function quarantine(runDir: string, iteration: number, files: string[], now: Date): string[] {
  return moveAway(iterationPaths(runDir, iteration).dir, files, now);
}
