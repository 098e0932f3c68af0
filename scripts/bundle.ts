// `npm run build`, after tsc: the `whet` users run (package.json "bin") is dist/src/cli.js and what it
// imports, bundled into dist/bin/ (scripts/bundle-options.ts). Why: a command of ~240 ES modules spent
// ~100 ms of its start resolving, reading and linking them (zod alone is 94 files); an entry chunk plus a
// chunk per lazily imported command family loads the same code from far fewer files, so every command
// starts sooner (docs/benchmark.md). Dynamic imports stay dynamic, so `--version` still loads no command
// family. dist/src stays the unbundled tsc output the unit tests import and the stage programs run from.
import { build } from 'rolldown';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { bundleOptions } from './bundle-options.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const started = performance.now();
const out = await build(bundleOptions(root, 'whet', 'dist/src/cli.js', 'dist/bin'));
const files = Array.isArray(out) ? out.flatMap((o) => o.output) : out.output;
console.log(`bundled dist/bin/whet.js (${files.length} chunks) in ${Math.round(performance.now() - started)} ms`);
