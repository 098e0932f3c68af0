// `npm run build`, after tsc: the code the package ships, one copy of each module (issue 30). `whet`
// (package.json "bin": dist/bin/whet.js, from dist/src/cli.js) and the five stage programs
// (dist/stages/<s>/main.js, from dist/src/stage-programs/<s>.js) are entries of one bundle
// (scripts/bundle-options.ts) whose chunks, in dist/bin/, they share: the package ships those and not the
// unbundled tsc tree, which stays in dist/ for the tests only. Why a bundle: a command of ~240 ES modules
// spent ~100 ms of its start resolving, reading and linking them (zod alone is 94 files); an entry chunk
// plus a chunk per lazily imported command family loads the same code from far fewer files, so every
// command starts sooner (docs/benchmark.md). Dynamic imports stay dynamic, so `--version` still loads
// no command family. dist/bundle-modules.json records which modules each chunk holds, for the tests that
// check what a program loads (test/integration/stage-programs.test.ts); it is not shipped.
import { build, type OutputChunk } from 'rolldown';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative, resolve } from 'node:path';
import { bundleOptions } from './bundle-options.js';
import { writeFileAtomically } from '../src/core/atomic.js';

const STAGES = ['generate', 'discriminate', 'evaluate', 'gate', 'learn'];
const root = resolve(fileURLToPath(import.meta.url), '../../..');
const dist = join(root, 'dist');
const entries: Record<string, string> = { 'bin/whet': 'dist/src/cli.js' };
for (const s of STAGES) entries[`stages/${s}/main`] = `dist/src/stage-programs/${s}.js`;

const started = performance.now();
rmSync(join(dist, 'bin'), { recursive: true, force: true });
const out = await build(bundleOptions(root, entries, dist, 'bin/[name]-[hash].js'));
const files = (Array.isArray(out) ? out.flatMap((o) => o.output) : out.output).filter((f): f is OutputChunk => f.type === 'chunk');
const modules = Object.fromEntries(files.map((f) => [f.fileName, f.moduleIds.map((m) => relative(root, m))]));
await writeFileAtomically(join(dist, 'bundle-modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
console.log(`bundled whet and ${STAGES.length} stage programs (${files.length} files) in ${Math.round(performance.now() - started)} ms`);
