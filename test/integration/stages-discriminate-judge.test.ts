// The optional llm judge in discriminate, on a real run: off by default; on the mock it rates every
// candidate deterministically offline; with a scripted engine its ratings move the scores by the
// documented amount, a reply invalid twice is a recorded error (cheap score kept), and `whet show`
// prints the judge's reasons.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readArtifact, sha256File } from '../../src/state/artifact-io.js';
import type { StageOutcome } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { run as discriminate } from '../../stages/discriminate/index.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { evaluateLoopBaseline } from '../../stages/evaluate/loop.js';
import { run as generate } from '../../stages/generate/index.js';
import { loopProject } from '../fixtures/stages/loop-project.js';
import { scriptedEngine } from '../fixtures/stages/scripted-engine.js';
import { whet } from '../support/cli.js';

const JUDGE_ON = 'loop:\n  proposers: [feedback, structural]\n  discriminate:\n    llm_judge: true\n';
// The cheap scores of release-notes' three candidates (stages-generate-discriminate.test.ts).
const CHEAP = { 'cand-01-guidance-for-breaking-changes-requests': 6.5, 'cand-03-guidance-for-security-requests': 6.5, 'cand-02-structure-examples': 4.5 } as Record<string, number>;

async function generated(yaml: string) {
  const p = await loopProject(yaml);
  expect(await evaluateLoopBaseline(p.ctx)).not.toBe('interrupted');
  await generate(p.ctx);
  return { ...p, paths: iterationPaths(p.ctx.runDir, 1) };
}

describe('discriminate with the llm judge', () => {
  it('is off by default: no judge call, no judge fields', async () => {
    const p = await generated('loop:\n  proposers: [feedback, structural]\n');
    const out = await discriminate(p.ctx, { judgeEngine: scriptedEngine([]).engine });
    expect(out).toMatchObject({ engineCalls: 0 });
    const r = readArtifact(p.paths.ranking, rankingArtifact);
    expect(r.llm_judge).toBeUndefined();
    expect(r.scored_candidates.every((c) => c.llm_judge === undefined && c.parts?.llm_judge === undefined)).toBe(true);
  });

  it('rates every candidate on the mock, offline and the same every time, and records the calls', async () => {
    const p = await generated(JUDGE_ON);
    const out = await discriminate(p.ctx);
    expect(out).toMatchObject({ engineCalls: 3 });
    const r = readArtifact(p.paths.ranking, rankingArtifact);
    expect(r.llm_judge).toEqual({ engine: 'mock', engine_calls: 3, cost_usd: 0, errors: [] });
    expect(r.engine_calls).toBe(3);
    expect(r.inputs['baseline.json']).toBe(sha256File(p.paths.baseline));
    for (const c of r.scored_candidates) {
      const j = c.llm_judge as { rating: number; reason: string; adjustment: number };
      expect(j.reason).toMatch(/^mock grader: \d+\/\d+ rubric terms/);
      expect(j.adjustment).toBe(Math.round(Math.max(-1.5, Math.min(1.5, 0.3 * (j.rating - 5))) * 100) / 100);
      expect(c.parts?.llm_judge).toBe(j.adjustment);
      expect(c.score).toBe(Math.round((CHEAP[c.id]! + j.adjustment) * 100) / 100);
      expect(c.reasons).toContain(`llm judge rated ${j.rating}/10 (${j.reason}): ${j.adjustment >= 0 ? '+' : '−'}${Math.abs(j.adjustment)}`);
    }
    // The structural candidate answers no train failure, so the mock finds nothing to match: rating 0.
    expect(r.scored_candidates.find((c) => c.id === 'cand-02-structure-examples')!.llm_judge).toMatchObject({ rating: 0, adjustment: -1.5 });
    // The feedback candidates use some of their failures' words (the category's own, never a checklist
    // of the judge's strings), so the mock rates them above zero; here the security one falls just
    // under the threshold and the breaking-changes one is selected.
    expect(r.scored_candidates.map((c) => [c.id, (c.llm_judge as { rating: number }).rating, c.score, c.recommendation])).toEqual([
      ['cand-01-guidance-for-breaking-changes-requests', 4, 6.2, 'evaluate'],
      ['cand-03-guidance-for-security-requests', 3.3, 5.99, 'reject'],
      ['cand-02-structure-examples', 0, 3, 'reject'],
    ]);
    const first = r.scored_candidates.map((c) => [c.id, c.score]);
    await discriminate(p.ctx);
    expect(readArtifact(p.paths.ranking, rankingArtifact).scored_candidates.map((c) => [c.id, c.score])).toEqual(first);
  });

  it('moves scores by the scripted ratings, records a twice-invalid reply as an error with the cheap score kept, and shows it', async () => {
    const p = await generated(JUDGE_ON);
    // Candidates are asked in generator order: cand-01, cand-02, cand-03.
    const { engine, requests } = scriptedEngine(['{"rating": 1, "reason": "too narrow"}', '{"rating": 10, "reason": "a real example helps"}', 'nope', '{"rating": "ten"}']);
    const out = await discriminate(p.ctx, { judgeEngine: engine });
    expect(requests).toHaveLength(4);
    expect(requests.every((q) => q.kind === 'judge' && q.expectJson)).toBe(true);
    const r = readArtifact(p.paths.ranking, rankingArtifact);
    expect(r.scored_candidates.map((c) => [c.id, c.score, c.recommendation])).toEqual([
      ['cand-03-guidance-for-security-requests', 6.5, 'evaluate'],
      ['cand-02-structure-examples', 6, 'hold'],
      ['cand-01-guidance-for-breaking-changes-requests', 5.3, 'reject'],
    ]);
    const failed = r.scored_candidates.find((c) => c.id === 'cand-03-guidance-for-security-requests')!;
    expect(failed.llm_judge).toEqual({ error: expect.stringMatching(/^reply unusable twice; last problem: does not match \{rating: 0–10, reason\}/) });
    expect(failed.parts?.llm_judge).toBeUndefined();
    expect(failed.reasons.some((x) => x.startsWith('llm judge error: reply unusable twice'))).toBe(true);
    expect(r.llm_judge).toMatchObject({ engine: 'scripted', engine_calls: 4, errors: [{ candidate: 'cand-03-guidance-for-security-requests' }] });
    expect(r.llm_judge!.cost_usd).toBeCloseTo(0.04);
    expect(r.engine_calls).toBe(4);
    expect((out as StageOutcome).summary).toMatch(/llm judge error\(s\) on cand-03-guidance-for-security-requests/);
    expect(p.logs.some((l) => /warning: llm judge gave no rating for cand-03/.test(l))).toBe(true);

    const shown = await whet(['show', p.ctx.runId, 'discriminate', '--state-root', p.ctx.stateDir], { cwd: p.dir });
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('llm judge rated 10/10 (a real example helps): +1.5');
    expect(shown.stdout).toContain('llm judge error: reply unusable twice');
  });

  it('refuses a judge that cannot be built rather than scoring without it', async () => {
    const p = await generated(JUDGE_ON);
    // A real (non-mock) run with no engine anywhere: the stage must not silently skip the judge.
    const ctx = { ...p.ctx, manifest: { ...p.ctx.manifest, mock: false }, config: { ...p.ctx.config, engine: undefined, judgeEngine: undefined } };
    await expect(discriminate(ctx)).rejects.toThrow(/llm_judge is on but no engine is configured/);
    expect(existsSync(p.paths.ranking)).toBe(false);
  });
});
