// `whet stage check <name> -- <command…>`: whether a stage program honours the contract, tried the way
// the runner would run it, on a sample project in a temporary folder (mock engine): the built-in stages
// run up to the one being checked, then the program runs with the protocol's environment, its artifact
// goes through the runner's checks (external-check.ts), and the next built-in stage must read it.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { writeFileAtomicallySync } from '../core/atomic.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXTERNAL_STAGE_NAMES, programName, type ExternalStageName, type ExternalStageProgram } from '../config/external-stages.js';
import { EngineError, StateError, WhetError } from '../core/errors.js';
import type { LoopContext, StageOutcome } from '../loop/context.js';
import { openRun, startRun, type LoopEnv } from '../loop/open.js';
import { ExternalStageRefusal, runExternalStage } from './external-stage.js';
import { runStep } from './loop.js';
import { BUILT_IN_STAGES } from './registry.js';
import { nextStep } from '../loop/next-step.js';
import { SAMPLE_PIPELINE, SAMPLE_SKILL, SAMPLE_SUITE } from './stage-check-sample.js';

export interface StageCheckResult {
  ok: boolean;
  /** What was checked and what came of it, one line each. */
  lines: string[];
  /** The sample project, when it was kept. */
  dir?: string;
}

/** Built-in stages at most before the checked one runs (baseline … learn of one iteration). */
const MAX_STEPS = 8;

export async function checkStageProgram(e: LoopEnv, o: { program: ExternalStageProgram; keep?: boolean }): Promise<StageCheckResult> {
  const dir = mkdtempSync(join(tmpdir(), 'whet-stage-check-'));
  const stage = o.program.stage;
  const name = programName(o.program);
  const lines: string[] = [`sample project: ${o.keep ? dir : 'a temporary folder (--keep leaves it)'} (mock engine)`];
  let ok = false;
  try {
    mkdirSync(join(dir, 'sample-release-notes'));
    writeFileAtomicallySync(join(dir, 'sample-release-notes', 'SKILL.md'), SAMPLE_SKILL);
    writeFileAtomicallySync(join(dir, 'sample-release-notes', 'tasks.yaml'), SAMPLE_SUITE);
    writeFileAtomicallySync(join(dir, 'pipeline.yaml'), SAMPLE_PIPELINE);
    const quiet: LoopEnv = { ...e, cwd: dir, log: () => undefined };
    delete quiet.progressOut;
    // Its own sample project, made for this check: the mock's keeps go to the sample skill itself.
    const plan = await startRun(quiet, { configPath: join(dir, 'pipeline.yaml'), apply: true });
    const ctx = await openRun(quiet, { stateDir: plan.stateDir, runId: plan.manifest.run_id });
    for (let i = 0; ; i++) {
      const next = nextStep(ctx.runDir);
      if (next.kind === 'end' || i >= MAX_STEPS) throw new StateError(`the sample run ended (${next.kind === 'end' ? next.reason : 'too many steps'}) before ${stage} ran`);
      const stepCtx: LoopContext = { ...ctx, iteration: next.iteration };
      const candidate = next.kind === 'step' ? next.candidate : undefined;
      if (next.step !== stage) {
        const done = await runStep(BUILT_IN_STAGES, stepCtx, next.step, candidate);
        if (done === 'interrupted') throw new StateError('interrupted');
        lines.push(`  built-in ${next.step}: ${done.summary}`);
        continue;
      }
      let outcome: StageOutcome | 'interrupted';
      try {
        outcome = await runExternalStage({ ...stepCtx, log: (l) => lines.push(`  ${l}`) }, o.program, candidate);
      } catch (err) {
        if (err instanceof ExternalStageRefusal || (err instanceof EngineError && err.message.startsWith('stage program'))) {
          lines.push(`NOT OK: ${err.message}`);
          return { ok, lines, ...(o.keep ? { dir } : {}) };
        }
        throw err;
      }
      if (outcome === 'interrupted') throw new StateError('interrupted');
      lines.push(`  ${outcome.summary}`);
      const after = nextStep(ctx.runDir);
      if (after.kind === 'step') {
        try {
          const read = await runStep(BUILT_IN_STAGES, { ...ctx, iteration: after.iteration }, after.step, after.candidate);
          if (read !== 'interrupted') lines.push(`  built-in ${after.step} read it: ${read.summary}`);
        } catch (err) {
          if (!(err instanceof WhetError)) throw err;
          lines.push(`NOT OK: the next stage (${after.step}) could not use what ${name} wrote: ${err.message}`);
          return { ok, lines, ...(o.keep ? { dir } : {}) };
        }
      } else lines.push(`  the run ends there: ${after.reason}`);
      ok = true;
      lines.push(`OK: ${name} honours the ${stage} stage contract (docs/external-stages.md)`);
      return { ok, lines, ...(o.keep ? { dir } : {}) };
    }
  } finally {
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

export function isStageName(s: string): s is ExternalStageName {
  return (EXTERNAL_STAGE_NAMES as readonly string[]).includes(s);
}
