// The envelope every stage artifact carries (docs/reference/artifacts.md), and the handoff
// table: which stage a verdict hands over to. Stages say who acts next; the runner only reads this.
import { z } from 'zod';
import { safeId, safeIteration } from '../config/safe-id-schema.js';

import { ARTIFACT_STAGES, STAGE_NAMES } from '../config/stage-names.js';

/** An artifact's `stage` value (stage-names.ts spells each stage's names once). */
export type StageName = (typeof ARTIFACT_STAGES)[number];

export const envelope = z.object({
  schema: z.string().regex(/^whetstone\.[a-z_]+\/\d+$/),
  stage: z.enum(ARTIFACT_STAGES),
  run_id: safeId,
  iteration: safeIteration,
  created_at: z.iso.datetime(),
  /** sha256 of every input this artifact was computed from, by name. */
  inputs: z.record(z.string(), z.string().regex(/^sha256:[0-9a-f]{64}$/)),
  verdict: z.string(),
  next_step: z.string(),
  next_owner: z.string(),
});
export type Envelope = z.infer<typeof envelope>;

/** The seed's handoff names, kept so its orchestrator could read our artifacts. */
const to = <S extends keyof typeof STAGE_NAMES>(s: S) => ({ next_step: STAGE_NAMES[s].next_step, next_owner: STAGE_NAMES[s].owner });
export const HANDOFF = {
  generated: to('discriminate'),
  ranked: to('evaluate'),
  evaluated: to('gate'),
  gated: to('learn'),
  learned: to('generate'),
} as const satisfies Record<StageName, { next_step: string; next_owner: string }>;

/** When an artifact ends the flow (an aborted evaluation, a finished standalone run). */
export const HANDOFF_END = {
  done: { next_step: 'done', next_owner: 'none' },
  abort: { next_step: 'abort', next_owner: 'human' },
} as const;

/** The schema id each stage's artifact carries. */
export const SCHEMA_OF = {
  generated: STAGE_NAMES.generate.schema,
  ranked: STAGE_NAMES.discriminate.schema,
  evaluated: STAGE_NAMES.evaluate.schema,
  gated: STAGE_NAMES.gate.schema,
  learned: STAGE_NAMES.learn.schema,
} as const satisfies Record<StageName, string>;

/**
 * The envelope fields of a stage's artifact, in their order: built here once so every stage (and an
 * external stage program's reader) sees the same shape. `handoff` says who acts next.
 */
export function envelopeOf<S extends StageName>(
  stage: S,
  at: { runId: string; iteration: number; now: Date },
  inputs: Record<string, string>,
  verdict: string,
  handoff: { next_step: string; next_owner: string },
): { schema: (typeof SCHEMA_OF)[S]; stage: S; run_id: string; iteration: number; created_at: string; inputs: Record<string, string>; verdict: string; next_step: string; next_owner: string } {
  return { schema: SCHEMA_OF[stage], stage, run_id: at.runId, iteration: at.iteration, created_at: at.now.toISOString(), inputs, verdict, next_step: handoff.next_step, next_owner: handoff.next_owner };
}
