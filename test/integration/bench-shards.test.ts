// `npm run bench -- --shards N` (issue 16 item 5): the real script, as a process, on a small generated suite —
// it must run the shards, merge them, find the merged artifact equal to the unsharded one and print the
// figures; and the comparison it relies on must name where two artifacts differ.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { firstDifference } from '../../scripts/measured-fields.js';
import { repoRoot } from '../support/cli.js';

describe('npm run bench -- --shards N', () => {
  it('3 shards of 60 tasks: runs, merges, finds the artifacts equal, prints every figure', () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'dist/scripts/bench.js'), '--shards', '3', '--tasks', '60', '--concurrency', '4'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/60 tasks .* 3 shards/);
    expect(r.stdout).toMatch(/\| unsharded evaluation \(one process\) \| \d+\.\d\d s · peak RSS \d+ MB \|/);
    expect(r.stdout).toMatch(/\| slowest of 3 concurrent shards \| \d+\.\d\d s · peak RSS \d+ MB \|/);
    expect(r.stdout).toMatch(/\| merge of 3 shards \| \d+\.\d\d s · peak RSS [1-9]\d* MB \|/);
    expect(r.stdout).toMatch(/\| merge per 10,000 tasks \(scaled linearly\) \| \d+\.\d\d s · \d+\.\d\d × the unsharded evaluation's time \|/);
    expect(r.stdout).toMatch(/\| merged artifact = unsharded \(measured fields, exit code\) \| yes \|/);
  }, 150_000);

  it('the comparison names the first differing field, and finds none in equal artifacts', () => {
    const a = { evaluation: { pass_rate: 0.5, task_results: [{ id: 't1', passed: true }] } };
    expect(firstDifference(a, structuredClone(a))).toBeUndefined();
    expect(firstDifference(a, { evaluation: { pass_rate: 0.5, task_results: [{ id: 't1', passed: false }] } })).toBe('evaluation.task_results[0].passed');
    expect(firstDifference(a, { ...a, extra: 1 })).toBe('extra');
    expect(firstDifference([1, 2], [1, 2, 3])).toBe('[2]');
  });
});
