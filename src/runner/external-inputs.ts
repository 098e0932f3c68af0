// What an external stage program is told (docs/external-stages.md "Protocol"): where the state, the run
// and the iteration are, which artifacts it reads (path and sha256 of each), and where to write its one
// artifact. Everything goes in environment variables, so a program in any language reads them without
// parsing an argv convention; its own argv stays exactly what pipeline.yaml says.
import { existsSync } from 'node:fs';
import { writeFileAtomicallySync } from '../core/atomic.js';
import { join } from 'node:path';
import type { ExternalStageName } from '../config/external-stages.js';
import type { LoopContext } from '../loop/context.js';
import { iterationPaths } from '../loop/paths.js';
import { readArtifact, sha256File } from '../state/artifact-io.js';
import { readSkill } from '../skill/read.js';
import { stateLayout } from '../state/layout.js';
import { standaloneEvaluation } from '../artifacts/evaluation.js';
import { trainFailuresWithPrompts } from '../loop/train-failures.js';
import type { Task } from '../config/suite-schema.js';

type ArtifactFile = 'baseline.json' | 'candidates.json' | 'ranking.json' | 'evaluation.json' | 'gate.json';

/** What each stage writes, and the schema id it must carry. */
export const STAGE_OUTPUT: Record<ExternalStageName, { file: string; schema: string; stage: string }> = {
  generate: { file: 'candidates.json', schema: 'whetstone.candidates/1', stage: 'generated' },
  discriminate: { file: 'ranking.json', schema: 'whetstone.ranking/1', stage: 'ranked' },
  evaluate: { file: 'evaluation.json', schema: 'whetstone.evaluation/1', stage: 'evaluated' },
  gate: { file: 'gate.json', schema: 'whetstone.gate/1', stage: 'gated' },
  learn: { file: 'learning.json', schema: 'whetstone.learning/1', stage: 'learned' },
};

/** The iteration's artifacts a stage reads; the ones marked `required` must be named in its `inputs` with their sha256. */
const READS: Record<ExternalStageName, { file: ArtifactFile; required: boolean }[]> = {
  generate: [{ file: 'baseline.json', required: true }],
  discriminate: [{ file: 'baseline.json', required: false }, { file: 'candidates.json', required: true }],
  evaluate: [{ file: 'baseline.json', required: false }, { file: 'candidates.json', required: false }, { file: 'ranking.json', required: true }],
  gate: [{ file: 'candidates.json', required: true }, { file: 'ranking.json', required: true }, { file: 'evaluation.json', required: true }],
  learn: [
    { file: 'baseline.json', required: true },
    { file: 'candidates.json', required: true },
    { file: 'ranking.json', required: true },
    { file: 'evaluation.json', required: true },
    { file: 'gate.json', required: true },
  ],
};

/** Stages whose artifact records the target's content hash as `inputs.target` (the gate and the redo checks read it). */
export const RECORDS_TARGET: readonly ExternalStageName[] = ['generate', 'discriminate', 'evaluate', 'learn'];

export interface StageInput {
  path: string;
  sha256: string;
  /** Must appear in the artifact's `inputs` with this hash. */
  required: boolean;
}

export interface StageInputs {
  env: Record<string, string>;
  /** By the name the artifact's `inputs` uses ('baseline.json', 'target', …). */
  inputs: Record<string, StageInput>;
  targetSha256: string;
  targetText: string;
  /** The run's tasks (registered splits applied): what a generator's candidates are checked against. */
  tasks: readonly Task[];
}

/** The environment and inputs of one external stage run; `work` is the private folder its output goes to. */
export async function stageInputs(ctx: LoopContext, stage: ExternalStageName, work: string, candidate?: string): Promise<StageInputs> {
  const { tasks } = (await ctx.opened()).suite;
  const p = iterationPaths(ctx.runDir, ctx.iteration);
  const target = readSkill(ctx.manifest.target.skill_dir);
  const inputs: Record<string, StageInput> = {};
  for (const r of READS[stage]) {
    const path = p[r.file.replace('.json', '') as 'baseline'];
    // A stage whose input is missing is not what runs next; learn after "nothing selected" has no evaluation or gate.
    if (existsSync(path)) inputs[r.file] = { path, sha256: sha256File(path), required: r.required };
  }
  const previous = ctx.iteration > 1 ? iterationPaths(ctx.runDir, ctx.iteration - 1).learning : undefined;
  if ((stage === 'generate' || stage === 'learn') && previous && existsSync(previous)) inputs['previous_learning.json'] = { path: previous, sha256: sha256File(previous), required: false };
  const lessons = stateLayout.lessons(ctx.stateDir);
  if (existsSync(lessons)) inputs.lessons = { path: lessons, sha256: sha256File(lessons), required: false };
  if (stage === 'generate') {
    // The only task outcomes a generator is handed: judged failures of the train split (never a held-out task).
    const baseline = readArtifact(p.baseline, standaloneEvaluation, 'baseline');
    // With their requests, as the built-in llm proposer sees them; held-out tasks are dropped before any prompt is read.
    const rows = trainFailuresWithPrompts(tasks, baseline.task_results).map((r) => ({ task_id: r.task_id, category: r.category, reason: r.reason, prompt: r.prompt }));
    const file = join(work, 'train-failures.json');
    writeFileAtomicallySync(file, `${JSON.stringify(rows, null, 2)}\n`);
    inputs['train-failures.json'] = { path: file, sha256: sha256File(file), required: false };
  }
  if (RECORDS_TARGET.includes(stage)) inputs.target = { path: target.file, sha256: target.contentHash, required: true };
  const out = STAGE_OUTPUT[stage];
  const env: Record<string, string> = {
    WHET_STAGE: stage,
    WHET_STATE_DIR: ctx.stateDir,
    WHET_RUN_ID: ctx.runId,
    WHET_RUN_DIR: ctx.runDir,
    WHET_RUN_MANIFEST: stateLayout.runManifest(ctx.runDir),
    WHET_ITERATION: String(ctx.iteration),
    WHET_ITERATION_DIR: p.dir,
    WHET_OUTPUT: join(work, out.file),
    WHET_OUTPUT_SCHEMA: out.schema,
    WHET_OUTPUT_STAGE: out.stage,
    WHET_TARGET_DIR: ctx.manifest.target.skill_dir,
    WHET_TARGET_SKILL_FILE: target.file,
    WHET_TARGET_SHA256: target.contentHash,
    WHET_SUITE: ctx.manifest.suite.path,
    WHET_PIPELINE: ctx.config.path ?? '',
    WHET_MOCK: ctx.manifest.mock ? '1' : '0',
    WHET_INPUTS: JSON.stringify(Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, { path: v.path, sha256: v.sha256 }]))),
  };
  for (const [name, v] of Object.entries(inputs)) env[`WHET_INPUT_${name.replace(/\.json$/, '').replace(/[^a-z0-9]+/gi, '_').toUpperCase()}`] = v.path;
  if (candidate) {
    env.WHET_CANDIDATE = candidate;
    env.WHET_CANDIDATE_DIR = p.variant(candidate);
  }
  return { env, inputs, targetSha256: target.contentHash, targetText: target.text, tasks };
}
