import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { readArtifact, sha256File } from '../../src/state/artifact-io.js';
import type { Engine } from '../../src/engines/types.js';
import type { LoopContext } from '../../src/loop/context.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { readSkill } from '../../src/skill/read.js';
import { stateLayout } from '../../src/state/layout.js';
import { run as discriminate } from '../../stages/discriminate/index.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { evaluateLoopBaseline, evaluateLoopCandidate } from '../../stages/evaluate/loop.js';
import { run as gate } from '../../stages/gate/index.js';
import { run as generate } from '../../stages/generate/index.js';
import { run as learn } from '../../stages/learn/index.js';
import { learningArtifact } from '../../src/artifacts/learning.js';
import { loopProject } from '../fixtures/stages/loop-project.js';
import { Budget } from '../../src/evaluation/budget.js';
import { replyWith, scriptedEngine } from '../fixtures/stages/scripted-engine.js';

/** One iteration the way the runner drives it: baseline, generate, discriminate, evaluate + gate when selected, learn. */
async function iterate(ctx: LoopContext, generatorEngine?: Engine) {
  expect(await evaluateLoopBaseline(ctx)).not.toBe('interrupted');
  await generate(ctx, { generatorEngine });
  expect(await discriminate(ctx)).not.toBe('interrupted');
  const paths = iterationPaths(ctx.runDir, ctx.iteration);
  const ranking = readArtifact(paths.ranking, rankingArtifact);
  if (ranking.selected) {
    expect(await evaluateLoopCandidate(ctx, ranking.selected)).not.toBe('interrupted');
    await gate(ctx);
  }
  const out = await learn(ctx);
  return { out, paths, ranking, learning: readArtifact(paths.learning, learningArtifact) };
}

const lessonLines = (ctx: LoopContext) => readFileSync(stateLayout.lessons(ctx.stateDir), 'utf8').trim().split('\n');

