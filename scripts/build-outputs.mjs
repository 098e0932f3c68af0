// `npm run build`'s first step, before tsc (plain JavaScript: nothing is compiled yet). tsc builds
// incrementally (tsconfig.json `incremental`, its record in dist/tsconfig.tsbuildinfo, beside the outputs so
// `rm -rf dist` takes both): a second build — `npm test` after `npm ci` — re-emits only the sources whose
// content changed, in ~2 s instead of ~20 s of CPU. But tsc trusts its record: an output that was deleted
// or edited since is never written again while its source stays the same. So the record is dropped here,
// and tsc builds everything, when any source's output is missing or newer than the record.
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The repository: this script's parent folder, or the folder given (test/unit/build-stamps.test.ts).
const root = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(fileURLToPath(import.meta.url)), '..');
const record = join(root, 'dist', 'tsconfig.tsbuildinfo');

/** What tsc writes for each source tsconfig.json includes (src, stages and scripts: .ts and .cts), by path from `base`. */
function expectedOutputs(base) {
  const out = [];
  for (const top of ['src', 'stages', 'scripts']) {
    const dir = join(base, top);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir, { recursive: true })) {
      const m = /^(.*)\.(c?)ts$/.exec(f);
      if (!m || f.endsWith('.d.ts')) continue;
      const js = join('dist', top, `${m[1]}.${m[2]}js`);
      out.push(js, `${js}.map`);
    }
  }
  return out;
}

/** Why the record cannot be trusted (undefined when it can). */
function staleReason(base, recordPath) {
  if (!existsSync(recordPath)) return undefined;
  const written = statSync(recordPath).mtimeMs;
  for (const f of expectedOutputs(base)) {
    const p = join(base, f);
    if (!existsSync(p)) return `${f} is missing`;
    if (statSync(p).mtimeMs > written) return `${f} changed after the last build`;
  }
  return undefined;
}

const why = staleReason(root, record);
if (why) {
  console.log(`build: ${why}; tsc builds everything`);
  rmSync(record, { force: true });
}
