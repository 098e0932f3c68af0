import { describe, expect, it } from 'vitest';
import type { Task } from '../../src/config/suite-schema.js';
import type { TaskTally } from '../../src/evaluation/aggregate.js';
import { minibatchTasks, minibatchVerdict } from '../../stages/discriminate/minibatch.js';
import { countPlaceholders, pickNext, rankOrder, recommendation, scoreCandidate, type ScoreFacts } from '../../stages/discriminate/score.js';
import type { Candidate } from '../../src/artifacts/candidates.js';
import type { Lesson } from '../../src/artifacts/learning.js';

const cand = (over: Partial<Candidate> = {}): Candidate => ({
  id: 'cand-01-x',
  title: 'x',
  category: 'coverage',
  risk: 'medium',
  rationale: 'r',
  proposer: 'feedback',
  answers: { kind: 'train_failures', tasks: ['t1'] },
  actions: [{ type: 'append_text', text: 'x' }],
  variant_path: 'variants/cand-01-x',
  diff: '',
  diff_stats: { added: 4, removed: 0 },
  content_sha256: 'sha256:c',
  ...over,
});
const facts = (over: Partial<ScoreFacts> = {}): ScoreFacts => ({
  candidate: cand(),
  targetStructure: 0.8,
  variantStructure: 0.8,
  targetPlaceholders: 0,
  variantPlaceholders: 0,
  variantIntact: true,
  lessons: [],
  ...over,
});
const rejected = (iteration: number, category = 'coverage', addresses = 'train_failures:'): Lesson => ({
  run_id: 'run-a', iteration, target: '/s', target_sha256: 'sha256:t', candidate_id: 'cand-01-y', category, addresses, actions: ['append_section'],
  content_sha256: `sha256:${iteration}`, decision: 'reject', delta: 0, delta_ci95: null, why: 'no gain', at: '2026-01-01T00:00:00.000Z',
});

describe('discriminator score', () => {
  it('follows the documented formula', () => {
    // base 5 + 1.5 per answered train failure (max 3) + risk (medium 0)
    expect(scoreCandidate(facts()).score).toBe(6.5);
    expect(scoreCandidate(facts({ candidate: cand({ answers: { kind: 'train_failures', tasks: ['a', 'b', 'c'] } }) })).parts.train_failures).toBe(3);
    // structure gain × 10, capped at +1.5 and −2; risk low +0.5, high −1
    const structural = scoreCandidate(facts({ candidate: cand({ risk: 'low', answers: { kind: 'structure', dimension: 'examples' } }), targetStructure: 0.8889, variantStructure: 1, variantPlaceholders: 2 }));
    // A template's gain is its heading, not content: not credited, and its placeholders still cost 1.
    expect(structural.parts).toEqual({ base: 5, risk: 0.5, placeholders: -1 });
    expect(structural.score).toBe(4.5);
    expect(structural.reasons).toContain('structure score 0.889 → 1.000 not credited: the gain comes from an unfilled template');
    // The same gain with real content (no placeholder) is credited and reaches the default threshold 6.
    const filled = scoreCandidate(facts({ candidate: cand({ risk: 'low', answers: { kind: 'structure', dimension: 'when_to_use' } }), targetStructure: 0.8889, variantStructure: 1 }));
    expect(filled.parts).toEqual({ base: 5, structure: 1.11, risk: 0.5 });
    expect(filled.score).toBe(6.61);
    expect(scoreCandidate(facts({ variantStructure: 0.5 })).parts.structure).toBe(-2);
    expect(scoreCandidate(facts({ variantStructure: 1 })).parts.structure).toBe(1.5);
    expect(scoreCandidate(facts({ candidate: cand({ risk: 'high' }) })).score).toBe(5.5);
    // 0.025 per changed line over 20, at most −2
    expect(scoreCandidate(facts({ candidate: cand({ diff_stats: { added: 50, removed: 10 } }) })).parts.size).toBe(-1);
    expect(scoreCandidate(facts({ candidate: cand({ diff_stats: { added: 500, removed: 0 } }) })).parts.size).toBe(-2);
  });

  it('demotes a category rejected at least twice on this target, and says why', () => {
    expect(scoreCandidate(facts({ lessons: [rejected(1)] })).score).toBe(6.5);
    const twice = scoreCandidate(facts({ lessons: [rejected(1), rejected(2), rejected(3, 'examples')] }));
    expect(twice.score).toBe(5);
    expect(twice.parts.lessons).toBe(-1.5);
    expect(twice.reasons).toContain('lessons: coverage changes answering train_failures: were rejected 2 times on this target (run-a iter 1; run-a iter 2): −1.5');
    const kept = { ...rejected(4), decision: 'keep' };
    expect(scoreCandidate(facts({ lessons: [rejected(1), kept] })).parts.lessons).toBeUndefined();
  });

  it('demotes only changes answering the same signal: rules for other failures of the same category stand', () => {
    const security = (i: number) => rejected(i, 'coverage', 'train_failures:security');
    const breaking = cand({ answers: { kind: 'train_failures', tasks: ['t1'], detail: 'breaking-changes' } });
    expect(scoreCandidate(facts({ candidate: breaking, lessons: [security(1), security(2)] })).parts.lessons).toBeUndefined();
    const again = cand({ answers: { kind: 'train_failures', tasks: ['t2'], detail: 'security' } });
    expect(scoreCandidate(facts({ candidate: again, lessons: [security(1), security(2)] })).parts.lessons).toBe(-1.5);
    // Lessons written before `addresses` existed never demote a candidate that answers something.
    const legacy = (i: number) => { const { addresses: _a, ...l } = rejected(i); return l; };
    expect(scoreCandidate(facts({ candidate: breaking, lessons: [legacy(1), legacy(2)] })).parts.lessons).toBeUndefined();
  });

  it('scores a missing or altered variant 0', () => {
    expect(scoreCandidate(facts({ variantIntact: false }))).toMatchObject({ score: 0, reasons: [expect.stringMatching(/missing or differs/)] });
    expect(scoreCandidate(facts({ variantStructure: null })).score).toBe(0);
  });

  it('counts template placeholders, not markdown links', () => {
    expect(countPlaceholders('Request: [a realistic request]\nSee [the docs](https://x) and [ref][1].\n[1]: https://y\n- [ ] todo')).toBe(1);
  });
});

