// A large suite evaluated again through the installed `whet` (the bundle, the only build with an id to key
// checked copies by): the second run reads the suite's checked copy, says so and records it, and reports
// exactly what the first did; an edited suite is read from its file again; a refused command and a config
// with caching off keep no copy.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeBenchSuite } from '../../scripts/bench-suite.js';
import { SUITE_COPY_MIN_BYTES } from '../../src/config/suite-copy.js';
import { tempDir, whetBin, write } from '../support/cli.js';

const run = promisify(execFile);
const N = 2500;

async function evaluate(dir: string, out: string, ...extra: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const argv = [whetBin, 'evaluate', '--standalone', '--mock', '--task-suite', 'tasks.yaml', '--skill-path', '.', '--state-root', 'state', '--output', out, ...extra];
  const r = await run(process.execPath, argv, { cwd: dir, maxBuffer: 16 << 20 }).catch((e: { code: number; stdout: string; stderr: string }) => e);
  return { code: 'code' in r && typeof r.code === 'number' ? r.code : 0, stdout: r.stdout, stderr: r.stderr };
}

const artifact = (dir: string, out: string) => JSON.parse(readFileSync(join(dir, out), 'utf8'));

describe('the checked copy of a large suite, through the installed whet', () => {
  it('is read on the second run, printed and recorded, and the evaluation is the same; an edit is read from the file', async () => {
    const dir = tempDir('whet-suite-copy-cli-');
    const suite = writeBenchSuite(dir, N);
    expect(readFileSync(suite).length).toBeGreaterThan(SUITE_COPY_MIN_BYTES);

    const first = await evaluate(dir, 'first.json');
    expect(first.code, first.stderr).toBe(0);
    const a = artifact(dir, 'first.json');
    expect(a.suite_copy).toMatchObject({ hit: false, why: 'absent' });
    expect(readdirSync(join(dir, 'state', 'cache', 'suites'))).toHaveLength(1);
    expect(first.stdout).not.toContain('checked copy');

    const second = await evaluate(dir, 'second.json');
    expect(second.code, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/^suite: tasks\.yaml · pass@1 · unchanged, read from its checked copy$/m);
    const b = artifact(dir, 'second.json');
    expect(b.suite_copy).toEqual({ hit: true, file: a.suite_copy.file });
    expect(b.inputs).toEqual(a.inputs);
    expect(b.task_results).toEqual(a.task_results);
    expect(b.evaluation.per_category).toEqual(a.evaluation.per_category);
    expect(b.evaluation.per_split).toEqual(a.evaluation.per_split);

    // --force reads the file (and says why the copy was not used); cache: off is the case below.
    const forced = await evaluate(dir, 'forced.json', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).not.toContain('checked copy');
    expect(artifact(dir, 'forced.json').suite_copy).toEqual({ hit: false, file: a.suite_copy.file, why: 'bypassed (--force)' });

    writeFileSync(suite, `${readFileSync(suite, 'utf8')}  - id: extra\n    category: apples\n    prompt: "One more about apples"\n    judges:\n      - {type: contains, expected: ["APPLE-OK"]}\n`);
    const third = await evaluate(dir, 'third.json');
    expect(third.code, third.stderr).toBe(0);
    const c = artifact(dir, 'third.json');
    expect(c.suite_copy).toMatchObject({ hit: false, why: 'changed' });
    expect(c.evaluation.total_tasks).toBe(N + 1);
    expect(c.inputs.suite).not.toBe(a.inputs.suite);
  }, 120_000);

  it('is not kept by a refused command, nor with caching off', async () => {
    const dir = tempDir('whet-suite-copy-cli-');
    writeBenchSuite(dir, N);
    const refused = await run(process.execPath, [whetBin, 'evaluate', '--standalone', '--mock', '--task-suite', 'tasks.yaml', '--skill-path', 'no-such-skill', '--state-root', 'state'], { cwd: dir }).catch((e: { code: number }) => e);
    expect('code' in refused ? refused.code : 0).toBe(2);
    expect(existsSync(join(dir, 'state'))).toBe(false);

    write(join(dir, 'pipeline.yaml'), 'cache: {enabled: false}\n');
    for (const out of ['off-1.json', 'off-2.json']) {
      const r = await evaluate(dir, out);
      expect(r.code, r.stderr).toBe(0);
      expect(artifact(dir, out).suite_copy).toBeUndefined();
    }
    expect(existsSync(join(dir, 'state', 'cache', 'suites'))).toBe(false);
  }, 120_000);
});
