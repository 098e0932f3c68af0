import { describe, expect, it } from 'vitest';
import { compareNights, describeChange } from '../../src/nightly/drift.js';
import type { NightRecord, NightTask } from '../../src/nightly/schema.js';

const task = (task_id: string, category: string, status: NightTask['status']): NightTask => ({ task_id, category, status });

function night(tasks: NightTask[], over: Partial<NightRecord> = {}): NightRecord {
  const judged = tasks.filter((t) => t.status !== 'error');
  return {
    target: '/s/notes',
    target_key: 'k1',
    label: '/s/notes',
    suite: '/s/notes/tasks.yaml',
    pass_rate: judged.length ? judged.filter((t) => t.status === 'pass').length / judged.length : 0,
    skill_sha256: 'sha256:skill',
    suite_sha256: 'sha256:suite',
    engine_sha256: 'sha256:engine',
    judge_engine_sha256: 'sha256:judge',
    settings: { pass_k: 1, task_timeout_ms: 600_000 },
    tasks,
    ...over,
  };
}
const prev = (r: NightRecord) => ({ ...r, label: '2026-11-01 (run-1)' });

describe('compareNights', () => {
  it('compares categories on the tasks judged on both nights only', () => {
    // c2 errored last night: counting it tonight would show a drop in "cite" that no task made.
    const before = night([task('c1', 'cite', 'pass'), task('c2', 'cite', 'error'), task('o1', 'own', 'pass')]);
    const after = night([task('c1', 'cite', 'pass'), task('c2', 'cite', 'fail'), task('o1', 'own', 'pass')]);
    const d = compareNights(after, prev(before), 0.05);
    expect(d.tasks_compared).toBe(2);
    expect(d.per_category.cite).toEqual({ tasks: 1, before: 1, after: 1, change: 0 });
    expect(d.pass_rate_change).toBe(0);
    expect(d.alert).toBe(false);
  });

  it('shows — (null), not 0%, for a category with no task judged on both nights', () => {
    const before = night([task('c1', 'cite', 'pass'), task('o1', 'own', 'error')]);
    const after = night([task('c1', 'cite', 'pass'), task('o1', 'own', 'pass')]);
    expect(compareNights(after, prev(before), 0.05).per_category.own).toEqual({ tasks: 0, before: null, after: null, change: null });
  });

  it('alerts when tonight every task errored, as an engine failure and not a drop', () => {
    const before = night([task('c1', 'cite', 'pass'), task('c2', 'cite', 'pass')]);
    const after = night([task('c1', 'cite', 'error'), task('c2', 'cite', 'error')]);
    const d = compareNights(after, prev(before), 0.05);
    expect(d).toMatchObject({ alert: true, engine_failed: true, tasks_compared: 0, pass_rate_change: null, p_value: null, regressions: [] });
    expect(d.reasons).toHaveLength(1);
    expect(d.reasons[0]).toMatch(/^engine failed: nothing was judged \(2 of 2 task\(s\) errored\)/);
    expect(d.per_category.cite).toEqual({ tasks: 0, before: null, after: null, change: null });
    // Also on a target's first night: there is nothing to compare with, but the engine still failed.
    expect(compareNights(after, undefined, 0.05)).toMatchObject({ alert: true, engine_failed: true });
    expect(compareNights(before, undefined, 0.05)).toMatchObject({ alert: false, engine_failed: false });
  });

  it('names a changed judge engine or evaluation setting instead of blaming the model', () => {
    const tasks = [task('c1', 'cite', 'pass')];
    const settings = compareNights(night(tasks, { settings: { pass_k: 3, task_timeout_ms: 300_000 } }), prev(night(tasks)), 0.05);
    expect(settings.changed).toEqual({ skill: false, suite: false, engine: false, judge_engine: false, settings: ['pass_k 1 → 3', 'task timeout 600s → 300s'] });
    expect(settings.cause).toBe('evaluation settings (pass_k 1 → 3, task timeout 600s → 300s) changed, skill, suite and engine unchanged');
    const judge = compareNights(night(tasks, { judge_engine_sha256: 'sha256:other' }), prev(night(tasks)), 0.05);
    expect(judge.cause).toBe('judge engine changed, skill, suite and engine unchanged');
    expect(compareNights(night(tasks), prev(night(tasks)), 0.05).cause).toMatch(/^nothing changed \(same skill, suite, engine, judge engine and evaluation settings\)/);
  });

  it('does not claim a change against a night recorded before the judge engine and settings were kept', () => {
    const tasks = [task('c1', 'cite', 'pass')];
    const { judge_engine_sha256: _j, settings: _s, ...old } = night(tasks);
    expect(compareNights(night(tasks), { ...old, label: 'old' }, 0.05).cause).toMatch(/^nothing changed/);
  });

  it('keeps the short statement when only skill, suite or engine changed', () => {
    expect(describeChange({ skill: false, suite: false, engine: true, judge_engine: false, settings: [] })).toBe('engine changed, skill and suite unchanged');
  });
});
