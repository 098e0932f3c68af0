// whetstone's own version, read once from its package.json (found by walking up from this file, which
// sits at a different depth under src/ and dist/src/). Shard manifests record it: shards measured by
// different versions of whetstone are not merged.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function whetstoneVersion(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++, dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
    if (pkg.name === 'whetstone' && pkg.version) return (cached = pkg.version);
  }
  return (cached = 'unknown');
}
