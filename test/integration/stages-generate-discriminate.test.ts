import type { StageOutcome } from '../../src/loop/context.js';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArtifact, sha256, sha256File } from '../../src/state/artifact-io.js';
import { assignSplits } from '../../src/config/split.js';
import { loadSuite } from '../../src/config/suite.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { diffStats, unifiedDiff } from '../../src/skill/diff.js';
import { applyEdits } from '../../src/skill/edits.js';
import { readSkill } from '../../src/skill/read.js';
import { stateLayout } from '../../src/state/layout.js';
import { run as discriminate } from '../../stages/discriminate/index.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { evaluateLoopBaseline } from '../../stages/evaluate/loop.js';
import { run as generate } from '../../stages/generate/index.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { loopProject } from '../fixtures/stages/loop-project.js';
import { replyWith, scriptedEngine } from '../fixtures/stages/scripted-engine.js';

async function generated(extraYaml = 'loop:\n  proposers: [feedback, structural]\n') {
  const p = await loopProject(extraYaml);
  const base = await evaluateLoopBaseline(p.ctx);
  expect(base).not.toBe('interrupted');
  const targetText = readFileSync(join(p.skillDir, 'SKILL.md'), 'utf8');
  return { ...p, paths: iterationPaths(p.ctx.runDir, 1), targetText };
}

describe('generate on a real run (release-notes, mock engine)', () => {
  it('proposes from train failures and structure, materialising variants that differ from the target only by their actions', async () => {
    const p = await generated();
    const out = await generate(p.ctx);
    expect(out).toMatchObject({ verdict: 'proposed', next_step: 'discriminate', next_owner: 'discriminator', engineCalls: 0 });
    const a = readArtifact(p.paths.candidates, candidatesArtifact);
    expect(a.candidates.map((c) => [c.id, c.proposer, c.category])).toEqual([
      ['cand-01-guidance-for-breaking-changes-requests', 'feedback', 'coverage'],
      ['cand-02-structure-examples', 'structural', 'examples'],
      ['cand-03-guidance-for-security-requests', 'feedback', 'coverage'],
    ]);
    expect(a.signals).toEqual({ train_failures: ['rn-breaking-01', 'rn-security-01'], weakest_dimensions: ['examples'], lessons_considered: 0 });
    expect(a.inputs).toEqual({ 'baseline.json': sha256File(p.paths.baseline), target: readSkill(p.skillDir).contentHash, lessons: sha256('') });
    expect(a.target).toMatchObject({ path: p.skillDir, sha256: readSkill(p.skillDir).contentHash });
    for (const c of a.candidates) {
      const dir = join(p.paths.dir, c.variant_path);
      const text = readFileSync(join(dir, 'SKILL.md'), 'utf8');
      expect(text).toBe(applyEdits(p.targetText, c.actions));
      expect(sha256(text)).toBe(c.content_sha256);
      expect(c.diff).toBe(unifiedDiff(p.targetText, text));
      expect(c.diff_stats).toEqual(diffStats(p.targetText, text));
      // The whole skill folder travels, except the suite and hidden files.
      expect(readFileSync(join(dir, 'references/style.md'), 'utf8')).toBe('# Style\nShort sentences.\n');
      expect(existsSync(join(dir, 'tasks.yaml'))).toBe(false);
      expect(existsSync(join(dir, '.notes'))).toBe(false);
    }
    // The target itself is untouched.
    expect(readFileSync(join(p.skillDir, 'SKILL.md'), 'utf8')).toBe(p.targetText);
  });

  it('lets no held-out prompt or held-out-only expected string into any candidate', async () => {
    const p = await generated();
    await generate(p.ctx);
    const text = readFileSync(p.paths.candidates, 'utf8');
    const suite = loadSuite(join(p.skillDir, 'tasks.yaml'));
    const tasks = assignSplits(suite.tasks, 0.3);
    const trainStrings = new Set(tasks.filter((t) => t.split === 'train').flatMap((t) => t.judges.flatMap((j) => ('expected' in j && Array.isArray(j.expected) ? j.expected : []))));
    const held = tasks.filter((t) => t.split === 'holdout');
    expect(held.length).toBeGreaterThan(0);
    for (const t of held) {
      for (const line of t.prompt.trim().split('\n')) expect(text).not.toContain(line.trim());
      for (const j of t.judges) for (const s of 'expected' in j && Array.isArray(j.expected) ? j.expected : []) if (!trainStrings.has(s) && !p.targetText.includes(s)) expect(text).not.toContain(s);
    }
  });

  it('skips what lessons say was rejected on this target, and supersedes stale variants on a re-run', async () => {
    const p = await generated();
    await generate(p.ctx);
    const first = readArtifact(p.paths.candidates, candidatesArtifact);
    const rejected = first.candidates[0]!;
    const lessons = stateLayout.lessons(p.ctx.stateDir);
    mkdirSync(join(p.ctx.stateDir, 'memory'), { recursive: true });
    const lesson = { run_id: 'old-run', iteration: 4, target: p.skillDir, target_sha256: first.target.sha256, candidate_id: rejected.id, category: 'coverage', actions: ['append_section'], content_sha256: rejected.content_sha256, decision: 'reject', delta: 0, delta_ci95: null, why: 'no held-out gain', at: '2026-01-01T00:00:00.000Z' };
    writeFileSync(lessons, `${JSON.stringify(lesson)}\n${JSON.stringify({ ...lesson, target: '/another/skill', content_sha256: first.candidates[2]!.content_sha256 })}\n`);
    await generate(p.ctx);
    const second = readArtifact(p.paths.candidates, candidatesArtifact);
    expect(second.candidates.map((c) => c.title)).toEqual(['Structure: examples', 'Guidance for security requests']);
    expect(second.skipped).toEqual([{ title: rejected.title, proposer: 'feedback', why: expect.stringMatching(/evaluated on this target in run old-run iteration 4 and rejected: no held-out gain/) }]);
    expect(second.signals.lessons_considered).toBe(1);
    expect(second.inputs.lessons).toBe(sha256File(lessons));
    expect(readdirSync(join(p.paths.dir, 'variants')).sort()).toEqual(second.candidates.map((c) => c.id).sort());
    expect(readdirSync(join(p.paths.dir, 'superseded')).some((d) => d.endsWith('-variants'))).toBe(true);
  });
});

