// candidates.json: what the generate stage proposes. A candidate is a list of edit actions on the target,
// with the signal it answers, and its materialised variant (the whole skill folder with the edits applied,
// under variants/<id>/) plus a unified diff against the target.
import { z } from 'zod';
import { envelope } from './envelope.js';
import { changeCategory, risk } from './vocabulary.js';
import { innerPath, safeId } from '../config/safe-id-schema.js';
import { EditActionSchema } from '../skill/edits.js';

export const signal = z.object({
  /** structure: a weak structural dimension; train_failures: tasks of the train split that failed; llm: the model's own reading. */
  kind: z.enum(['structure', 'train_failures', 'llm']),
  dimension: z.string().optional(),
  /** Train-split task ids this candidate answers (never held-out ids). */
  tasks: z.array(z.string()).optional(),
  detail: z.string().optional(),
});

export const candidate = z.object({
  id: safeId,
  title: z.string().min(1),
  category: changeCategory,
  risk,
  rationale: z.string().min(1),
  proposer: z.enum(['structural', 'feedback', 'llm']),
  answers: signal,
  actions: z.array(EditActionSchema).min(1),
  /** Relative to the iteration folder. */
  variant_path: innerPath,
  diff: z.string(),
  diff_stats: z.object({ added: z.number().int(), removed: z.number().int() }),
  /** sha256 of the variant's SKILL.md. */
  content_sha256: z.string(),
});
export type Candidate = z.infer<typeof candidate>;

export const candidatesArtifact = envelope.extend({
  schema: z.literal('whetstone.candidates/1'),
  stage: z.literal('generated'),
  target: z.object({ path: z.string(), skill_file: z.string(), sha256: z.string() }),
  candidates: z.array(candidate),
  /** Proposers that failed (invalid model JSON twice, engine error), reported, never hidden. */
  proposer_errors: z.array(z.object({ proposer: z.string(), message: z.string() })),
  signals: z.object({
    train_failures: z.array(z.string()),
    weakest_dimensions: z.array(z.string()),
    lessons_considered: z.number().int(),
    /** A person's verdicts from `whet view` the generator was given: train tasks of this target only. */
    human_feedback: z.array(z.object({ id: z.string(), task_id: z.string(), variant: z.string(), rating: z.enum(['good', 'bad']), comment: z.string() })).optional(),
  }),
  /** Proposals left out, with why: tried and rejected before on this target, duplicates, no-ops, over the cap. */
  skipped: z.array(z.object({ title: z.string(), proposer: z.string(), why: z.string() })).optional(),
  /** Calls the llm proposer made, and their cost (for the learner's budget totals). */
  engine_calls: z.number().int().min(0).optional(),
  cost_usd: z.number().min(0).optional(),
});
export type CandidatesArtifact = z.infer<typeof candidatesArtifact>;
