// Packages that only some commands or some inputs need, loaded on first use instead of at start-up.
// Each one here cost 35–55 ms to import on every `whet` process (fast-glob, yaml, ajv): a 1-task
// evaluation spent more time importing them than evaluating. They are CommonJS, so `require` loads them
// synchronously and the callers stay synchronous.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** A getter that requires `id` the first time it is called and returns the same module after. */
export function lazyModule<T>(id: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(id) as T);
}

export const fastGlob = lazyModule<typeof import('fast-glob')>('fast-glob');
export const yamlLib = lazyModule<typeof import('yaml')>('yaml');
export const ajvLib = lazyModule<typeof import('ajv')>('ajv');
export const ajv2019Lib = lazyModule<typeof import('ajv/dist/2019.js')>('ajv/dist/2019.js');
export const ajv2020Lib = lazyModule<typeof import('ajv/dist/2020.js')>('ajv/dist/2020.js');
/** promptfoo's template engine: `whet import promptfoo` renders prompts and vars with it (src/import/promptfoo-render.ts). */
export const nunjucksLib = lazyModule<typeof import('nunjucks')>('nunjucks');
