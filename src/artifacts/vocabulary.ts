// One vocabulary of change categories, shared by candidates, traces and lessons, so "what kind of edit
// was this" means the same thing to the generator, the discriminator, the gate and the learner.
import { z } from 'zod';

export const CHANGE_CATEGORIES = [
  'trigger', // the description / when-to-use guidance that decides whether the skill is picked
  'boundaries', // when not to use, scope limits
  'examples', // worked examples
  'output-format', // the output contract
  'workflow', // ordered steps
  'coverage', // guidance for a kind of request the skill handles badly (from failures)
  'conciseness', // length, duplication
  'frontmatter', // name, description and other metadata keys
  'other',
] as const;
export const changeCategory = z.enum(CHANGE_CATEGORIES);
export type ChangeCategory = z.infer<typeof changeCategory>;

export const risk = z.enum(['low', 'medium', 'high']);
export type Risk = z.infer<typeof risk>;
