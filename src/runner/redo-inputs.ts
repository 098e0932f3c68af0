// What a redone stage would refuse on, checked before its artifacts move to superseded/. A redo that
// moves the gate's decision away and then records `refused` (the target was edited since the
// evaluation), or that moves the candidates away and then stops because the baseline measured other
// content, leaves the iteration half-redone; docs/guides/running-the-loop.md promises a refusal moves nothing.
import { existsSync } from 'node:fs';
import { standaloneEvaluation } from '../artifacts/evaluation.js';
import { gatherIntegrity } from '../loop/integrity.js';
import { candidatesArtifact } from '../artifacts/candidates.js';
import { readArtifact } from '../state/artifact-io.js';
import { UsageError } from '../core/errors.js';
import type { LoopContext } from '../loop/context.js';
import { iterationPaths } from '../loop/paths.js';
import { readSkill } from '../skill/read.js';
import type { Step } from '../loop/next-step.js';

const short = (h: string | undefined) => (h ? `${h.slice(0, 19)}…` : 'missing');

/** A UsageError naming why `redo` of `iteration` would be refused by the stage itself, or nothing. */
export function refuseStaleRedoInputs(ctx: LoopContext, iteration: number, redo: Step): void {
  const p = iterationPaths(ctx.runDir, iteration);
  const refuse = (why: string, instead: string) => {
    throw new UsageError(`run ${ctx.runId}: cannot redo ${redo} of iteration ${iteration}: ${why}; nothing was moved. ${instead}`);
  };
  const targetNow = () => readSkill(ctx.manifest.target.skill_dir).contentHash;
  if (redo === 'generate' && existsSync(p.baseline)) {
    const measured = readArtifact(p.baseline, standaloneEvaluation, 'baseline').inputs.target;
    const now = targetNow();
    if (measured !== now) refuse(`the target changed after this iteration's baseline measured it (now ${short(now)}, measured ${short(measured)})`, `Redo it from the baseline: whet run --from baseline --run ${ctx.runId}`);
  }
  if (redo === 'discriminate' && existsSync(p.candidates)) {
    const generatedFrom = readArtifact(p.candidates, candidatesArtifact, 'candidates').target.sha256;
    const now = targetNow();
    if (generatedFrom !== now) refuse(`the target changed after candidates.json was generated (now ${short(now)}, generated from ${short(generatedFrom)})`, `Redo it from the baseline: whet run --from baseline --run ${ctx.runId}`);
  }
  if (redo === 'gate') {
    const broken = gatherIntegrity(ctx, iteration).checks.filter((c) => !c.passed);
    if (broken.length) refuse(`the gate would refuse: ${broken.map((c) => c.detail).join('; ')}`, `Restore what changed, or redo an earlier stage (whet run --from baseline --run ${ctx.runId})`);
  }
}
