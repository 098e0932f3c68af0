// The files of one loop iteration, in the order the stages write them.
import { join } from 'node:path';
import { insideRoot, layoutId } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';

export const ITERATION_FILES = ['baseline.json', 'candidates.json', 'ranking.json', 'evaluation.json', 'gate.json', 'learning.json'] as const;
export type IterationFile = (typeof ITERATION_FILES)[number];

export function iterationPaths(runDir: string, iteration: number) {
  const dir = stateLayout.iterDir(runDir, iteration);
  return {
    dir,
    baseline: join(dir, 'baseline.json'),
    candidates: join(dir, 'candidates.json'),
    ranking: join(dir, 'ranking.json'),
    /** `evaluate.shards`: the handoff to the shards, and where they leave their directories. */
    shardPlan: join(dir, 'shard-plan.json'),
    shards: join(dir, 'shards'),
    evaluation: join(dir, 'evaluation.json'),
    gate: join(dir, 'gate.json'),
    learning: join(dir, 'learning.json'),
    variants: join(dir, 'variants'),
    variant: (id: string) => insideRoot(join(dir, 'variants'), join(dir, 'variants', layoutId(id, 'candidate id')), 'candidate id'),
    proposedCases: join(dir, 'proposed-cases.yaml'),
  };
}
export type IterationPaths = ReturnType<typeof iterationPaths>;
