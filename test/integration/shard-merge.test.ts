// Sharding (issue 16): `whet evaluate --shard i/n` on separate state directories, then `whet merge`, must
// give the artifact an unsharded run gives on every measured field — for 1, 2, 4 and 8 shards of a
// 400-task suite with mixed judges, pass-k 2, categories, splits and engine errors (a real executable,
// sed, that fails on some prompts) — and tampered shards must each be refused, naming the cause, with
// nothing written.
// long-running: spawns shard runs and merges them, ≈ 75 s
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fg from 'fast-glob';
import { c as tarCreate } from 'tar';
import { beforeAll, describe, expect, it } from 'vitest';
import { snapshotTree, tempDir, whet } from '../support/cli.js';
import { measuredFields, SHARD_CATEGORIES, shardProject, shardSuite } from '../support/shard-project.js';

const TASKS = 400;
const CATS = SHARD_CATEGORIES;

const ARGS = ['evaluate', '--standalone', '--skill-path', 'skill', '--task-suite', 'tasks.yaml'];

/** The eight shards the 8-shard case leaves, which the tampered cases reuse. */
const EIGHTHS = Array.from({ length: 8 }, (_, i) => `s8-${i + 1}`);

const evaluationIn = (stdout: string) => /artifact: (\S+evaluation\.json)/.exec(stdout)?.[1];