describe('discriminate on a real run', () => {
  it('ranks every candidate, selects one for evaluation and records the candidates.json it read', async () => {
    const p = await generated();
    await generate(p.ctx);
    const out = await discriminate(p.ctx);
    expect(out).toMatchObject({ verdict: 'selected', next_step: 'evaluate', next_owner: 'evaluator', engineCalls: 0 });
    const r = readArtifact(p.paths.ranking, rankingArtifact);
    expect(r.inputs['candidates.json']).toBe(sha256File(p.paths.candidates));
    expect(r.target).toEqual({ path: p.skillDir });
    expect(r.selected).toBe('cand-01-guidance-for-breaking-changes-requests');
    expect(r.scored_candidates.map((c) => [c.id, c.score, c.recommendation])).toEqual([
      ['cand-01-guidance-for-breaking-changes-requests', 6.5, 'evaluate'],
      ['cand-03-guidance-for-security-requests', 6.5, 'hold'],
      ['cand-02-structure-examples', 4.5, 'reject'],
    ]);
    for (const c of r.scored_candidates) expect(existsSync(join(p.paths.dir, c.variant_path, 'SKILL.md'))).toBe(true);
  });

  it('hands over to the learner when nothing reaches the eval threshold', async () => {
    const p = await generated('loop:\n  proposers: [feedback, structural]\nevaluate:\n  eval_threshold: 9\n');
    await generate(p.ctx);
    const out = await discriminate(p.ctx);
    expect(out).toMatchObject({ verdict: 'none', next_step: 'learn', next_owner: 'learner' });
    const r = readArtifact(p.paths.ranking, rankingArtifact);
    expect(r.selected).toBeNull();
    expect(r.reason).toBe('no candidate reached the eval threshold 9 (best: cand-01-guidance-for-breaking-changes-requests at 6.5)');
    expect(r.scored_candidates.every((c) => c.recommendation === 'reject')).toBe(true);
  });

  it('pre-checks the selected candidate on train tasks and moves on when it passes fewer than the baseline', async () => {
    const p = await generated('loop:\n  proposers: [feedback, llm]\n  minibatch: 3\n');
    // A model proposal that claims both train failures (so it ranks first) but wipes out the steps.
    const harmful = { title: 'Shorter steps', category: 'workflow', risk: 'low', rationale: 'simpler', answers: ['rn-breaking-01', 'rn-security-01'], actions: [{ type: 'replace_section', section: 'Steps', body: 'Write nice notes.' }] };
    const { engine } = scriptedEngine([replyWith([harmful])]);
    const gen = await generate(p.ctx, { generatorEngine: engine });
    expect((gen as StageOutcome).engineCalls).toBe(1);
    const out = await discriminate(p.ctx);
    const r = readArtifact(p.paths.ranking, rankingArtifact);
    const llm = r.scored_candidates.find((c) => c.id.endsWith('shorter-steps'))!;
    expect(r.scored_candidates[0]!.id).toBe(llm.id);
    expect(llm.recommendation).toBe('reject');
    expect(llm.minibatch).toEqual({ tasks: ['rn-breaking-01', 'rn-security-01', 'rn-group-01'], candidate_passed: 0, baseline_passed: 1 });
    expect(llm.reasons[0]).toMatch(/candidate passed 0, baseline 1: passes fewer than the baseline, rejected before a full evaluation/);
    expect(r.selected).toBe('cand-01-guidance-for-breaking-changes-requests');
    const chosen = r.scored_candidates.find((c) => c.id === r.selected)!;
    // The guidance names breaking changes but not the one train task's other string: 2 of 3, like the baseline.
    expect(chosen.minibatch).toMatchObject({ candidate_passed: 2, baseline_passed: 2 });
    expect(existsSync(join(p.paths.dir, 'minibatch/results/baseline.jsonl'))).toBe(true);
    expect(existsSync(join(p.paths.dir, `minibatch/results/${llm.id}.jsonl`))).toBe(true);
    // Baseline (3 + 1 more task) and two candidates (3 each) ran; all recorded for the budget.
    expect(out).not.toBe('interrupted');
    expect(r.engine_calls).toBe(10);
  });
});
