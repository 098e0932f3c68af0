// The decision settings registered at run start: their difference reads like the thresholds' one, and
// the frozen splits win over whatever holdout_ratio or the suite would assign now.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { registeredSettings, settingsDiff, withFrozenSplits } from '../../src/config/registered.js';
import { loadPipeline } from '../../src/config/pipeline.js';
import { loadSuite } from '../../src/config/suite.js';
import { prepare } from '../../src/measure/setup.js';
import { loopManifest } from '../../src/loop/manifest.js';
import { repoRoot, tempDir } from '../support/cli.js';

const suitePath = join(repoRoot, 'examples/release-notes/tasks.yaml');

describe('registered decision settings', () => {
  it('records every task’s split and names what changed, task by task', async () => {
    const cfg = await loadPipeline(undefined, tempDir());
    const tasks = loadSuite(suitePath).tasks.map(({ split: _, ...t }) => t);
    const before = registeredSettings(cfg, tasks);
    expect(Object.keys(before.splits).sort()).toEqual(tasks.map((t) => t.id).sort());
    const after = registeredSettings({ ...cfg, evalThreshold: 1, loop: { ...cfg.loop, holdoutRatio: 0.9 } }, tasks);
    const diff = settingsDiff(before, after);
    expect(diff[0]).toBe('evaluate.eval_threshold: 6 (set before results) → 1 (pipeline.yaml now)');
    expect(diff[1]).toBe('loop.holdout_ratio: 0.3 (set before results) → 0.9 (pipeline.yaml now)');
    expect(diff.slice(2).every((l) => /^split of task [\w-]+: train \(set before results\) → holdout \(suite now\)$|^… and \d+ more/.test(l))).toBe(true);
    expect(settingsDiff(before, registeredSettings(cfg, tasks))).toEqual([]);
  });

  it('registers the minibatch and the LLM judge, which screen candidates; older runs without them still resume', async () => {
    const cfg = await loadPipeline(undefined, tempDir());
    const tasks = loadSuite(suitePath).tasks;
    const before = registeredSettings(cfg, tasks);
    expect(before).toMatchObject({ minibatch: 0, llm_judge: false });
    const after = registeredSettings({ ...cfg, loop: { ...cfg.loop, minibatch: 3, llmJudge: true } }, tasks);
    expect(settingsDiff(before, after)).toEqual([
      'loop.minibatch: 0 (set before results) → 3 (pipeline.yaml now)',
      'loop.discriminate.llm_judge: false (set before results) → true (pipeline.yaml now)',
    ]);
    const { minibatch: _m, llm_judge: _l, ...older } = before;
    expect(settingsDiff(older, after)).toEqual([]);
  });

  it('run.json keeps every setting registered: none is dropped by its schema (a dropped one is never compared)', async () => {
    const cfg = await loadPipeline(undefined, tempDir());
    const registered = registeredSettings({ ...cfg, minTriggerRate: 0.75, maxFalseTriggerRate: 0.25, maxAttempts: 6, deterministic: false }, loadSuite(suitePath).tasks);
    expect(loopManifest.shape.settings.unwrap().parse(registered)).toEqual(registered);
  });

  it('keeps a frozen split over the ratio’s and the suite’s, and assigns unregistered tasks by the ratio', () => {
    const tasks = loadSuite(suitePath).tasks;
    const first = tasks[0]!;
    const flipped = first.split === 'holdout' ? 'train' : 'holdout';
    const out = withFrozenSplits(tasks, { [first.id]: flipped }, 0.3);
    expect(out[0]!.split).toBe(flipped);
    expect(out.slice(1).map((t) => t.split)).toEqual(tasks.slice(1).map((t) => t.split));
  });

  it('the evaluate stage measures with the splits the run registered', async () => {
    const tasks = loadSuite(suitePath).tasks;
    const splits = Object.fromEntries(tasks.map((t) => [t.id, t.split === 'holdout' ? 'train' : 'holdout'] as const));
    const p = await prepare({ cwd: tempDir(), env: {}, now: () => new Date(), log: () => {}, source: { taskSuite: suitePath, mock: true, splits } });
    expect(Object.fromEntries(p.suite.tasks.map((t) => [t.id, t.split]))).toEqual(splits);
  });
});
