// `whet stage check <name> -- <command…>`: a program that honours the contract is said to (exit 0), one
// that does not is told what is wrong (exit 2), on a sample project it never sees the path of.
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, tempDir, whet } from '../support/cli.js';

const badGenerator = join(repoRoot, 'test/fixtures/stages/bad-generator.mjs');

// Whole loops on the mock engine: seconds alone, far more on a loaded CI machine, hence 120 s per test.
describe('whet stage check', () => {
  it('says the Python example generator honours the generate contract, and the built-in discriminator reads its candidates', async () => {
    // Run from the repository, as a user would with the relative path the docs give.
    const r = await whet(['stage', 'check', 'generate', '--', 'python3', 'examples/external-generator/generate.py'], { cwd: repoRoot });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/built-in baseline: baseline: pass rate/);
    expect(r.stdout).toMatch(/generate \(external: python3 examples\/external-generator\/generate\.py\): proposed; 2 candidate\(s\)/);
    expect(r.stdout).toMatch(/built-in discriminate read it: discriminate: selected py-/);
    expect(r.stdout).toMatch(/^OK: python3 examples\/external-generator\/generate\.py honours the generate stage contract/m);
  }, 120_000);

  it('says what is wrong with a program that breaks it: exit 2 with the file and the field', async () => {
    const r = await whet(['stage', 'check', 'generate', '--', 'node', badGenerator, 'risk'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/^NOT OK: .*candidates\.json:\d+:\d+ candidates\[0\]\.risk: stage program node .*bad-generator\.mjs \(stages\.generate\.command\) wrote an invalid candidates\.json/m);
    expect(r.stdout).not.toMatch(/^OK:/m);
  }, 120_000);

  it('runs the built-in stages up to the one checked: a generator is no discriminator', async () => {
    const r = await whet(['stage', 'check', 'discriminate', '--', 'node', badGenerator, 'valid'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/built-in generate: generate: \d+ candidate/);
    expect(r.stdout).toMatch(/NOT OK: .*ranking\.json:\d+:\d+ \S+: stage program .*\(stages\.discriminate\.command\) wrote an invalid ranking\.json/);
  }, 120_000);

  it('reports a crashing program with its stderr, and --keep leaves the sample project to look at', async () => {
    const r = await whet(['stage', 'check', 'generate', '--keep', '--', 'node', badGenerator, 'crash'], { cwd: tempDir() });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/NOT OK: stage program .* failed: exit code 1: bad-generator: something went wrong/);
    const kept = /sample project: (\S+) \(mock engine\)/.exec(r.stdout)?.[1];
    expect(kept && existsSync(join(kept, 'pipeline.yaml'))).toBe(true);
    expect(readdirSync(join(kept!, 'state/runs')).length).toBe(1);
  }, 120_000);

  it('refuses a stage no program can replace, and a missing command (exit 2)', async () => {
    const a = await whet(['stage', 'check', 'baseline', '--', 'true'], { cwd: tempDir() });
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/"baseline" is not a stage a program can replace/);
    const b = await whet(['stage', 'check', 'gate'], { cwd: tempDir() });
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/give the program after --/);
  }, 120_000);
});