describe('learn on a real run (release-notes, mock engine)', () => {
  it('records the kept candidate’s lesson once, scores the target, proposes cases and goes on', async () => {
    const p = await loopProject('loop:\n  proposers: [feedback, structural]\n');
    const { out, paths, learning, ranking } = await iterate(p.ctx);
    expect(out).toMatchObject({ verdict: 'continue', next_step: 'generate', next_owner: 'generator', engineCalls: 0 });
    const target = readSkill(p.skillDir);
    expect(learning.lesson).toMatchObject({
      run_id: p.ctx.runId,
      iteration: 1,
      target: p.skillDir,
      candidate_id: ranking.selected,
      category: 'coverage',
      actions: ['append_section'],
      decision: 'keep',
      delta: 0.2,
      why: 'held-out gain +0.2000 with no new failures',
    });
    expect(learning.lesson.delta_ci95).toEqual({ low: 0, high: 0.6 });
    expect(learning.lesson_record).toBe('appended');
    expect(learning.inputs).toMatchObject({ 'gate.json': sha256File(paths.gate), 'evaluation.json': sha256File(paths.evaluation), 'ranking.json': sha256File(paths.ranking), target: target.contentHash });
    expect(learning.structure.total).toBeCloseTo(8 / 9, 4);
    expect(learning.structure.dimensions.find((d) => d.id === 'examples')!.score).toBe(0);
    // Baseline 10 calls, candidate 10; the evaluation's baseline came from the cache.
    expect(learning.totals.engine_calls).toBe(20);
    expect(learning.stop).toEqual({ stop: false, rule: null, reason: expect.stringMatching(/^no stop rule fired/) });

    expect(learning.proposed_cases).toEqual({ file: 'proposed-cases.yaml', count: 3 });
    const proposed = readFileSync(paths.proposedCases, 'utf8');
    expect(proposed).toMatch(/^# Proposed eval cases/);
    const doc = parse(proposed) as { tasks: { id: string; prompt: string; status: string }[] };
    expect(doc.tasks.map((t) => t.id)).toEqual(['rn-breaking-01-more-1', 'rn-breaking-02-more-1', 'rn-security-01-more-1']);
    expect(doc.tasks.every((t) => t.status === 'proposed' && t.prompt.startsWith('TODO: another request like'))).toBe(true);

    expect(lessonLines(p.ctx)).toHaveLength(1);
    // A learn re-run (say, after a crash) finds its lesson and appends nothing.
    await learn(p.ctx);
    expect(readArtifact(paths.learning, learningArtifact).lesson_record).toBe('unchanged');
    expect(lessonLines(p.ctx)).toHaveLength(1);
  });

  it('learns "no candidate evaluated" without a gate, and stops by the configured rule', async () => {
    const cases: [string, string, RegExp][] = [
      ['loop:\n  max_iterations: 1\nevaluate:\n  eval_threshold: 9\n', 'max_iterations', /iteration 1 reached loop.max_iterations 1/],
      ['budgets:\n  max_engine_calls: 10\nevaluate:\n  eval_threshold: 9\n', 'budget', /10 engine calls ≥ max_engine_calls 10/],
      ['loop:\n  plateau_window: 1\nevaluate:\n  eval_threshold: 9\n', 'plateau', /no candidate kept in the last 1 iteration\(s\) \(1: nothing evaluated/],
      ['loop:\n  proposers: [llm]\n', 'no_candidates', /the generator proposed nothing/],
    ];
    for (const [yaml, rule, reason] of cases) {
      const p = await loopProject(yaml);
      const { out, learning, paths } = await iterate(p.ctx);
      expect(existsSync(paths.gate)).toBe(false);
      expect(out).toMatchObject({ verdict: 'stop', next_step: 'done', next_owner: 'none' });
      expect(learning.stop).toMatchObject({ stop: true, rule });
      expect(learning.stop.reason).toMatch(reason);
      expect(learning.reason).toBe(`stopped by ${rule}: ${learning.stop.reason}`);
      expect(learning.lesson).toMatchObject({ decision: 'none', candidate_id: null, content_sha256: null, delta: null });
      expect(learning.lesson.why).toMatch(/^no candidate evaluated: /);
      if (rule === 'no_candidates') expect(learning.lesson.why).toMatch(/proposer errors: llm: skipped: the run uses the mock engine/);
      // Nothing evaluated: the proposed cases come from the baseline's failures.
      expect(learning.proposed_cases.count).toBe(3);
    }
  });

  it('under a run budget, its totals and budget rule are the budget\'s own counters (judge and superseded calls included)', async () => {
    const p = await loopProject('budgets:\n  max_engine_calls: 500\nevaluate:\n  eval_threshold: 9\n');
    // 7 calls a previous session spent (say, superseded work): the budget counts them, the artifacts do not.
    const budget = new Budget({ maxEngineCalls: 500 }, { calls: 7, cost: 0 });
    const { learning } = await iterate({ ...p.ctx, budget });
    expect(learning.totals.engine_calls).toBe(budget.used.calls);
    expect(learning.totals.engine_calls).toBe(17);
  });

  it('stops on oscillation when a candidate would restore content the target had earlier in the run', async () => {
    const p = await loopProject('loop:\n  proposers: [feedback, llm]\n');
    const original = readFileSync(join(p.skillDir, 'SKILL.md'), 'utf8');
    const first = await iterate(p.ctx, scriptedEngine([replyWith([])]).engine);
    expect(first.learning.lesson.decision).toBe('keep');
    const kept = readFileSync(join(p.skillDir, 'SKILL.md'), 'utf8');
    const undo = { title: 'Drop the breaking changes rule', category: 'conciseness', risk: 'low', rationale: 'shorter', answers: ['rn-security-01'], actions: [{ type: 'replace_text', find: kept.slice(original.length), replace: '' }] };
    const ctx2 = { ...p.ctx, iteration: 2 };
    const second = await iterate(ctx2, scriptedEngine([replyWith([undo])]).engine);
    expect(second.ranking.selected).toMatch(/drop-the-breaking-changes-rule$/);
    expect(second.learning.lesson.decision).toBe('reject');
    expect(second.learning.stop).toMatchObject({ stop: true, rule: 'oscillation', reason: expect.stringMatching(/content the target had at the start of the run/) });
    expect(lessonLines(p.ctx).map((l) => JSON.parse(l).iteration)).toEqual([1, 2]);
  });

  it('refuses to learn from a selected candidate that was never gated', async () => {
    const p = await loopProject('loop:\n  proposers: [feedback]\n');
    await evaluateLoopBaseline(p.ctx);
    await generate(p.ctx);
    await discriminate(p.ctx);
    await expect(learn(p.ctx)).rejects.toThrow(/selected cand-01-guidance-for-breaking-changes-requests but there is no gate\.json/);
    expect(existsSync(stateLayout.lessons(p.ctx.stateDir))).toBe(false);
  });
});
