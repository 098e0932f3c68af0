// Every step of the loop and the stage that runs it. The runner drives a whole run through this table;
// a stage program (src/stage-programs/<stage>.ts) passes only its own entry, so it never loads another stage.
import { run as discriminate } from '../../stages/discriminate/index.js';
import { evaluateLoopBaseline, evaluateLoopCandidate } from '../../stages/evaluate/loop.js';
import { run as gate } from '../../stages/gate/index.js';
import { run as generate } from '../../stages/generate/index.js';
import { run as learn } from '../../stages/learn/index.js';
import type { LoopEnv } from '../loop/open.js';
import { driveRun, type DriveOptions, type LoopResult, type Stages } from './loop.js';

export const BUILT_IN_STAGES: Required<Stages> = {
  baseline: (ctx) => evaluateLoopBaseline(ctx),
  generate: (ctx) => generate(ctx),
  discriminate: (ctx) => discriminate(ctx),
  evaluate: (ctx, candidate) => evaluateLoopCandidate(ctx, candidate!),
  gate: (ctx) => gate(ctx),
  learn: (ctx) => learn(ctx),
};

/** Drives a run with every stage of the loop. */
export function driveLoop(e: LoopEnv, o: DriveOptions): Promise<LoopResult> {
  return driveRun(e, o, BUILT_IN_STAGES);
}
