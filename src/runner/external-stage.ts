// A loop stage run by the user's program (pipeline.yaml `stages.<name>.command`) instead of the built-in
// one. The program writes its artifact to a private folder outside the state directory; the runner checks
// it (external-check.ts) and only then puts it in place — variants first, then the artifact, atomically,
// in the order the built-in stage writes them — so a refused or failed program leaves the iteration as it
// was. A refusal also takes back what the runner itself wrote for the step (stage_started, "running"):
// bad input leaves the state directory byte-identical (docs/external-stages.md).
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sha256 } from '../state/artifact-io.js';
import { programName, type ExternalStageName, type ExternalStageProgram } from '../config/external-stages.js';
import { EngineError } from '../core/errors.js';
import type { LoopContext, StageOutcome } from '../loop/context.js';
import { iterationPaths } from '../loop/paths.js';
import { describeOutcome, runProcess } from '../core/proc.js';
import { writeFileAtomically } from '../core/atomic.js';
import { appendEvent } from '../state/events.js';
import { recordedWrite } from '../state/recorded.js';
import { stateLayout } from '../state/layout.js';
import { writeRunManifest, type RunManifest } from '../state/runs.js';
import { materialise, supersedeVariants } from '../state/variant.js';
import { checkStageArtifact, ExternalStageRefusal, type Checked } from './external-check.js';
import { STAGE_OUTPUT, stageInputs } from './external-inputs.js';
import type { Step } from '../loop/next-step.js';

export { ExternalStageRefusal } from './external-check.js';

/** The program configured for `step`, if the user replaced that stage. */
export function externalStageFor(ctx: LoopContext, step: Step): ExternalStageProgram | undefined {
  return step === 'baseline' ? undefined : ctx.config.externalStages?.[step as ExternalStageName];
}

/** Runs the program for one stage and places its artifact; 'interrupted' when the run was stopped meanwhile. */
export async function runExternalStage(ctx: LoopContext, program: ExternalStageProgram, candidate?: string): Promise<StageOutcome | 'interrupted'> {
  const stage = program.stage;
  const out = STAGE_OUTPUT[stage];
  const name = programName(program);
  const work = mkdtempSync(join(tmpdir(), `whet-stage-${stage}-`));
  let keep = false;
  try {
    const io = await stageInputs(ctx, stage, work, candidate);
    const r = await runProcess({ argv: program.command, cwd: program.cwd, env: { ...ctx.env, ...io.env }, timeoutMs: program.timeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    for (const line of `${r.stderr}`.split('\n').filter((l) => l.trim())) ctx.log(`[${stage}: ${name}] ${line}`);
    if (r.aborted) return 'interrupted';
    if (r.spawnError || r.timedOut || r.exitCode !== 0) {
      throw new EngineError(`stage program ${name} (stages.${stage}.command) failed: ${describeOutcome(r, program.timeoutMs)}; nothing was placed in ${iterationPaths(ctx.runDir, ctx.iteration).dir}`);
    }
    const file = io.env.WHET_OUTPUT!;
    if (!existsSync(file)) throw new ExternalStageRefusal(`stage program ${name} (stages.${stage}.command) exited 0 without writing ${out.file} (WHET_OUTPUT=${file})`);
    const text = readFileSync(file, 'utf8');
    let checked: Checked;
    try {
      checked = checkStageArtifact(ctx, program, file, text, io, candidate);
    } catch (err) {
      // The refused file stays where the program wrote it, for its author to read.
      keep = true;
      throw err;
    }
    const dest = await place(ctx, stage, text, checked);
    const script = scriptOf(program);
    appendEvent(ctx.runDir, { event: 'external_stage', stage, iteration: ctx.iteration, program: program.command, ...script, exit_code: 0, ms: r.durationMs, artifact: out.file, sha256: sha256(text) }, ctx.now());
    const v = checked.value;
    const calls = typeof v.engine_calls === 'number' ? v.engine_calls : 0;
    const count = stage === 'generate' ? `; ${checked.variants.length} candidate(s)` : '';
    return { artifactPath: dest, verdict: v.verdict, next_step: v.next_step, next_owner: v.next_owner, summary: `${stage} (external: ${name}): ${v.verdict}${count} → ${v.next_step}`, engineCalls: calls };
  } finally {
    if (!keep) rmSync(work, { recursive: true, force: true });
  }
}

/** The program file itself (argv[0], or the script an interpreter runs) and its sha256: which version ran. */
function scriptOf(program: ExternalStageProgram): { script?: string; script_sha256?: string } {
  for (const arg of program.command.slice(0, 2)) {
    const file = resolve(program.cwd, arg);
    if (arg.includes('/') && existsSync(file) && statSync(file).isFile()) return { script: file, script_sha256: sha256(readFileSync(file)) };
  }
  return {};
}

/** Variants (a generator's), then the artifact's own bytes, atomically. */
async function place(ctx: LoopContext, stage: ExternalStageName, text: string, checked: Checked): Promise<string> {
  const p = iterationPaths(ctx.runDir, ctx.iteration);
  if (stage === 'generate') {
    // Built beside the iteration, then renamed in: a crash leaves no half-written variants/ folder.
    const staging = join(p.dir, `.variants-${process.pid}-${Date.now()}`);
    try {
      for (const v of checked.variants) {
        await materialise({ targetDir: ctx.manifest.target.skill_dir, variantDir: join(staging, v.id), skillText: v.text, exclude: [ctx.manifest.suite.path, ctx.stateDir] });
      }
      // Earlier variants of this iteration no longer described by candidates.json move to superseded/.
      supersedeVariants(p.dir, p.variants, ctx.now());
      if (checked.variants.length) renameSync(staging, p.variants);
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const dest = join(p.dir, STAGE_OUTPUT[stage].file);
  await writeFileAtomically(dest, text.endsWith('\n') ? text : `${text}\n`, recordedWrite(ctx.runDir, dest, ctx.now()));
  return dest;
}

/** What the runner wrote before a step, so a refused step can be taken back. */
export interface StepMark {
  manifest: Buffer | null;
  eventsBytes: number;
}

export function markStep(runDir: string): StepMark {
  const m = stateLayout.runManifest(runDir);
  const ev = stateLayout.events(runDir);
  return { manifest: existsSync(m) ? readFileSync(m) : null, eventsBytes: existsSync(ev) ? statSync(ev).size : 0 };
}

/**
 * After a refused external stage: events.jsonl and run.json as they were before the step. A run this
 * process had already marked "running" (earlier steps ran here) is left "incomplete" instead, with the
 * refusal recorded, never "running".
 */
export async function undoRefusedStep(runDir: string, mark: StepMark, err: ExternalStageRefusal, stage: string, iteration: number, now: Date): Promise<void> {
  const ev = stateLayout.events(runDir);
  if (existsSync(ev) && statSync(ev).size > mark.eventsBytes) truncateSync(ev, mark.eventsBytes);
  if (!mark.manifest) return;
  const before = JSON.parse(mark.manifest.toString('utf8')) as RunManifest;
  if (before.status !== 'running') {
    await writeFileAtomically(stateLayout.runManifest(runDir), mark.manifest);
    return;
  }
  await writeRunManifest(runDir, { ...before, status: 'incomplete', updated_at: now.toISOString() });
  appendEvent(runDir, { event: 'stage_failed', stage, iteration, error: err.message }, now);
}
