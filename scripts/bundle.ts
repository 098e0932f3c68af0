// `npm run build`, after tsc: the `whet` users run (package.json "bin") is dist/src/cli.js and what it
// imports, bundled into dist/bin/. Why: a command of ~240 ES modules spent ~100 ms of its start resolving,
// reading and linking them (zod alone is 94 files); an entry chunk plus a chunk per lazily imported command
// family loads the same code from far fewer files, so every command starts sooner (README "Benchmark").
// Dynamic imports stay dynamic, so `--version` still loads no command family.
//
// zod is bundled in; every other package stays an import of node_modules: the SDKs, zx, pino, ajv, yaml and
// fast-glob load lazily or through createRequire, and pino and zx find files of their own on disk.
// dist/src stays the unbundled tsc output the unit tests import and the stage programs run from.
import { build } from 'rolldown';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const bundled = (id: string) => id === 'zod' || id.startsWith('zod/');

const started = performance.now();
const out = await build({
  cwd: root,
  input: { whet: 'dist/src/cli.js' },
  platform: 'node',
  logLevel: 'warn',
  external: (id) => !id.startsWith('.') && !id.startsWith('/') && !bundled(id),
  output: { dir: 'dist/bin', format: 'esm', cleanDir: true },
});
const files = Array.isArray(out) ? out.flatMap((o) => o.output) : out.output;
console.log(`bundled dist/bin/whet.js (${files.length} chunks) in ${Math.round(performance.now() - started)} ms`);
