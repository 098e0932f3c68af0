// Whether the bundle in dist/ is already the one scripts/bundle.ts would make, so a second `npm run build`
// (`npm test` right after `npm ci`'s) skips its ~4 s of bundling. The stamp, dist/bundle-stamp.json, names
// a hash of everything the bundle is made from — every compiled module under dist/src and dist/stages (what
// tsc wrote, so any change of source), the bundle scripts themselves and package-lock.json (the bundler's and
// the bundled packages' versions) — and the hash of every file the bundle wrote. The bundle is skipped only
// when the inputs hash the same and every file it wrote is there, unchanged, with nothing added to dist/bin/.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../src/core/atomic.js';

interface Stamp {
  inputs: string;
  outputs: Record<string, string>;
}

const STAMP = 'bundle-stamp.json';
const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** The hash of what the bundle is made from (`root` the repository, `dist` its dist/). */
export function bundleInputs(root: string, dist: string): string {
  const hash = createHash('sha256');
  for (const top of ['src', 'stages']) {
    // dist/stages/<s>/main.js is the bundle's own output, not tsc's.
    const files = (readdirSync(join(dist, top), { recursive: true }) as string[]).filter((f) => f.endsWith('.js') && !(top === 'stages' && /^[^/]+\/main\.js$/.test(f))).sort();
    for (const f of files) hash.update(`\0${top}/${f}\0`).update(readFileSync(join(dist, top, f)));
  }
  for (const f of ['scripts/bundle.js', 'scripts/bundle-options.js', 'scripts/bundle-chunks.js', 'scripts/bundle-stamp.js']) hash.update(`\0${f}\0`).update(readFileSync(join(dist, f)));
  if (existsSync(join(root, 'package-lock.json'))) hash.update('\0package-lock.json\0').update(readFileSync(join(root, 'package-lock.json')));
  return hash.digest('hex');
}

/** True when dist/ holds the bundle of exactly these inputs, untouched since it was written. */
export function bundleIsCurrent(dist: string, inputs: string): boolean {
  let stamp: Stamp;
  try {
    stamp = JSON.parse(readFileSync(join(dist, STAMP), 'utf8')) as Stamp;
  } catch {
    return false;
  }
  if (stamp.inputs !== inputs) return false;
  const written = Object.keys(stamp.outputs);
  const inBin = new Set(written.filter((f) => f.startsWith('bin/')));
  let present: string[];
  try {
    present = readdirSync(join(dist, 'bin'), { recursive: true }) as string[];
  } catch {
    return false;
  }
  if (present.some((f) => !inBin.has(`bin/${f}`))) return false;
  return written.every((f) => existsSync(join(dist, f)) && sha(readFileSync(join(dist, f))) === stamp.outputs[f]);
}

/** Drops the stamp before a bundle is made: a build cut short leaves none. */
export function dropStamp(dist: string): void {
  rmSync(join(dist, STAMP), { force: true });
}

/** Records the bundle just written: `files` by their paths under `dist`. */
export async function writeStamp(dist: string, inputs: string, files: string[]): Promise<void> {
  const outputs = Object.fromEntries(files.map((f) => [f, sha(readFileSync(join(dist, f)))]));
  await writeFileAtomically(join(dist, STAMP), `${JSON.stringify({ inputs, outputs } satisfies Stamp, null, 1)}\n`);
}
