// whetstone as an npm package: its own name and version, and how a project reaches its `whet` — as a
// dependency of the project (`npx whet` after `npm ci`) or installed on its own (`npm install -g`, then
// `whet`). Printed hints and generated CI files ask this instead of assuming the user's layout.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_NAME = 'whetstone';

type Pkg = { name?: unknown; version?: unknown; bin?: unknown; dependencies?: unknown; devDependencies?: unknown; optionalDependencies?: unknown };

function readPkg(file: string): Pkg | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Pkg;
  } catch {
    return undefined;
  }
}

function readOwn(): { root: string; version: string; bin: string } {
  // dist/src/core/package-info.js in a build, src/core/package-info.ts under the test runner: walk up to the
  // package root. npm_package_version would be the version of whatever package `npm run` started in.
  const start = dirname(fileURLToPath(import.meta.url));
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    const pkg = existsSync(file) ? readPkg(file) : undefined;
    if (pkg?.name === PACKAGE_NAME && typeof pkg.version === 'string') return { root: dir, version: pkg.version, bin: binOf(pkg) };
    if (dirname(dir) === dir) return { root: start, version: '0.0.0', bin: DEFAULT_BIN };
  }
}

const DEFAULT_BIN = 'dist/bin/whet.js';
const binOf = (pkg: Pkg) => {
  const bin = pkg.bin as Record<string, unknown> | undefined;
  return typeof bin?.['whet'] === 'string' ? bin['whet'] : DEFAULT_BIN;
};

const own = readOwn();
export const VERSION = own.version;
/** The folder whetstone is installed in (its package.json, README.md, docs/). */
export const PACKAGE_ROOT = own.root;
/** The `whet` program of this install (package.json "bin": the bundle in a build), by absolute path. */
export const WHET_BIN = join(PACKAGE_ROOT, own.bin);
/** The method guide, shipped in the package: the help output names it by this absolute path. */
export const METHOD_GUIDE = join(PACKAGE_ROOT, 'docs', 'method.md');

/** Whether the project in `dir` lists whetstone in its package.json, so `npm ci` there brings `npx whet`. */
export function isDependencyOf(dir: string): boolean {
  const pkg = readPkg(join(dir, 'package.json'));
  if (!pkg) return false;
  return [pkg.dependencies, pkg.devDependencies, pkg.optionalDependencies].some(
    (deps) => typeof deps === 'object' && deps !== null && Object.prototype.hasOwnProperty.call(deps, PACKAGE_NAME),
  );
}
