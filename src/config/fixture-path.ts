// A path a suite names (a pytest file, a JSON schema, a judge spec, a command, intents cases): resolved
// next to the suite and refused when it escapes the suite's folder, by `..` or through a link. Suites,
// their intents section and judge calibration all resolve fixtures this way.
import { isAbsolute, relative, resolve } from 'node:path';
import { realpathSync } from 'node:fs';
import { displayPath } from './load-yaml.js';

/** Resolves `p` next to the suite and refuses anything that escapes the suite's folder. */
export function fixtureInside(dir: string, p: string, fail: (msg: string) => void): string | undefined {
  const full = resolve(dir, p);
  const rel = relative(dir, full);
  if (isAbsolute(p) || rel.startsWith('..') || isAbsolute(rel)) {
    fail(`"${p}" is outside the suite's folder; fixture paths must stay inside it`);
    return undefined;
  }
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    fail(`file not found: ${p} (looked in ${displayPath(dir)})`);
    return undefined;
  }
  const realRel = relative(realpathSync(dir), real);
  if (realRel.startsWith('..') || isAbsolute(realRel)) {
    fail(`"${p}" resolves (through a link) outside the suite's folder`);
    return undefined;
  }
  return real;
}
