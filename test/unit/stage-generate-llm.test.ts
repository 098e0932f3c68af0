import { describe, expect, it } from 'vitest';
import { generatorEngineConfig } from '../../stages/generate/run-llm.js';
import { buildLlmPrompt, parseLlmReply, proposeLlm, type LlmFailure } from '../../stages/generate/propose-llm.js';
import type { Lesson } from '../../src/artifacts/learning.js';
import { replyWith, scriptedEngine } from '../fixtures/stages/scripted-engine.js';

const SKILL = '# Release notes\n\n## Steps\n\n1. Group the commits.\n2. Rewrite subjects.\n';
const failures: LlmFailure[] = [
  { task_id: 'tr-1', category: 'breaking-changes', split: 'train', prompt: 'Write notes; one commit removes the v1 API.', reason: 'contains: missing 1/1: "Breaking changes"' },
];
const lesson: Lesson = {
  run_id: 'r', iteration: 1, target: '/s', target_sha256: 'sha256:a', candidate_id: 'cand-01-x', category: 'coverage', actions: ['append_section'],
  content_sha256: 'sha256:b', decision: 'reject', delta: -0.2, delta_ci95: null, why: 'regressed ho-secret-task (1 task)', at: '2026-01-01T00:00:00.000Z',
};
const good = { title: 'Breaking changes first', category: 'coverage', risk: 'medium', rationale: 'covers every breaking change', answers: ['tr-1', 'ho-invented'], actions: [{ type: 'append_section', heading: 'Breaking changes', body: 'List breaking changes first, with the migration.' }] };

describe('llm prompt', () => {
  it('shows the skill, the train requests with what the judges said, and the lessons without their free text', () => {
    const { prompt, system } = buildLlmPrompt({ skillText: SKILL, failures, lessons: [lesson], max: 3 });
    expect(system).toMatch(/one JSON object/);
    expect(prompt).toContain(SKILL.trim());
    expect(prompt).toContain('request: Write notes; one commit removes the v1 API.');
    expect(prompt).toContain('judges: contains: missing 1/1: "Breaking changes"');
    expect(prompt).toContain('iteration 1: coverage change (append_section) → reject, held-out pass-rate delta -0.2000');
    expect(prompt).toMatch(/One observed failure is a class/);
    // A gate reason can name held-out tasks; it never reaches the generator.
    expect(prompt).not.toContain('ho-secret-task');
  });

  it('refuses to be shown a held-out (or unsplit) task', () => {
    const held: LlmFailure = { ...failures[0]!, task_id: 'ho-1', split: 'holdout' };
    expect(() => buildLlmPrompt({ skillText: SKILL, failures: [...failures, held], lessons: [], max: 3 })).toThrow(/non-train tasks: ho-1/);
    expect(() => buildLlmPrompt({ skillText: SKILL, failures: [{ ...held, split: undefined }], lessons: [], max: 3 })).toThrow(/non-train/);
  });
});

describe('llm reply', () => {
  it('accepts JSON in a fence, caps the count, and keeps only answered ids it was shown', () => {
    const r = parseLlmReply(replyWith([good, { ...good, title: 'Second' }]), ['tr-1'], 1);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.proposals).toHaveLength(1);
    expect(r.proposals[0]).toMatchObject({ proposer: 'llm', category: 'coverage', answers: { kind: 'llm', tasks: ['tr-1'] } });
  });

  it('names what is wrong with an unusable reply', () => {
    expect(parseLlmReply('sorry, I cannot', [], 3)).toEqual({ ok: false, problem: expect.stringMatching(/^not JSON/) });
    const bad = parseLlmReply(JSON.stringify({ candidates: [{ ...good, category: 'vibes', actions: [] }] }), [], 3);
    expect(bad).toEqual({ ok: false, problem: expect.stringMatching(/candidates\.0\.category.*candidates\.0\.actions/) });
  });
});

describe('llm proposer', () => {
  it('retries an invalid reply once, telling the model what was wrong', async () => {
    const { engine, requests } = scriptedEngine(['{"candidates": [{"title": "x"}]}', replyWith([good])]);
    const r = await proposeLlm(engine, { skillText: SKILL, failures, lessons: [], max: 3 }, { timeoutMs: 1000 });
    expect(r.errors).toEqual([]);
    expect(r.calls).toBe(2);
    expect(r.costUsd).toBeCloseTo(0.02);
    expect(r.proposals.map((p) => p.title)).toEqual(['Breaking changes first']);
    expect(requests[1]!.prompt).toMatch(/Your previous reply could not be used: does not match the required shape: candidates\.0\./);
    expect(requests[0]).toMatchObject({ kind: 'task', expectJson: true, timeoutMs: 1000 });
    expect(requests[0]!.skill).toBeUndefined();
  });

  it('reports two unusable replies and engine failures as proposer errors, never dropping them silently', async () => {
    const twice = await proposeLlm(scriptedEngine(['nope', '{"candidates": 3}']).engine, { skillText: SKILL, failures, lessons: [], max: 3 }, { timeoutMs: 1000 });
    expect(twice.proposals).toEqual([]);
    expect(twice.errors).toEqual([{ proposer: 'llm', message: expect.stringMatching(/^reply unusable twice; last problem: does not match/) }]);
    const down = await proposeLlm(scriptedEngine([{ error: '503 overloaded' }]).engine, { skillText: SKILL, failures, lessons: [], max: 3 }, { timeoutMs: 1000 });
    expect(down).toMatchObject({ calls: 1, proposals: [], errors: [{ proposer: 'llm', message: 'engine http: 503 overloaded' }] });
  });

  it('is skipped with a note on the mock engine and without an engine', () => {
    const base = { thresholds: {}, mock: false } as never;
    const cfg = (engine: unknown, generator?: unknown) => ({ engine, loop: { generatorEngine: generator } }) as never;
    expect(generatorEngineConfig({ manifest: { ...(base as object), mock: true } as never, config: cfg({ type: 'claude' }) })).toEqual({ skip: expect.stringMatching(/mock engine/) });
    expect(generatorEngineConfig({ manifest: base, config: cfg(undefined) })).toEqual({ skip: expect.stringMatching(/no engine configured/) });
    expect(generatorEngineConfig({ manifest: base, config: cfg({ type: 'mock' }) })).toEqual({ skip: expect.stringMatching(/mock engine/) });
    expect(generatorEngineConfig({ manifest: base, config: cfg({ type: 'mock' }, { type: 'command', command: ['x'] }) })).toEqual({ cfg: { type: 'command', command: ['x'] } });
  });
});
