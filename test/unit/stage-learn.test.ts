import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { suiteSchema, type Task } from '../../src/config/suite-schema.js';
import { lessonsFor, readLessons, recordLesson, rejectedContents } from '../../src/lessons/store.js';
import { observedFailures, proposedCases } from '../../stages/learn/proposed-cases.js';
import type { Lesson } from '../../src/artifacts/learning.js';
import { decideStop, type StopFacts } from '../../stages/learn/stop-rules.js';
import { tempDir } from '../support/temp.js';

const facts = (over: Partial<StopFacts> = {}): StopFacts => ({
  iteration: 2,
  loop: { maxIterations: 5, plateauWindow: 2 },
  budgets: {},
  totals: { engine_calls: 40, cost_usd: 0.5, wall_ms: 60_000 },
  decisions: new Map([[1, 'keep'], [2, 'reject']]),
  evaluatedContent: 'sha256:new',
  targetHistory: [{ iteration: 0, sha256: 'sha256:t0' }, { iteration: 1, sha256: 'sha256:t0' }, { iteration: 2, sha256: 'sha256:t1' }],
  selected: 'cand-01-x',
  candidateCount: 2,
  ...over,
});

describe('stop rules', () => {
  it('goes on when no rule fires', () => {
    expect(decideStop(facts())).toEqual({ stop: false, rule: null, reason: expect.stringMatching(/^no stop rule fired \(iteration 2 of 5, 40 engine call\(s\) so far\)/) });
  });

  it('max_iterations fires at the configured iteration, before every other rule', () => {
    const d = decideStop(facts({ iteration: 5, budgets: { maxEngineCalls: 1 }, decisions: new Map() }));
    expect(d).toMatchObject({ stop: true, rule: 'max_iterations', reason: 'iteration 5 reached loop.max_iterations 5' });
  });

  it('budget fires on engine calls, cost or wall time reached, naming each', () => {
    expect(decideStop(facts({ budgets: { maxEngineCalls: 40 } }))).toMatchObject({ rule: 'budget', reason: 'budget used up: 40 engine calls ≥ max_engine_calls 40' });
    expect(decideStop(facts({ budgets: { maxEngineCalls: 41 } })).stop).toBe(false);
    expect(decideStop(facts({ budgets: { maxCostUsd: 0.25 } })).reason).toMatch(/cost \$0\.5000 ≥ max_cost_usd \$0\.25/);
    expect(decideStop(facts({ budgets: { maxWallTimeMs: 30_000 } })).reason).toMatch(/wall time 60s ≥ max_wall_time 30s/);
  });

  it('plateau fires after plateau_window iterations without a keep (pending_review is not a keep)', () => {
    const d = decideStop(facts({ iteration: 3, decisions: new Map<number, string | null>([[1, 'keep'], [2, 'pending_review'], [3, null]]) }));
    expect(d).toMatchObject({ stop: true, rule: 'plateau', reason: expect.stringMatching(/2: pending_review, 3: nothing evaluated/) });
    // Too few iterations to judge a plateau.
    expect(decideStop(facts({ iteration: 1, decisions: new Map([[1, 'reject']]) })).stop).toBe(false);
    expect(decideStop(facts({ iteration: 3, decisions: new Map([[1, 'reject'], [2, 'reject'], [3, 'keep']]) })).stop).toBe(false);
  });

  it('oscillation fires when the evaluated candidate restores an earlier content of the target', () => {
    const d = decideStop(facts({ evaluatedContent: 'sha256:t0' }));
    expect(d).toMatchObject({ rule: 'oscillation', reason: expect.stringMatching(/content the target had at the start of the run/) });
    expect(decideStop(facts({ evaluatedContent: 'sha256:t1' })).stop).toBe(false);
    expect(decideStop(facts({ evaluatedContent: null })).stop).toBe(false);
  });

  it('no_candidates fires when nothing was proposed or selected', () => {
    expect(decideStop(facts({ selected: null, candidateCount: 0, evaluatedContent: null }))).toMatchObject({ rule: 'no_candidates' });
    expect(decideStop(facts({ selected: null, candidateCount: 2, evaluatedContent: null })).stop).toBe(false);
  });
});

const lesson = (over: Partial<Lesson> = {}): Lesson => ({
  run_id: 'run-1', iteration: 1, target: '/skills/a', target_sha256: 'sha256:t', candidate_id: 'cand-01-x', category: 'coverage', actions: ['append_section'],
  content_sha256: 'sha256:c1', decision: 'reject', delta: 0, delta_ci95: null, why: 'no gain', at: '2026-01-01T00:00:00.000Z', ...over,
});

