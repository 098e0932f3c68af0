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

