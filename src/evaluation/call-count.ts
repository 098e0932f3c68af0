// The one stored shape of a call count (run-usage.ts counts it): learning.json's totals, run.json's
// summary and the report model all use this schema, so a count means the same thing in each.
import { z } from 'zod';

export const callCount = z.object({
  /** The agent's own calls: the task attempts. */
  engine: z.number().int().min(0),
  /** The judges' calls, the discriminator's model judge included. */
  judge: z.number().int().min(0),
  /** The generator's calls (the llm proposer). */
  generator: z.number().int().min(0),
  /** engine + judge + generator: what `budgets.max_engine_calls` caps. */
  total: z.number().int().min(0),
});

export type CallCountValue = z.infer<typeof callCount>;

/**
 * The one wording of a call count: "18 calls: engine 9 · judge 6 · generator 3". A count written before
 * the split was kept (run.json or learning.json of an older run) says only its sum.
 */
export function callsText(c: CallCountValue | null | undefined, total?: number): string {
  if (!c) return `${total ?? 0} call(s) (engine, judge and generator; not split in this older run)`;
  return `${c.total} call(s): engine ${c.engine} · judge ${c.judge} · generator ${c.generator}`;
}