describe('lessons memory', () => {
  it('records one lesson per (run, iteration): a re-run does not append a duplicate, a redo replaces it', async () => {
    const file = join(tempDir('whet-lessons-'), 'memory', 'lessons.jsonl');
    expect(await recordLesson(file, lesson())).toBe('appended');
    expect(await recordLesson(file, lesson({ at: '2026-02-02T00:00:00.000Z' }))).toBe('unchanged');
    expect(await recordLesson(file, lesson({ iteration: 2 }))).toBe('appended');
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(2);
    expect(await recordLesson(file, lesson({ decision: 'keep' }))).toBe('replaced');
    const read = readLessons(file);
    expect(read.lessons.map((l) => [l.iteration, l.decision])).toEqual([[1, 'keep'], [2, 'reject']]);
  });

  it('skips (and counts) lines that are not lessons, keeps them on rewrite, and filters by target', async () => {
    const file = join(tempDir('whet-lessons-'), 'lessons.jsonl');
    writeFileSync(file, `not json\n${JSON.stringify(lesson({ target: '/skills/b', run_id: 'run-0' }))}\n{"half": true}\n`);
    await recordLesson(file, lesson());
    const read = readLessons(file);
    expect(read.invalid).toBe(2);
    expect(readFileSync(file, 'utf8')).toMatch(/^not json\n/);
    expect(lessonsFor(read.lessons, '/skills/a').map((l) => l.run_id)).toEqual(['run-1']);
    expect([...rejectedContents(read.lessons).keys()]).toEqual(['sha256:c1']);
    expect(readLessons(join(file, 'missing')).sha256).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('proposed cases', () => {
  const tasks = [
    { id: 'rn-a', index: 0, category: 'breaking', cell: { intent: 'write' }, description: 'A removed API', prompt: 'SECRET PROMPT A', judges: [{ type: 'contains', expected: ['Breaking changes'] }], negative: false },
    { id: 'rn-b', index: 1, category: 'scope', prompt: 'SECRET PROMPT B', judges: [{ type: 'contains', expected: ['x'] }, { type: 'not_contains', expected: ['y'] }], negative: true },
    { id: 'rn-c', index: 2, category: 'fine', prompt: 'p', judges: [{ type: 'contains', expected: ['z'] }], negative: false },
  ] as unknown as Task[];
  const rows = (xs: [string, 'pass' | 'fail' | 'error'][]) => xs.map(([task_id, status]) => ({ task_id, status, split: 'train' as const, reason: `why ${task_id}` }));

  it('turns every judged failure (candidate or baseline, never an error) into a skeleton for a person', () => {
    const evaluation = { baseline_results: rows([['rn-b', 'fail'], ['rn-a', 'pass'], ['rn-c', 'error']]), candidate_results: rows([['rn-b', 'fail'], ['rn-a', 'fail'], ['rn-c', 'error']]) };
    const failures = observedFailures({ task_results: [] } as never, evaluation as never);
    expect(failures.map((f) => [f.task_id, f.failed_on])).toEqual([['rn-b', ['baseline', 'candidate']], ['rn-a', ['candidate']]]);
    const out = proposedCases({ runId: 'run-1', iteration: 3, skillId: 'rn', failures, tasks });
    expect(out.count).toBe(2);
    expect(out.text).toMatch(/^# Proposed eval cases, from failures observed in run run-1 iteration 3\.\n# FOR A PERSON TO REVIEW/);
    expect(out.text).toMatch(/never to\n# the held-out set, automatically/);
    const doc = parse(out.text) as { tasks: Record<string, unknown>[] };
    expect(doc.tasks.map((t) => t.id)).toEqual(['rn-a-more-3', 'rn-b-more-3']);
    expect(doc.tasks[0]).toMatchObject({ status: 'proposed', category: 'breaking', cell: { intent: 'write' }, prompt: 'TODO: another request like rn-a (A removed API)', judge: { type: 'contains', expected: ['Breaking changes'] } });
    expect(doc.tasks[1]).toMatchObject({ negative: true, judges: [{ type: 'contains' }, { type: 'not_contains' }] });
    for (const t of doc.tasks) expect(t).not.toHaveProperty('split');
    expect(out.text).not.toContain('SECRET PROMPT');
    // Not a loadable suite: a person has to review it before it can become one.
    expect(suiteSchema.safeParse(doc).success).toBe(false);
  });

  it("adds baseline.json's train failures when the evaluation ran the held-out tasks alone (a rejected candidate on a noisy engine)", () => {
    const held = (xs: [string, 'pass' | 'fail'][]) => rows(xs).map((r) => ({ ...r, split: 'holdout' as const }));
    const evaluation = { baseline_results: held([['rn-b', 'fail']]), candidate_results: held([['rn-b', 'fail']]) };
    const failures = observedFailures({ task_results: [...rows([['rn-a', 'fail'], ['rn-c', 'pass']]), ...held([['rn-b', 'fail']])] } as never, evaluation as never);
    expect(failures.map((f) => [f.task_id, f.failed_on, f.split])).toEqual([['rn-b', ['baseline', 'candidate'], 'holdout'], ['rn-a', ['baseline'], 'train']]);
  });

  it('reads baseline.json when nothing was evaluated (or the evaluation was skipped), and writes nothing without failures', () => {
    const failures = observedFailures({ task_results: rows([['rn-c', 'fail'], ['rn-a', 'pass']]) } as never);
    expect(failures.map((f) => [f.task_id, f.failed_on])).toEqual([['rn-c', ['baseline']]]);
    const skipped = observedFailures({ task_results: rows([['rn-c', 'fail']]) } as never, { baseline_results: [], candidate_results: [] } as never);
    expect(skipped.map((f) => f.task_id)).toEqual(['rn-c']);
    expect(proposedCases({ runId: 'r', iteration: 1, skillId: 'rn', failures: [], tasks })).toEqual({ text: '', count: 0 });
  });
});
