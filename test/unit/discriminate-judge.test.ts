// The discriminator's llm judge: its prompt (train failures only), its reply contract (retried once,
// then an error), and the bounded adjustment it makes to the cheap score.
import { describe, expect, it } from 'vitest';
import { createMockEngine } from '../../src/engines/mock.js';
import { buildJudgePrompt, judgeCandidate, parseJudgeReply, type JudgeFailure } from '../../stages/discriminate/judge.js';
import { applyJudge, WEIGHTS, type Scored } from '../../stages/discriminate/score.js';
import type { Candidate } from '../../src/artifacts/candidates.js';
import { scriptedEngine } from '../fixtures/stages/scripted-engine.js';

const cand: Candidate = {
  id: 'cand-01-breaking',
  title: 'Guidance for breaking changes',
  category: 'coverage',
  risk: 'medium',
  rationale: 'Breaking changes were not listed first.',
  proposer: 'feedback',
  answers: { kind: 'train_failures', tasks: ['tr-1'] },
  actions: [{ type: 'append_text', text: 'List breaking changes first.' }],
  variant_path: 'variants/cand-01-breaking',
  diff: '--- a/SKILL.md\n+++ b/SKILL.md\n@@ -1 +1,2 @@\n # Skill\n+List breaking changes first.\n',
  diff_stats: { added: 1, removed: 0 },
  content_sha256: 'sha256:x',
};
const train: JudgeFailure = { task_id: 'tr-1', category: 'breaking', split: 'train', reason: 'missing "breaking changes" heading' };
const cheap: Scored = { score: 6.5, parts: { base: 5, train_failures: 1.5 }, reasons: ['base 5'] };

describe('llm judge prompt', () => {
  it('carries the diff, the rationale and the train failure reasons, and refuses held-out failures', () => {
    const p = buildJudgePrompt(cand, [train]);
    expect(p.prompt).toContain('+List breaking changes first.');
    expect(p.prompt).toContain('Breaking changes were not listed first.');
    expect(p.prompt).toContain('task tr-1 (category breaking): missing "breaking changes" heading');
    expect(p.rubric).toBe(train.reason);
    expect(() => buildJudgePrompt(cand, [train, { ...train, task_id: 'ho-1', split: 'holdout' }])).toThrow(/non-train tasks: ho-1/);
    expect(() => buildJudgePrompt(cand, [{ ...train, split: undefined }])).toThrow(/non-train/);
  });
});

describe('llm judge reply', () => {
  it('accepts {rating 0–10, reason} in a fence or prose, and rejects anything else with the problem', () => {
    expect(parseJudgeReply('Sure:\n```json\n{"rating": 7.5, "reason": "fixes it"}\n```')).toEqual({ ok: true, reply: { rating: 7.5, reason: 'fixes it' } });
    expect(parseJudgeReply('{"rating": 11, "reason": "x"}')).toMatchObject({ ok: false, problem: expect.stringMatching(/rating/) });
    expect(parseJudgeReply('{"score": 0.7, "reason": "x"}')).toMatchObject({ ok: false, problem: expect.stringMatching(/rating/) });
    expect(parseJudgeReply('{"rating": 4, "reason": " "}')).toMatchObject({ ok: false });
    expect(parseJudgeReply('no json here')).toMatchObject({ ok: false, problem: expect.stringMatching(/not JSON/) });
  });

  it('retries an invalid reply once, stating the problem, and asks as a JSON judge call', async () => {
    const { engine, requests } = scriptedEngine(['not json', '{"rating": 8, "reason": "targets the failure"}']);
    const j = await judgeCandidate(engine, cand, [train], { timeoutMs: 1000 });
    expect(j).toEqual({ ok: true, rating: 8, reason: 'targets the failure', calls: 2, costUsd: 0.02 });
    expect(requests.map((r) => [r.kind, r.expectJson, r.grading?.reply])).toEqual([['judge', true, 'rating'], ['judge', true, 'rating']]);
    expect(requests[1]!.prompt).toMatch(/Your previous reply could not be used: not JSON/);
  });

  it('records an error after two invalid replies, and on an engine failure without a retry', async () => {
    const twice = await judgeCandidate(scriptedEngine(['{"rating": "high"}', 'still no']).engine, cand, [train], { timeoutMs: 1000 });
    expect(twice).toMatchObject({ ok: false, error: expect.stringMatching(/^reply unusable twice; last problem: not JSON/), calls: 2 });
    const down = await judgeCandidate(scriptedEngine([{ error: '503 overloaded' }]).engine, cand, [train], { timeoutMs: 1000 });
    expect(down).toMatchObject({ ok: false, error: 'engine http: 503 overloaded', calls: 1 });
  });

  it('gets a deterministic rating from the mock: the share of failure-reason words the diff uses, ×10', async () => {
    const mock = createMockEngine();
    const a = await judgeCandidate(mock, cand, [train], { timeoutMs: 1000 });
    const b = await judgeCandidate(mock, cand, [train], { timeoutMs: 1000 });
    // reason words: missing, breaking, changes, heading → the diff has breaking, changes: 2/4.
    expect(a).toEqual({ ok: true, rating: 5, reason: 'mock grader: 2/4 rubric terms present in the output', calls: 1, costUsd: 0 });
    expect(b).toEqual(a);
  });
});

describe('the judge’s adjustment to the cheap score', () => {
  it('is 0.3 per point from a neutral 5, bounded to ±1.5, and shown among the reasons', () => {
    expect(WEIGHTS.judgeMax).toBe(1.5);
    expect(applyJudge(cheap, { ok: true, rating: 8, reason: 'good' })).toEqual({ score: 7.4, parts: { ...cheap.parts, llm_judge: 0.9 }, reasons: ['base 5', 'llm judge rated 8/10 (good): +0.9'] });
    expect(applyJudge(cheap, { ok: true, rating: 10, reason: 'r' }).parts.llm_judge).toBe(1.5);
    expect(applyJudge(cheap, { ok: true, rating: 0, reason: 'r' })).toMatchObject({ score: 5, parts: { llm_judge: -1.5 } });
    expect(applyJudge(cheap, { ok: true, rating: 5, reason: 'r' }).score).toBe(6.5);
    expect(applyJudge({ ...cheap, score: 9.8 }, { ok: true, rating: 10, reason: 'r' }).score).toBe(10);
  });

  it('leaves the cheap score on a judge error and says so', () => {
    const s = applyJudge(cheap, { ok: false, error: 'engine timeout: 30s' });
    expect(s.score).toBe(6.5);
    expect(s.parts).toEqual(cheap.parts);
    expect(s.reasons.at(-1)).toBe('llm judge error: engine timeout: 30s; the cheap score stands');
  });
});
