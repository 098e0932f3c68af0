import { describe, expect, it } from 'vitest';
import { buildLesson, holdoutDeltaCI, type LessonFacts } from '../../src/lessons/lesson.js';

const result = (task_id: string, split: 'train' | 'holdout', passed: boolean, status?: 'error') => ({
  task_id, split, passed, score: passed ? 1 : 0, status: status ?? (passed ? 'pass' : 'fail'), category: 'c', attempts: 1, passes: passed ? 1 : 0, errors: status ? 1 : 0, reason: '',
});

const evaluation = {
  candidate_id: 'cand-01-a',
  inputs: { target: 'sha256:target', candidate: 'sha256:cand' },
  candidate_results: [result('h1', 'holdout', true), result('h2', 'holdout', true), result('h3', 'holdout', false), result('h4', 'holdout', true, 'error'), result('t1', 'train', true)],
  baseline_results: [result('h1', 'holdout', false), result('h2', 'holdout', true), result('h3', 'holdout', false), result('h4', 'holdout', true), result('t1', 'train', false)],
};
const candidates = {
  target: { sha256: 'sha256:target' },
  proposer_errors: [],
  skipped: [],
  candidates: [{ id: 'cand-01-a', category: 'coverage', answers: { kind: 'train_failures', tasks: ['t1'], detail: 'grouping' }, actions: [{ type: 'append_section' }, { type: 'replace_text' }], content_sha256: 'sha256:skillmd' }],
};
const base = (over: Partial<LessonFacts> = {}): LessonFacts =>
  ({
    runId: 'run-1',
    iteration: 2,
    target: '/skills/rn',
    at: '2026-11-30T00:00:00.000Z',
    baseline: { inputs: { target: 'sha256:target' } },
    candidates,
    ranking: { reason: undefined },
    ...over,
  }) as unknown as LessonFacts;

describe('the lesson of an iteration', () => {
  it('records the evaluated candidate, the gate decision, the held-out delta and its interval', () => {
    const gate = { candidate_id: 'cand-01-a', decision: 'keep', reason: 'held-out gain +0.3333', holdout: { delta: 0.3333 } };
    const l = buildLesson(base({ gate: gate as never, evaluation: evaluation as never }));
    expect(l).toEqual({
      run_id: 'run-1', iteration: 2, target: '/skills/rn', target_sha256: 'sha256:target', at: '2026-11-30T00:00:00.000Z',
      candidate_id: 'cand-01-a', category: 'coverage', addresses: 'train_failures:grouping', actions: ['append_section', 'replace_text'], content_sha256: 'sha256:skillmd',
      decision: 'keep', delta: 0.3333, delta_ci95: holdoutDeltaCI(evaluation as never), why: 'held-out gain +0.3333',
    });
    expect(l.delta_ci95).not.toBeNull();
  });

  it('says "no candidate evaluated" when the ranking selected nothing', () => {
    const l = buildLesson(base({ ranking: { reason: 'no candidate reached the eval threshold 6 (best: cand-01-a at 5.61)' } as never }));
    expect(l).toMatchObject({ candidate_id: null, category: null, actions: [], content_sha256: null, decision: 'none', delta: null, delta_ci95: null });
    expect(l.why).toBe('no candidate evaluated: no candidate reached the eval threshold 6 (best: cand-01-a at 5.61)');
    const none = buildLesson(base({ candidates: { ...candidates, candidates: [], proposer_errors: [{ proposer: 'llm', message: 'skipped: mock' }] } as never }));
    expect(none.why).toBe('no candidate evaluated: no candidates were proposed (0 skipped); proposer errors: llm: skipped: mock');
  });
});

describe('held-out delta interval', () => {
  it('is a seeded paired bootstrap over held-out tasks judged on both sides', () => {
    const ci = holdoutDeltaCI(evaluation as never)!;
    // h1 fixed, h2 and h3 unchanged, h4 left out (error): differences 1, 0, 0.
    expect(ci.low).toBe(0);
    expect(ci.high).toBe(1);
    expect(holdoutDeltaCI(evaluation as never)).toEqual(ci);
  });

  it('is null with fewer than two held-out tasks', () => {
    const one = { ...evaluation, candidate_results: evaluation.candidate_results.slice(0, 1) };
    expect(holdoutDeltaCI(one as never)).toBeNull();
  });
});
