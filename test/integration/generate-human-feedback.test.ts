// A person's verdicts from `whet view` reach the real generate stage as train evidence only: the llm
// proposer's prompt (a scripted engine) carries the train verdict's words and never a held-out one's or
// another skill's, and candidates.json records what the generator read.
import type { StageOutcome } from '../../src/loop/context.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArtifact } from '../../src/state/artifact-io.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { evaluateLoopBaseline } from '../../stages/evaluate/loop.js';
import { run as generate } from '../../stages/generate/index.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { appendFeedback, type FeedbackFields } from '../../src/lessons/feedback.js';
import { stateLayout } from '../../src/state/layout.js';
import { loopProject, repoRoot } from '../fixtures/stages/loop-project.js';
import { replyWith, scriptedEngine } from '../fixtures/stages/scripted-engine.js';

const fixture = (f: string) => readFileSync(join(repoRoot, 'test/fixtures/stages', f), 'utf8');

describe('feedback given in whet view, in the generate stage', () => {
  it('shows the llm proposer the train verdict only, and records it in candidates.json', async () => {
    const p = await loopProject('loop:\n  proposers: [feedback, llm, structural]\n  candidates_per_iteration: 5\n', { skillText: fixture('leak-skill.md'), suiteText: fixture('leak-suite.yaml') });
    await evaluateLoopBaseline(p.ctx);
    const file = stateLayout.feedback(p.ctx.stateDir);
    const base: FeedbackFields = { run_id: p.ctx.runId, iteration: 1, task_id: 'tr-alpha', variant: 'baseline', attempt: null, target: p.ctx.manifest.target.skill_dir, split: 'train', category: 'alpha', rating: 'bad', comment: 'TRAIN-FEEDBACK-WORDS', source: 'whet view' };
    const train = appendFeedback(file, base, new Date());
    appendFeedback(file, { ...base, task_id: 'ho-alpha', split: 'holdout', comment: 'HELDOUT-FEEDBACK-WORDS' }, new Date());
    appendFeedback(file, { ...base, run_id: 'another-run', target: '/another/skill', comment: 'OTHER-SKILL-WORDS' }, new Date());

    const proposal = { title: 'Alpha guidance', category: 'coverage', risk: 'medium', rationale: 'alpha requests', answers: ['tr-alpha'], actions: [{ type: 'append_section', heading: 'Alpha widgets', body: 'Say what each alpha widget is for.' }] };
    const { engine, requests } = scriptedEngine([replyWith([proposal])]);
    const out = await generate(p.ctx, { generatorEngine: engine });
    expect((out as StageOutcome).verdict).toBe('proposed');
    const shown = `${requests[0]!.system ?? ''}\n${requests[0]!.prompt}`;
    expect(shown).toContain('- task tr-alpha (category alpha): bad — TRAIN-FEEDBACK-WORDS');
    expect(shown).not.toContain('HELDOUT-FEEDBACK-WORDS');
    expect(shown).not.toContain('OTHER-SKILL-WORDS');
    const a = readArtifact(iterationPaths(p.ctx.runDir, 1).candidates, candidatesArtifact);
    expect(a.signals.human_feedback).toEqual([{ id: train.id, task_id: 'tr-alpha', variant: 'baseline', rating: 'bad', comment: 'TRAIN-FEEDBACK-WORDS' }]);
    expect(a.inputs['feedback']).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
