// Looks a program up on PATH the way a shell would, without starting one.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

export function findProgram(name: string, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const candidates = name.includes('/') ? [isAbsolute(name) ? name : join(cwd, name)] : (env.PATH ?? '').split(delimiter).filter(Boolean).map((d) => join(d, name));
  for (const c of candidates) {
    try {
      accessSync(c, constants.X_OK);
      if (statSync(c).isFile()) return c;
    } catch {
      // not here
    }
  }
  return undefined;
}
