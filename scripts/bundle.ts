// `npm run build`, after tsc: the code the package ships, one copy of each module (issue 30). `whet`
// (package.json "bin": dist/bin/whet.js, from dist/src/cli.js) and the five stage programs
// (dist/stages/<s>/main.js, from dist/src/stage-programs/<s>.js) are entries of one bundle
// (scripts/bundle-options.ts) whose chunks, in dist/bin/, they share: the package ships those and not the
// unbundled tsc tree, which stays in dist/ for the tests only. Why a bundle: a command of ~240 ES modules
// spent ~100 ms of its start resolving, reading and linking them (zod alone is 94 files); an entry chunk
// plus a chunk per lazily imported command family loads the same code from far fewer files, so every
// command starts sooner (docs/benchmark.md). Dynamic imports stay dynamic, so `--version` still loads
// no command family. The bundler alone gave ~165 chunks, half under 2 kB; the build joins the small ones
// (scripts/bundle-chunks.ts) so the package stays under 150 files and a command opens fewer.
// dist/bundle-modules.json records which modules each chunk holds, for the tests that check what a
// program loads (test/integration/stage-programs.test.ts); it is not shipped.
import { build, type OutputChunk, type RolldownOutput } from 'rolldown';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, relative, resolve } from 'node:path';
import { builtinModules } from 'node:module';
import { bundleOptions, groupsOf } from './bundle-options.js';
import { chunkPlan, type FirstChunk } from './bundle-chunks.js';
import { writeFileAtomically } from '../src/core/atomic.js';
import { bundleInputs, bundleIsCurrent, dropStamp, writeStamp } from './bundle-stamp.js';

const STAGES = ['generate', 'discriminate', 'evaluate', 'gate', 'learn'];
const root = resolve(fileURLToPath(import.meta.url), '../../..');
const dist = join(root, 'dist');
const entries: Record<string, string> = { 'bin/whet': 'dist/src/cli.js' };
for (const s of STAGES) entries[`stages/${s}/main`] = `dist/src/stage-programs/${s}.js`;
// The package's one importable module (package.json "exports": whetstone/schemas): the artifacts' schemas.
entries['bin/schemas'] = 'dist/src/report/public-schemas.js';

// One join may cost the programs that load more this many bytes of code in all. 20 kB left 102 files,
// 80 kB 80; at 40 kB (92) every command started as before or sooner (docs/benchmark.md, 2026-12-04).
const MAX_EXTRA_BYTES = 40_000;
const builtins = new Set(builtinModules);
/** What a program must not start to load by a join: a package, zod, a stage, a command family, the CLI itself. */
function tagsOf(c: FirstChunk): string[] {
  const packages = c.imports.filter((i) => !i.startsWith('bin/') && !i.startsWith('node:') && !builtins.has(i)).map((i) => `package:${i.split('/')[0]}`);
  const code = c.modules.map((m) => relative(root, m)).flatMap((m) => {
    if (m.startsWith('node_modules/zod/')) return ['zod'];
    const at = /^dist\/(?:stages\/([^/]+)\/|src\/(commands|stage-programs|runner)\/([^/]+)$|src\/cli\.js$)/.exec(m);
    if (!at) return [];
    return [at[1] ? `stage:${at[1]}` : at[2] ? `${at[2]}:${at[3]}` : 'cli'];
  });
  return [...packages, ...code];
}

// A bundle already made from the same compiled code, scripts and lockfile is kept (scripts/bundle-stamp.ts).
const started = performance.now();
const inputs = bundleInputs(root, dist);
if (bundleIsCurrent(dist, inputs)) {
  console.log(`bundle: up to date (dist/bundle-stamp.json), checked in ${Math.round(performance.now() - started)} ms`);
} else {
  dropStamp(dist);
  const described = (out: RolldownOutput) => out.output.filter((f): f is OutputChunk => f.type === 'chunk');
  // First the bundler's own split, not written: what each program loads; then the same build with the
  // chunks the plan joins (scripts/bundle-chunks.ts) named as groups.
  const first = described(await build({ ...bundleOptions(root, entries, dist, 'bin/[name]-[hash].js'), write: false })).map((c) => ({
    file: c.fileName,
    entry: c.isEntry ? ('static' as const) : c.isDynamicEntry ? ('dynamic' as const) : undefined,
    modules: c.moduleIds,
    imports: c.imports,
    dynamicImports: c.dynamicImports,
    bytes: c.code.length,
  }));
  const groups = chunkPlan(first, { maxExtraBytes: MAX_EXTRA_BYTES, tagsOf });
  rmSync(join(dist, 'bin'), { recursive: true, force: true });
  const files = described(await build(bundleOptions(root, entries, dist, 'bin/[name]-[hash].js', groupsOf(first, groups))));
  // The bundler places what the groups name and splits the rest as before: one file fewer per chunk joined.
  const planned = first.length - groups.reduce((s, g) => s + g.length - 1, 0);
  if (files.length !== planned) throw new Error(`the bundle has ${files.length} files where the chunk plan makes ${planned}: see scripts/bundle-chunks.ts`);
  const modules = Object.fromEntries(files.map((f) => [f.fileName, f.moduleIds.map((m) => relative(root, m))]));
  await writeFileAtomically(join(dist, 'bundle-modules.json'), `${JSON.stringify(modules, null, 1)}\n`);
  console.log(`bundled whet, ${STAGES.length} stage programs and whetstone/schemas: ${files.length} files (the bundler's split: ${first.length}) in ${Math.round(performance.now() - started)} ms`);
  await writeStamp(dist, inputs, [...files.map((f) => f.fileName), 'bundle-modules.json']);
}