describe('whet evaluate --shard i/n + whet merge', () => {
  const dir = tempDir('whet-shard-');
  let unsharded: Record<string, unknown>;
  beforeAll(async () => {
    shardProject(dir);
    const r = await whet([...ARGS, '--state-root', 'plain'], { cwd: dir });
    expect(r.stderr).not.toMatch(/internal error/);
    unsharded = measuredFields(resolve(dir, evaluationIn(r.stdout)!));
  }, 240_000);

  it('the unsharded run has what the bar asks for: errors, failures, passes, both splits, every category', () => {
    const e = unsharded['evaluation'] as { errors: number; passed: number; failed: number; per_split: object; per_category: object; pass_k: number; judge_calls: number };
    expect(e.errors).toBeGreaterThan(5);
    expect(e.passed).toBeGreaterThan(50);
    expect(e.failed).toBeGreaterThan(50);
    expect(Object.keys(e.per_split).sort()).toEqual(['holdout', 'train']);
    expect(Object.keys(e.per_category).sort()).toEqual([...CATS].sort());
    expect(e.pass_k).toBe(2);
    expect(e.judge_calls).toBeGreaterThan(0);
  });

  for (const n of [1, 2, 4, 8]) {
    it(`${n} shard(s), each its own process state, merge to the unsharded artifact`, async () => {
      const dirs: string[] = [];
      const seen = new Set<string>();
      for (let i = 1; i <= n; i++) {
        const s = `s${n}-${i}`;
        const r = await whet([...ARGS, '--shard', `${i}/${n}`, '--state-root', s, '--json'], { cwd: dir });
        expect(r.code, r.stderr).toBe(0);
        const m = JSON.parse(r.stdout) as { tasks: string[]; covers: number[] };
        expect(m.covers).toEqual([i]);
        for (const t of m.tasks) expect(seen.has(t)).toBe(false), seen.add(t);
        // Balanced by count: no shard holds more than one task above its share.
        expect(m.tasks.length).toBeLessThanOrEqual(Math.ceil(TASKS / n));
        dirs.push(s);
      }
      expect(seen.size).toBe(TASKS);
      const merged = await whet(['merge', ...dirs, '--state-root', `m${n}`], { cwd: dir });
      expect(merged.stderr).not.toMatch(/refusing|internal/);
      expect(merged.code).toBe(0);
      expect(measuredFields(resolve(dir, evaluationIn(merged.stdout)!))).toEqual(unsharded);
      // The merged run, and the shards' own states, verify clean (issue 31).
      for (const state of [`m${n}`, ...dirs]) expect((await whet(['verify', '--state-root', state], { cwd: dir })).code, state).toBe(0);
    }, 240_000);
  }

  it('a merge of merges (archives of partial merges) gives the same artifact', async () => {
    for (const [a, b, out] of [['s4-1', 's4-2', 'p12'], ['s4-3', 's4-4', 'p34']] as const) {
      const r = await whet(['merge', '--partial', a, b, '--state-root', out], { cwd: dir });
      expect(r.code, r.stderr).toBe(0);
      await tarCreate({ gzip: true, file: join(dir, `${out}.tar.gz`), cwd: dir }, [out]);
    }
    const r = await whet(['merge', 'p12.tar.gz', 'p34.tar.gz', '--state-root', 'mm'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(measuredFields(resolve(dir, evaluationIn(r.stdout)!))).toEqual(unsharded);
  }, 120_000);

  it('the merge fills the baseline cache: an unsharded run afterwards is a cache hit with 0 engine calls', async () => {
    // The cache keeps error-free results only, so this one is a suite without ERRTASK prompts.
    const clean = tempDir('whet-shard-cache-');
    shardProject(clean, { suiteTasks: 40, errors: false });
    for (const i of [1, 2]) expect((await whet([...ARGS, '--shard', `${i}/2`, '--state-root', `c${i}`], { cwd: clean })).code).toBe(0);
    const m = await whet(['merge', 'c1', 'c2', '--state-root', 'cm'], { cwd: clean });
    expect(m.stdout).toMatch(/result stored/);
    const r = await whet([...ARGS, '--state-root', 'cm'], { cwd: clean });
    expect(r.stdout).toMatch(/cache: hit/);
    expect(r.stderr).toMatch(/0 engine calls/);
    type A = { task_results: unknown; evaluation: { pass_rate: number } };
    const hit = measuredFields(resolve(clean, evaluationIn(r.stdout)!)) as A;
    const merged = measuredFields(resolve(clean, evaluationIn(m.stdout)!)) as A;
    expect(hit.task_results).toEqual(merged.task_results);
    expect(hit.evaluation.pass_rate).toBe(merged.evaluation.pass_rate);
    rmSync(clean, { recursive: true, force: true });
  }, 60_000);

  describe('tampered shards are refused, naming the cause, and nothing is written', () => {
    const refuse = async (args: string[], cause: RegExp) => {
      const before = snapshotTree(join(dir, 'out'));
      const r = await whet(['merge', ...args, '--state-root', 'out'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(cause);
      expect(snapshotTree(join(dir, 'out'))).toEqual(before);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    };
    it('a missing shard', () => refuse(['s4-1', 's4-2', 's4-4'], /shard 3\/4 is missing/));
    it('a duplicated shard', () => refuse(['s4-1', 's4-2', 's4-3', 's4-4', 's4-2'], /shard 2\/4 is present twice/));
    it('a shard measured on an edited suite', async () => {
      const edited = tempDir('whet-shard-edit-');
      shardProject(edited);
      writeFileSync(join(edited, 'tasks.yaml'), shardSuite(TASKS).replace('task 7 of the', 'task 7 (edited) of the'));
      // An eighth of the suite, beside the seven other eighths measured above: 100 engine calls, not 400.
      const r = await whet([...ARGS, '--shard', '8/8', '--state-root', join(dir, 'edited')], { cwd: edited });
      expect(r.code, r.stderr).toBe(0);
      await refuse([...EIGHTHS.slice(0, 7), 'edited'], /shard 8\/8 .*measured on a different suite/);
      rmSync(edited, { recursive: true, force: true });
    }, 60_000);
    it('a shard from another engine config', async () => {
      const other = tempDir('whet-shard-engine-');
      shardProject(other, { engine: ['sed', '/ERRTASK/q2'] });
      const r = await whet([...ARGS, '--shard', '1/8', '--state-root', join(dir, 'other-engine')], { cwd: other });
      expect(r.code, r.stderr).toBe(0);
      await refuse(['other-engine', ...EIGHTHS.slice(1)], /measured on a different engine config/);
      rmSync(other, { recursive: true, force: true });
    }, 60_000);
    it('a task × attempt present twice (a results line copied into another shard)', async () => {
      const s1 = join(dir, 's2-1');
      // Append a line of shard 1's to shard 2's results, as a botched copy would.
      const [f1] = fg.sync('runs/*/results/baseline.jsonl', { cwd: s1 });
      const [f2] = fg.sync('runs/*/results/baseline.jsonl', { cwd: join(dir, 's2-2') });
      const line = readFileSync(join(s1, f1!), 'utf8').split('\n')[0]!;
      const target = join(dir, 's2-2', f2!);
      const saved = readFileSync(target);
      writeFileSync(target, `${saved}${line}\n`);
      try {
        await refuse(['s2-1', 's2-2'], /not in this shard's share|present twice/);
      } finally {
        writeFileSync(target, saved);
      }
    });
  });
});
