// Sharding in pipeline mode (issue 16): a ranked candidate against the baseline, each shard running both
// variants of its tasks, merged into the iteration's evaluation.json an unsharded run writes — the same
// paired comparison (McNemar), per-category deltas and handoff.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir, whet, write } from '../support/cli.js';
import { measuredFields, shardProject } from '../support/shard-project.js';

describe('whet evaluate --shard in pipeline mode + whet merge', () => {
  it('3 shards merge to the unsharded iteration artifact, handoff included', async () => {
    const dir = tempDir('whet-shard-pipe-');
    shardProject(dir, { suiteTasks: 90 });
    // The candidate adds delta (fixes) and drops gamma (regressions): both sides of McNemar are non-zero.
    write(join(dir, 'in/variants/c1/SKILL.md'), '---\nname: shard-demo\ndescription: demo\n---\n# Demo\n\nAlways say alpha.\nRelease notes mention delta.\n');
    write(join(dir, 'in/ranking.json'), JSON.stringify({ run_id: 'r1', iteration: 1, target: { path: '../skill' }, scored_candidates: [{ id: 'c1', score: 8, variant_path: 'variants/c1' }] }));
    const args = ['evaluate', '--input', 'in/ranking.json', '--candidate-id', 'c1', '--task-suite', 'tasks.yaml'];
    const plain = await whet([...args, '--state-root', 'plain'], { cwd: dir });
    expect(plain.stderr).not.toMatch(/internal error/);
    const want = measuredFields(join(dir, 'plain/runs/r1/iter-001/evaluation.json')) as { evaluation: { paired: { regressed: number; fixed: number } } };
    expect(want.evaluation.paired.regressed).toBeGreaterThan(0);
    expect(want.evaluation.paired.fixed).toBeGreaterThan(0);
    for (const i of [1, 2, 3]) {
      const r = await whet([...args, '--shard', `${i}/3`, '--state-root', `s${i}`], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/baseline \+ c1/);
    }
    const m = await whet(['merge', 's1', 's2', 's3', '--state-root', 'm'], { cwd: dir });
    expect(m.code, m.stderr).toBe(plain.code);
    const got = join(dir, 'm/runs/r1/iter-001/evaluation.json');
    expect(resolve(dir, /artifact: (\S+)/.exec(m.stdout)![1]!)).toBe(got);
    expect(measuredFields(got)).toEqual(want);
    // The merged iteration holds the union of the results, as the unsharded one does.
    const lines = (f: string) => readFileSync(f, 'utf8').trim().split('\n').length;
    expect(lines(join(dir, 'm/runs/r1/iter-001/results/c1.jsonl'))).toBe(lines(join(dir, 'plain/runs/r1/iter-001/results/c1.jsonl')));
  }, 240_000);
});
