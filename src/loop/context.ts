// What every loop stage receives. Stages read their inputs from the run's artifacts (never from each
// other) and write exactly one artifact; the runner and the stand-alone stage programs build this the
// same way, so a stage behaves identically in both.
import type { PipelineConfig } from '../config/pipeline.js';
import type { LoopManifest } from './manifest.js';
import type { Budget } from '../evaluation/budget.js';
import type { RunEnv } from '../core/run-env.js';
import type { Opened } from '../measure/setup.js';

export interface LoopContext extends RunEnv {
  stateDir: string;
  runId: string;
  runDir: string;
  manifest: LoopManifest;
  /** pipeline.yaml as it is now (the gate compares its thresholds with the registered ones). */
  config: PipelineConfig;
  /** Flags this call was given (they override pipeline.yaml in `config` and are compared with the
   * registered settings like it; named so a refusal says where the differing value came from). */
  flags?: { evalThreshold?: number };
  /** The iteration this stage works on. */
  iteration: number;
  /** The run's budget, shared by every stage of this process (absent: no budget configured). */
  budget?: Budget;
  /**
   * The run's config, suite (its registered splits applied) and engines, opened once by openRun and
   * shared by every stage of this process: nothing below the runner reads pipeline.yaml or the suite again.
   */
  opened: () => Promise<Opened>;
}

export interface StageOutcome {
  artifactPath: string;
  verdict: string;
  next_step: string;
  next_owner: string;
  /** One line for the runner's progress output. */
  summary: string;
  /** Engine calls this stage made (for budgets and totals). */
  engineCalls: number;
}

/**
 * One loop stage as the runner calls it: `candidate` is the candidate an evaluate step measures. Each
 * stage exports one (src/runner/registry.ts maps every step to its stage; a stage program registers
 * only its own, so it loads no other stage).
 */
export type StageEntry = (ctx: LoopContext, candidate?: string) => Promise<StageOutcome | 'interrupted'>;