describe('recommendations', () => {
  const ranked = rankOrder([
    { id: 'a', score: 6.5, order: 0 },
    { id: 'b', score: 7, order: 1 },
    { id: 'c', score: 6.5, order: 2 },
    { id: 'd', score: 4, order: 3 },
  ]);

  it('evaluates only the best at or above the threshold, holds the rest above it, rejects below', () => {
    expect(ranked.map((r) => r.id)).toEqual(['b', 'a', 'c', 'd']);
    const selected = pickNext(ranked, 6, new Set());
    expect(selected).toBe('b');
    const recs = ranked.map((r) => recommendation(r, 6, selected, new Map()).recommendation);
    expect(recs).toEqual(['evaluate', 'hold', 'hold', 'reject']);
    expect(recommendation(ranked[3]!, 6, selected, new Map()).reason).toBe('score 4 < eval threshold 6: not worth a full evaluation');
    expect(pickNext(ranked, 8, new Set())).toBeNull();
  });

  it('moves to the next candidate when the minibatch vetoes one', () => {
    const veto = new Map([['b', 'minibatch: fewer passes']]);
    const selected = pickNext(ranked, 6, new Set(veto.keys()));
    expect(selected).toBe('a');
    expect(recommendation(ranked[0]!, 6, selected, veto)).toEqual({ recommendation: 'reject', reason: 'minibatch: fewer passes' });
    expect(pickNext(ranked, 6, new Set(['a', 'b', 'c']))).toBeNull();
  });
});

describe('minibatch', () => {
  const task = (id: string, split: 'train' | 'holdout', index: number) => ({ id, split, index, category: 'c', prompt: 'p', judges: [], timeoutMs: 1, negative: false, critical: false }) as Task;
  const tally = (task_id: string, passes: number, judged = 1): TaskTally => ({ task_id, category: 'c', negative: false, critical: false, k: 1, judged, passes, errors: judged ? 0 : 1, timeouts: 0, bestScore: passes, reason: '' });

  it('picks the answered train tasks first, then the others, never a held-out one', () => {
    const tasks = [task('t1', 'train', 0), task('h1', 'holdout', 1), task('t2', 'train', 2), task('t3', 'train', 3)];
    expect(minibatchTasks(tasks, ['t3', 'h1'], 2).map((t) => t.id)).toEqual(['t3', 't1']);
    expect(minibatchTasks(tasks, [], 10).map((t) => t.id)).toEqual(['t1', 't2', 't3']);
  });

  it('passes a candidate with at least the baseline’s passes, comparing only tasks judged on both sides', () => {
    const v = minibatchVerdict([tally('t1', 1), tally('t2', 0), tally('t3', 0, 0)], [tally('t1', 0), tally('t2', 1), tally('t3', 1)]);
    expect(v).toEqual({ tasks: ['t1', 't2'], candidate_passed: 1, baseline_passed: 1, excluded: ['t3'], passed: true });
    expect(minibatchVerdict([tally('t1', 0)], [tally('t1', 1)]).passed).toBe(false);
  });
});
