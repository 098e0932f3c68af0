// How whetstone's code is bundled (scripts/bundle.ts: the installed `whet`), shared with `npm run bench`,
// whose reference for the cache row — a process that only loads the suite — loads it from a bundle made the
// same way, so both sides of that ratio pay the same price for loading code.
//
// zod and commander are bundled in (commander is CommonJS: imported from node_modules, Node read its six
// files and scanned them for exports on every start, ≈ 9 ms of `whet --version`); every other package
// stays an import of node_modules: zx, pino, ajv, yaml and
// fast-glob load lazily or through createRequire, and pino and zx find files of their own on disk.
import type { BuildOptions, Plugin } from 'rolldown';

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

/** Bundles `input` (a module under dist/, by its path from `root`) into `dir` as the entry `name`.js. */
export function bundleOptions(root: string, name: string, input: string, dir: string): BuildOptions {
  return {
    cwd: root,
    input: { [name]: input },
    platform: 'node',
    logLevel: 'warn',
    external: (id) => !id.startsWith('.') && !id.startsWith('/') && !bundled(id),
    plugins: [lazyChildProcess],
    output: { dir, format: 'esm', cleanDir: true },
  };
}
