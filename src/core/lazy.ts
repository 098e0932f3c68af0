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
/**
 * js-yaml, one copy per process. Its package ships two builds, the ES module `import` loads (the config and
 * suite readers) and the CommonJS one `require` loads; an evaluation that read its config and then a
 * SKILL.md's frontmatter loaded both (≈ 10 ms more start-up on an idle machine, its largest package). A module
 * that imports the ES build hands it over with `shareJsYaml`, and a synchronous reader loaded later takes
 * that one; the CommonJS build is required only when no reader imported the other.
 */
type JsYaml = Pick<typeof import('js-yaml'), 'load' | 'CORE_SCHEMA'>;
let jsYamlShared: JsYaml | undefined;
export const jsYamlLib = (): JsYaml => (jsYamlShared ??= require('js-yaml') as JsYaml);
export function shareJsYaml(m: JsYaml): void {
  jsYamlShared ??= m;
}
/** promptfoo's template engine: `whet import promptfoo` renders prompts and vars with it (src/import/promptfoo-render.ts). */
export const nunjucksLib = lazyModule<typeof import('nunjucks')>('nunjucks');
