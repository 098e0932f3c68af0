// How whetstone's code is bundled (scripts/bundle.ts: the installed `whet`), shared with `npm run bench`,
// whose reference for the cache row — a process that only loads the suite — loads it from a bundle made the
// same way, so both sides of that ratio pay the same price for loading code.
//
// zod and commander are bundled in (commander is CommonJS: imported from node_modules, Node read its six
// files and scanned them for exports on every start, ≈ 9 ms of `whet --version`); every other package
// stays an import of node_modules: zx, pino, ajv, yaml and
// fast-glob load lazily or through createRequire, and pino and zx find files of their own on disk.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { BuildOptions, CodeSplittingOptions, Plugin } from 'rolldown';

const bundled = (id: string) => id === 'zod' || id.startsWith('zod/') || id === 'commander';

const EAGER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
/**
 * commander requires node:child_process at load, for executable subcommands (`spawn`), which whet has
 * none of; loading it brings net, dgram and streams, ≈ 4 ms of every start that parses arguments
 * (`--help`, `status`, `show`). Bundled, the require is made on first use instead. A commander whose
 * source no longer has that line fails the build rather than being bundled unchanged.
 */
const lazyChildProcess: Plugin = {
  name: 'commander-lazy-child-process',
  transform(code, id) {
    if (!/[\\/]node_modules[\\/]commander[\\/]lib[\\/]command\.js$/.test(id)) return null;
    if (!code.includes(EAGER_CHILD_PROCESS)) throw new Error(`${id}: commander no longer has "${EAGER_CHILD_PROCESS}"; see scripts/bundle-options.ts`);
    return code.replace(EAGER_CHILD_PROCESS, "const childProcess = { get spawn() { return require('node:child_process').spawn; } };");
  },
};

const NO_BUILD_ID = 'export const BUILD_ID = undefined;';
/**
 * src/core/build-id.ts gets the hash of every compiled module under dist/ (src and stages, as tsc wrote
 * them) and of package-lock.json (the suite readers' own packages, js-yaml and zod among them): the id
 * changes with any change of code or of a locked dependency. A build-id.js without its placeholder line
 * fails the build rather than shipping a bundle with no id.
 */
function buildId(root: string): Plugin {
  let id: string | undefined;
  const compute = () => {
    const hash = createHash('sha256');
    for (const top of ['dist/src', 'dist/stages']) {
      const files = (readdirSync(join(root, top), { recursive: true }) as string[]).filter((f) => f.endsWith('.js')).sort();
      for (const f of files) hash.update(`\0${top}/${f}\0`).update(readFileSync(join(root, top, f)));
    }
    if (existsSync(join(root, 'package-lock.json'))) hash.update('\0package-lock.json\0').update(readFileSync(join(root, 'package-lock.json')));
    return hash.digest('hex').slice(0, 16);
  };
  return {
    name: 'whetstone-build-id',
    transform(code, file) {
      if (!/[\\/]dist[\\/]src[\\/]core[\\/]build-id\.js$/.test(file)) return null;
      if (!code.includes(NO_BUILD_ID)) throw new Error(`${file}: no "${NO_BUILD_ID}" to replace; see scripts/bundle-options.ts`);
      return code.replace(NO_BUILD_ID, `export const BUILD_ID = ${JSON.stringify((id ??= compute()))};`);
    },
  };
}

/**
 * Bundles each of `entries` (name → a module under dist/, by its path from `root`) into `dir` as `name`.js.
 * `chunks` names where the chunks the entries share go (a path pattern under `dir`); with none they go
 * beside the entries and `dir` is emptied first.
 */
export function bundleOptions(root: string, entries: Record<string, string>, dir: string, chunks?: string, groups?: CodeSplittingOptions): BuildOptions {
  return {
    cwd: root,
    input: entries,
    platform: 'node',
    logLevel: 'warn',
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !bundled(id),
    plugins: [lazyChildProcess, buildId(root)],
    // Joined chunks (groups) leave entries with more than they export: allowed, as the bundler asks.
    ...(groups ? { preserveEntrySignatures: 'allow-extension' as const } : {}),
    output: { dir, format: 'esm', cleanDir: chunks === undefined, ...(chunks ? { chunkFileNames: chunks } : {}), ...(groups ? { codeSplitting: groups } : {}) },
  };
}

/**
 * The bundler's groups for chunks to join (scripts/bundle-chunks.ts): each group of first-pass chunks holds
 * their modules, named after its largest chunk. Only the modules named are placed; the rest is split as
 * before. A group's dependencies stay where they are (the plan has checked the chunks it leaves form no
 * cycle), so a group holds what the plan says and no more.
 */
export function groupsOf(chunks: { file: string; modules: string[]; bytes: number }[], groups: string[][]): CodeSplittingOptions {
  const byFile = new Map(chunks.map((c) => [c.file, c]));
  const nameOf = new Map<string, string>();
  const taken = new Set<string>();
  for (const files of groups) {
    const held = files.map((f) => byFile.get(f)!).sort((a, b) => b.bytes - a.bytes);
    const base = basename(held[0]!.file).replace(/-[^-]+\.js$/, '');
    let name = base;
    for (let k = 2; taken.has(name); k++) name = `${base}${k}`;
    taken.add(name);
    for (const c of held) for (const m of c.modules) nameOf.set(m, name);
  }
  return { includeDependenciesRecursively: false, groups: [{ name: (id) => nameOf.get(id) ?? null, debugName: 'joined chunks', test: (id) => nameOf.has(id) }] };
}
