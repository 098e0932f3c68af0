// A second `npm run build` skips work only when dist/ is what the first one left (issue 43: `npm test` builds
// again right after `npm ci`): tsc's incremental record is dropped when an output it wrote is missing or was
// changed since (scripts/build-outputs.mjs), and the bundle is kept only while its inputs hash the same and
// every file it wrote is there unchanged (scripts/bundle-stamp.ts). Each check here fails if a stale dist/
// could pass for a fresh one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleInputs, bundleIsCurrent, writeStamp } from '../../scripts/bundle-stamp.js';
import { repoRoot, tempDir } from '../support/cli.js';

function put(root: string, file: string, text = `// ${file}\n`): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

describe("tsc's incremental record (scripts/build-outputs.mjs)", () => {
  const record = (root: string) => join(root, 'dist', 'tsconfig.tsbuildinfo');
  /** A repository whose every source has its output, the record written last. */
  function built(): string {
    const root = tempDir();
    for (const src of ['src/a.ts', 'stages/gate/index.ts', 'scripts/probe.cts']) put(root, src);
    for (const out of ['dist/src/a.js', 'dist/stages/gate/index.js', 'dist/scripts/probe.cjs']) {
      put(root, out);
      put(root, `${out}.map`);
    }
    put(root, 'dist/tsconfig.tsbuildinfo', '{}');
    const past = new Date(Date.now() - 60_000);
    for (const out of ['dist/src/a.js', 'dist/src/a.js.map']) utimesSync(join(root, out), past, past);
    return root;
  }
  const check = (root: string) => spawnSync(process.execPath, [join(repoRoot, 'scripts/build-outputs.mjs'), root], { encoding: 'utf8' });

  it('is kept while every output is there, older than the record', () => {
    const root = built();
    expect(check(root).status).toBe(0);
    expect(existsSync(record(root))).toBe(true);
  });

  it('is dropped when an output is missing, .cts and maps included', () => {
    for (const gone of ['dist/src/a.js', 'dist/scripts/probe.cjs', 'dist/stages/gate/index.js.map']) {
      const root = built();
      rmSync(join(root, gone));
      const run = check(root);
      expect(run.stdout).toContain(`${gone} is missing`);
      expect(existsSync(record(root)), gone).toBe(false);
    }
  });

  it('is dropped when an output was changed after it', () => {
    const root = built();
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(root, 'dist/src/a.js'), later, later);
    expect(check(root).stdout).toContain('dist/src/a.js changed after the last build');
    expect(existsSync(record(root))).toBe(false);
  });
});

describe('the bundle stamp (scripts/bundle-stamp.ts)', () => {
  const OUTPUTS = ['bin/whet.js', 'bin/chunk-1.js', 'stages/gate/main.js', 'bundle-modules.json'];
  async function bundled(): Promise<{ root: string; dist: string }> {
    const root = tempDir();
    const dist = join(root, 'dist');
    put(root, 'package-lock.json', '{"lockfileVersion":3}');
    for (const f of ['src/cli.js', 'src/program/main.js', 'stages/gate/index.js', 'scripts/bundle.js', 'scripts/bundle-options.js', 'scripts/bundle-chunks.js', 'scripts/bundle-stamp.js']) put(dist, f);
    for (const f of OUTPUTS) put(dist, f);
    await writeStamp(dist, bundleInputs(root, dist), OUTPUTS);
    return { root, dist };
  }

  it('keeps a bundle made from the same inputs, untouched', async () => {
    const { root, dist } = await bundled();
    expect(bundleIsCurrent(dist, bundleInputs(root, dist))).toBe(true);
  });

  it('rebuilds when a compiled module, a bundle script or the lockfile changed', async () => {
    for (const f of ['dist/src/program/main.js', 'dist/stages/gate/index.js', 'dist/scripts/bundle-chunks.js', 'package-lock.json']) {
      const { root, dist } = await bundled();
      put(root, f, '// changed\n');
      expect(bundleIsCurrent(dist, bundleInputs(root, dist)), f).toBe(false);
    }
  });

  it("does not count the bundle's own stages/<s>/main.js as an input", async () => {
    const { root, dist } = await bundled();
    const before = bundleInputs(root, dist);
    put(dist, 'stages/gate/main.js', '// rewritten\n');
    expect(bundleInputs(root, dist)).toBe(before);
  });

  it('rebuilds when an output is changed, missing, or a file was added to dist/bin', async () => {
    const cases: [string, (dist: string) => void][] = [
      ['changed', (d) => put(d, 'bin/chunk-1.js', '// edited\n')],
      ['missing', (d) => rmSync(join(d, 'stages/gate/main.js'))],
      ['added', (d) => put(d, 'bin/extra.js')],
      ['no stamp', (d) => rmSync(join(d, 'bundle-stamp.json'))],
    ];
    for (const [what, damage] of cases) {
      const { root, dist } = await bundled();
      damage(dist);
      expect(bundleIsCurrent(dist, bundleInputs(root, dist)), what).toBe(false);
    }
  });
});
