// Held-out tasks are the gate's evidence: if the generator saw them, a "gain" on them would measure
// memory, not improvement. This drives the real generate stage (all three proposers, the llm one on a
// scripted engine) on a suite whose held-out prompts and expected strings are unique, and looks for them
// everywhere the generator writes or speaks.
import type { StageOutcome } from '../../src/loop/context.js';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArtifact, writeArtifact } from '../../src/state/artifact-io.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { evaluateLoopBaseline } from '../../stages/evaluate/loop.js';
import { standaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { run as discriminate } from '../../stages/discriminate/index.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { run as generate } from '../../stages/generate/index.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { loopProject, repoRoot } from '../fixtures/stages/loop-project.js';
import { replyWith, scriptedEngine } from '../fixtures/stages/scripted-engine.js';

const fixture = (f: string) => readFileSync(join(repoRoot, 'test/fixtures/stages', f), 'utf8');
const HELD_OUT = ['HELDOUT-PROMPT-ALPHA', 'HELDOUT-PROMPT-GAMMA', 'HELDOUT-EXPECTED-ALPHA', 'HELDOUT-EXPECTED-GAMMA', 'HELDOUT-EXPECTED-DELTA', 'HELDOUT-PATTERN', 'ho-alpha', 'ho-gamma', 'ho-basics'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

describe('no held-out leakage into generation', () => {
  it('keeps held-out prompts, expected strings and ids out of the llm prompt, the candidates and the variants', async () => {
    const p = await loopProject('loop:\n  proposers: [feedback, llm, structural]\n  candidates_per_iteration: 5\n', { skillText: fixture('leak-skill.md'), suiteText: fixture('leak-suite.yaml') });
    const paths = iterationPaths(p.ctx.runDir, 1);
    await evaluateLoopBaseline(p.ctx);
    // The held-out failures are in baseline.json, with their expected strings in the judges' reasons:
    // exactly what must not travel further.
    const baseline = readArtifact(paths.baseline, standaloneEvaluation);
    const heldFailures = baseline.task_results.filter((r) => r.split === 'holdout' && r.status === 'fail');
    expect(heldFailures.map((r) => r.task_id).sort()).toEqual(['ho-alpha', 'ho-gamma']);
    expect(heldFailures.map((r) => r.reason).join(' ')).toContain('HELDOUT-EXPECTED-GAMMA');

    const proposal = { title: 'Alpha guidance', category: 'coverage', risk: 'medium', rationale: 'alpha requests', answers: ['tr-alpha', 'ho-alpha'], actions: [{ type: 'append_section', heading: 'Alpha widgets', body: 'Name the alpha marker TRAIN-EXPECTED-ALPHA.' }] };
    const { engine, requests } = scriptedEngine([replyWith([proposal])]);
    const out = await generate(p.ctx, { generatorEngine: engine });
    expect((out as StageOutcome).verdict).toBe('proposed');

    expect(requests).toHaveLength(1);
    const shown = `${requests[0]!.system ?? ''}\n${requests[0]!.prompt}`;
    // The prompt is meaningful: it carries the train failure, its request and its judge's reason.
    expect(shown).toContain('TRAIN-PROMPT-ALPHA');
    expect(shown).toContain('TRAIN-EXPECTED-ALPHA');
    for (const s of HELD_OUT) expect(shown).not.toContain(s);

    const a = readArtifact(paths.candidates, candidatesArtifact);
    expect(new Set(a.candidates.map((c) => c.proposer))).toEqual(new Set(['feedback', 'llm', 'structural']));
    expect(a.signals.train_failures).toEqual(['tr-alpha']);
    // The model named a held-out id it was never shown; it is not recorded as answered.
    expect(a.candidates.find((c) => c.proposer === 'llm')!.answers.tasks).toEqual(['tr-alpha']);
    const written = [paths.candidates, ...filesUnder(paths.variants)].map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const s of HELD_OUT) expect(written).not.toContain(s);
    // The feedback rule for category alpha came from the train failure alone, as guidance for the kind.
    expect(written).toContain('When a widget notes request involves alpha, give alpha a section of its own');
  });

  it('keeps held-out tasks out of the discriminator’s llm judge prompts, even for a candidate claiming one', async () => {
    const p = await loopProject('loop:\n  proposers: [feedback, structural]\n  candidates_per_iteration: 5\n  discriminate:\n    llm_judge: true\n', { skillText: fixture('leak-skill.md'), suiteText: fixture('leak-suite.yaml') });
    const paths = iterationPaths(p.ctx.runDir, 1);
    await evaluateLoopBaseline(p.ctx);
    await generate(p.ctx);
    // A candidate that claims a held-out failure (as a careless proposer might): the judge must still
    // see only the train failure the run recorded.
    const a = readArtifact(paths.candidates, candidatesArtifact);
    const feedback = a.candidates.find((c) => c.answers.tasks?.includes('tr-alpha'))!;
    feedback.answers.tasks = ['tr-alpha', 'ho-alpha', 'ho-gamma'];
    await writeArtifact(paths.candidates, candidatesArtifact, a);

    const { engine, requests } = scriptedEngine(a.candidates.map(() => '{"rating": 6, "reason": "plausible"}'));
    await discriminate(p.ctx, { judgeEngine: engine });
    expect(requests).toHaveLength(a.candidates.length);
    const shown = requests.map((r) => `${r.system ?? ''}\n${r.prompt}\n${r.grading?.rubric ?? ''}\n${r.grading?.output ?? ''}`).join('\n');
    // The prompt is meaningful: the train failure's judge reason reaches it.
    expect(shown).toContain('task tr-alpha');
    expect(shown).toContain('TRAIN-EXPECTED-ALPHA');
    for (const s of HELD_OUT) expect(shown).not.toContain(s);
    const ranking = readFileSync(paths.ranking, 'utf8');
    expect(readArtifact(paths.ranking, rankingArtifact).llm_judge?.engine_calls).toBe(a.candidates.length);
    for (const s of HELD_OUT.filter((x) => !x.startsWith('ho-'))) expect(ranking).not.toContain(s);
  });
});
