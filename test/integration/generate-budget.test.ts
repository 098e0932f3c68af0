// The generator's engine calls are engine calls of the run: they count against max_engine_calls and
// max_cost_usd, and a call the budget refuses stops the stage before candidates.json is written.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readArtifact } from '../../src/state/artifact-io.js';
import { Budget } from '../../src/evaluation/budget.js';
import { usedInRun } from '../../src/evaluation/run-usage.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { evaluateLoopBaseline } from '../../stages/evaluate/loop.js';
import { run as generate } from '../../stages/generate/index.js';
import { candidatesArtifact } from '../../src/artifacts/candidates.js';
import { loopProject } from '../fixtures/stages/loop-project.js';
import { replyWith, scriptedEngine } from '../fixtures/stages/scripted-engine.js';

const proposal = { title: 'More', category: 'coverage', risk: 'low', rationale: 'r', actions: [{ type: 'append_section', heading: 'More', body: 'More guidance.' }] };

describe('generator calls under the run budget', () => {
  it('are counted and priced, in the budget and in usedInRun', async () => {
    const p = await loopProject('loop:\n  proposers: [llm]\n');
    await evaluateLoopBaseline(p.ctx);
    const before = usedInRun(p.ctx.runDir);
    const budget = new Budget({ maxEngineCalls: 1000 }, before);
    const { engine } = scriptedEngine([replyWith([proposal])]);
    await generate({ ...p.ctx, budget }, { generatorEngine: engine });
    expect(budget.used).toEqual({ calls: before.calls + 1, cost: before.cost + 0.01 });
    expect(readArtifact(iterationPaths(p.ctx.runDir, 1).candidates, candidatesArtifact)).toMatchObject({ engine_calls: 1, cost_usd: 0.01 });
    // Counted as the generator's, apart from the engine's and judges' (one count, issue 28 §4).
    expect(usedInRun(p.ctx.runDir)).toMatchObject({ calls: before.calls + 1, generator: before.generator + 1, engine: before.engine, judge: before.judge });
  });

  it('a spent budget refuses the call and interrupts the stage', async () => {
    const p = await loopProject('loop:\n  proposers: [llm]\n');
    await evaluateLoopBaseline(p.ctx);
    const used = usedInRun(p.ctx.runDir);
    const budget = new Budget({ maxEngineCalls: used.calls }, used);
    const { engine, requests } = scriptedEngine([replyWith([proposal])]);
    expect(await generate({ ...p.ctx, budget }, { generatorEngine: engine })).toBe('interrupted');
    expect(requests).toHaveLength(0);
    expect(existsSync(iterationPaths(p.ctx.runDir, 1).candidates)).toBe(false);
  });

  it('calls made before the refusal stay counted for the resume', async () => {
    const p = await loopProject('loop:\n  proposers: [llm]\n');
    await evaluateLoopBaseline(p.ctx);
    const used = usedInRun(p.ctx.runDir);
    // One call allowed: the reply is unusable, and the retry is refused.
    const budget = new Budget({ maxEngineCalls: used.calls + 1 }, used);
    const { engine, requests } = scriptedEngine(['no json here', replyWith([proposal])]);
    expect(await generate({ ...p.ctx, budget }, { generatorEngine: engine })).toBe('interrupted');
    expect(requests).toHaveLength(1);
    expect(usedInRun(p.ctx.runDir)).toMatchObject({ calls: used.calls + 1, generator: used.generator + 1, cost: used.cost + 0.01 });
  });
});
