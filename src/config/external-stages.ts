// pipeline.yaml `stages:`: a loop stage replaced by a program of the user's, in any language. The
// program is named as an argv array (never a shell string: nothing in it is interpreted by a shell) and
// runs under a timeout that kills its whole process tree. The protocol it follows is
// docs/external-stages.md; the runner side is src/runner/external-stage.ts.
import { LOOP_STAGES } from './stage-names.js';
import { resolve } from 'node:path';
import { z } from 'zod';
import { duration } from './duration-schema.js';

/** Every loop stage may be a program (the names: src/config/stage-names.ts). */
export const EXTERNAL_STAGE_NAMES = LOOP_STAGES;
export type ExternalStageName = (typeof EXTERNAL_STAGE_NAMES)[number];

/** Ten minutes: a generator asking a model several times is slow, a hung one must still end. */
export const DEFAULT_STAGE_TIMEOUT_MS = 600_000;

const stageProgram = z.strictObject({
  /** Program and arguments; argv[0] is looked up on PATH, relative paths are from pipeline.yaml's folder. */
  command: z.array(z.string().min(1, 'an argument of a stage command cannot be empty')).min(1, 'a stage command needs at least the program'),
  timeout: duration.optional(),
});

export const externalStagesSchema = z.strictObject({
  generate: stageProgram.optional(),
  discriminate: stageProgram.optional(),
  evaluate: stageProgram.optional(),
  gate: stageProgram.optional(),
  learn: stageProgram.optional(),
});
export type ExternalStagesInput = z.infer<typeof externalStagesSchema>;

export interface ExternalStageProgram {
  stage: ExternalStageName;
  /** As written in pipeline.yaml (shown in messages and events.jsonl). */
  command: string[];
  /** The folder the program runs in: pipeline.yaml's. */
  cwd: string;
  timeoutMs: number;
}

export type ExternalStages = Partial<Record<ExternalStageName, ExternalStageProgram>>;

export function resolveExternalStages(input: ExternalStagesInput | undefined, dir: string): ExternalStages {
  const out: ExternalStages = {};
  for (const stage of EXTERNAL_STAGE_NAMES) {
    const s = input?.[stage];
    if (s) out[stage] = { stage, command: [...s.command], cwd: resolve(dir), timeoutMs: s.timeout ?? DEFAULT_STAGE_TIMEOUT_MS };
  }
  return out;
}

/** The program's name for messages: its argv[0], and the script when argv[0] is an interpreter. */
export function programName(p: { command: readonly string[] }): string {
  const [head, next] = p.command;
  return next && /^(python\d?(\.\d+)?|node|ruby|perl|bash|sh|deno|bun|php|Rscript)$/.test(head!.split('/').pop()!) ? `${head} ${next}` : head!;
}
