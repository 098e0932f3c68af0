// The shard plan (issue 16): stable (a pure function of its inputs, whatever order the tasks come in),
// every task in exactly one shard, balanced by attempts without history and longest-first with it.
import { describe, expect, it } from 'vitest';
import { meanDurations, parseShardSpec, planShards } from '../../src/evaluation/shard-plan.js';

const tasks = Array.from({ length: 101 }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, attempts: i % 10 === 0 ? 3 : 1 }));

describe('shard plan', () => {
  it('parses i/n and refuses anything else with a usage error', () => {
    expect(parseShardSpec('2/4')).toEqual({ index: 2, total: 4 });
    for (const bad of ['0/4', '5/4', '1/0', '2', 'a/b', '1/257', '-1/3']) expect(() => parseShardSpec(bad)).toThrow(/--shard/);
  });

  it('puts every task in exactly one shard and gives the same plan for any input order', () => {
    const a = planShards(tasks, 4);
    const b = planShards([...tasks].reverse(), 4);
    expect(b.assignment).toEqual(a.assignment);
    expect(b.hash).toBe(a.hash);
    expect(Object.keys(a.assignment)).toHaveLength(tasks.length);
    expect(new Set(Object.values(a.assignment))).toEqual(new Set([1, 2, 3, 4]));
  });

  it('balances attempts by count: loads differ by at most the largest task', () => {
    const p = planShards(tasks, 4);
    expect(p.balanced_by).toBe('count');
    expect(p.loads.reduce((x, y) => x + y, 0)).toBe(tasks.reduce((n, t) => n + t.attempts, 0));
    expect(Math.max(...p.loads) - Math.min(...p.loads)).toBeLessThanOrEqual(3);
  });

  it('packs longest first when every task has a recorded duration (one slow task gets a shard to itself)', () => {
    const durations = new Map(tasks.map((t) => [t.id, t.id === 't050' ? 100_000 : 1_000]));
    const p = planShards(tasks, 4, durations);
    expect(p.balanced_by).toBe('duration');
    const slow = p.assignment['t050']!;
    expect(Object.values(p.assignment).filter((s) => s === slow)).toHaveLength(1);
    // Without the durations the plan differs, so the hash (which the merge compares) differs too.
    expect(p.hash).not.toBe(planShards(tasks, 4).hash);
  });

  it('falls back to counting when the history misses a task, rather than packing on half the facts', () => {
    const partial = new Map([['t000', 5_000]]);
    expect(planShards(tasks, 3, partial).balanced_by).toBe('count');
  });

  it('more shards than tasks leaves some shards empty, never a task twice', () => {
    const p = planShards(tasks.slice(0, 3), 8);
    expect(Object.values(p.assignment).sort()).toEqual([1, 2, 3]);
  });

  it('averages recorded durations per task', () => {
    const m = meanDurations([{ task_id: 'a', duration_ms: 10 }, { task_id: 'a', duration_ms: 30 }, { task_id: 'b', duration_ms: 5 }]);
    expect(Object.fromEntries(m)).toEqual({ a: 20, b: 5 });
  });
});
