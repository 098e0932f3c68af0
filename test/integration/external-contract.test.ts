// The contract the runner holds external stage programs to (src/runner/external-check.ts) is the one the
// built-in stages keep: each built-in artifact, checked the moment its stage wrote it, passes — except a
// gate's keep, which only the built-in gate may make — and a changed field is refused by its name.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { EXTERNAL_STAGE_NAMES, type ExternalStageName, type ExternalStageProgram } from '../../src/config/external-stages.js';
import { checkStageArtifact } from '../../src/runner/external-check.js';
import { STAGE_OUTPUT, stageInputs } from '../../src/runner/external-inputs.js';
import { runStep } from '../../src/runner/loop.js';
import { BUILT_IN_STAGES } from '../../src/runner/registry.js';
import { nextStep } from '../../src/loop/next-step.js';
import { tempDir } from '../support/cli.js';
import { loopProject } from '../fixtures/stages/loop-project.js';

const program = (stage: ExternalStageName): ExternalStageProgram => ({ stage, command: ['my-program'], cwd: '/', timeoutMs: 1000 });
const isStage = (s: string): s is ExternalStageName => (EXTERNAL_STAGE_NAMES as readonly string[]).includes(s);

// Whole loops on the mock engine: seconds alone, far more on a loaded CI machine, hence 120 s per test.
describe('the external stage contract, held against the built-in stages', () => {
  it('accepts what each built-in stage writes, refuses a gate keep, and names the field of a changed artifact', async () => {
    const p = await loopProject('loop: {max_iterations: 1, proposers: [feedback, structural]}\nthresholds: {min_delta: 0, max_new_failures: 0}\n');
    const checked: string[] = [];
    let refusedKeep = false;
    for (let i = 0; i < 8; i++) {
      const next = nextStep(p.ctx.runDir);
      if (next.kind === 'end') break;
      const ctx = { ...p.ctx, iteration: next.iteration };
      const candidate = next.kind === 'step' ? next.candidate : undefined;
      // The inputs as an external program would have been given them, just before the stage runs.
      const io = isStage(next.step) ? await stageInputs(ctx, next.step, tempDir(), candidate) : undefined;
      const out = await runStep(BUILT_IN_STAGES, ctx, next.step, candidate);
      if (out === 'interrupted' || !io || !isStage(next.step)) continue;
      const stage = next.step;
      const text = readFileSync(out.artifactPath, 'utf8');
      const check = () => checkStageArtifact(ctx, program(stage), out.artifactPath, text, io, candidate);
      if (stage === 'gate' && JSON.parse(text).decision === 'keep') {
        expect(check).toThrow(/gate\.json:\d+:\d+ decision: stage program my-program \(stages\.gate\.command\) .*may not keep/);
        refusedKeep = true;
      } else {
        expect(check).not.toThrow();
      }
      checked.push(stage);
      // One field changed, one refusal naming it.
      const value = JSON.parse(text);
      value.run_id = 'another-run';
      expect(() => checkStageArtifact(ctx, program(stage), out.artifactPath, JSON.stringify(value, null, 2), io, candidate)).toThrow(
        new RegExp(`${STAGE_OUTPUT[stage].file}:\\d+:\\d+ run_id: .*is "another-run", this run is`),
      );
      if (stage === 'discriminate') {
        const r = { ...JSON.parse(text), selected: 'nobody' };
        expect(() => checkStageArtifact(ctx, program(stage), out.artifactPath, JSON.stringify(r), io)).toThrow(/selected: .*"nobody" is none of its scored_candidates/);
      }
      if (stage === 'generate') {
        const g = JSON.parse(text);
        g.inputs['baseline.json'] = `sha256:${'0'.repeat(64)}`;
        expect(() => checkStageArtifact(ctx, program(stage), out.artifactPath, JSON.stringify(g), io)).toThrow(/inputs\.baseline\.json: .*the baseline\.json it was given has sha256:/);
      }
    }
    expect(checked).toEqual(['generate', 'discriminate', 'evaluate', 'gate', 'learn']);
    // The example's first candidate is kept on held-out evidence: the keep refusal was exercised.
    expect(refusedKeep).toBe(true);
  }, 120_000);
});
