// pipeline.yaml's `suites:` entries as the config reads them: the schema and each entry located. Apart
// from the suite loader (suite-overrides.ts) so that reading the config does not load every suite format.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';

const taskRef = z.union([z.number(), z.string().trim().min(1)], { error: 'expected a task id (a number or a string)' });

export const suiteOverridesSchema = z.strictObject({
  /** Task id (or the author's id) → category. */
  categories: z.record(z.string().min(1), z.string().trim().min(1)).optional(),
  negative_controls: z.array(taskRef).optional(),
  held_out: z.array(taskRef).optional(),
  train: z.array(taskRef).optional(),
});
export type SuiteOverridesInput = z.infer<typeof suiteOverridesSchema>;

/** One entry of one list, with where it is written (for the refusal of an id that names no task). */
export interface OverrideRef {
  ref: string | number;
  where: string;
  field: string;
}

export interface SuiteOverrides {
  /** Absolute path of the suite the entry is for. */
  suite: string;
  categories: (OverrideRef & { category: string })[];
  negativeControls: OverrideRef[];
  heldOut: OverrideRef[];
  train: OverrideRef[];
}

/** pipeline.yaml's `suites:` with every entry located; paths relative to the file's folder. */
export function resolveSuiteOverrides(v: Record<string, SuiteOverridesInput> | undefined, dir: string, at: (p: (string | number)[]) => string): SuiteOverrides[] {
  return Object.entries(v ?? {}).map(([key, o]) => {
    // A misspelt path would otherwise leave the suite as it is without a word.
    if (!existsSync(resolve(dir, key))) throw new ConfigError(`no suite file ${key} (paths under "suites:" are relative to ${dir})`, at(['suites', key]), `suites.${key}`);
    const list = (name: 'negative_controls' | 'held_out' | 'train') =>
      (o[name] ?? []).map((ref, i) => ({ ref, where: at(['suites', key, name, i]), field: `suites.${key}.${name}[${i}]` }));
    return {
      suite: resolve(dir, key),
      categories: Object.entries(o.categories ?? {}).map(([ref, category]) => ({ ref, category, where: at(['suites', key, 'categories', ref]), field: `suites.${key}.categories.${ref}` })),
      negativeControls: list('negative_controls'),
      heldOut: list('held_out'),
      train: list('train'),
    };
  });
}

