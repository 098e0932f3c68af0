// The envelope every stage artifact carries (DESIGN.md "The artifact envelope"), and the handoff
// table: which stage a verdict hands over to. Stages say who acts next; the runner only reads this.
import { z } from 'zod';
import { safeId, safeIteration } from '../config/safe-id-schema.js';

export const STAGES = ['generated', 'ranked', 'evaluated', 'gated', 'learned'] as const;
export type StageName = (typeof STAGES)[number];

export const envelope = z.object({
  schema: z.string().regex(/^whetstone\.[a-z_]+\/\d+$/),
  stage: z.enum(STAGES),
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
export const HANDOFF = {
  generated: { next_step: 'discriminate', next_owner: 'discriminator' },
  ranked: { next_step: 'evaluate', next_owner: 'evaluator' },
  evaluated: { next_step: 'gate_decision', next_owner: 'gate' },
  gated: { next_step: 'learn', next_owner: 'learner' },
  learned: { next_step: 'generate', next_owner: 'generator' },
} as const satisfies Record<StageName, { next_step: string; next_owner: string }>;

/** When an artifact ends the flow (an aborted evaluation, a finished standalone run). */
export const HANDOFF_END = {
  done: { next_step: 'done', next_owner: 'none' },
  abort: { next_step: 'abort', next_owner: 'human' },
} as const;

/** The schema id each stage's artifact carries. */
export const SCHEMA_OF = {
  generated: 'whetstone.candidates/1',
  ranked: 'whetstone.ranking/1',
  evaluated: 'whetstone.evaluation/1',
  gated: 'whetstone.gate/1',
  learned: 'whetstone.learning/1',
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
