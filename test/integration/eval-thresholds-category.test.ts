// evaluate.eval_thresholds (seed 001: "the orchestrator sets per-category thresholds, e.g. docs=5.0,
// prompt=7.0"): a candidate of a listed category needs its own score to be evaluated, the others the
// single eval_threshold. The map is registered with the run like the single one, and changing it
// mid-run is refused with the state directory untouched.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipeline } from '../../src/config/pipeline.js';
import { evalThresholdFor } from '../../src/config/eval-thresholds.js';
import { exampleLoopProject, readJson, snapshotTree, tempDir, whet, write } from '../support/cli.js';

const newestRun = (dir: string) => readdirSync(join(dir, 'state/runs')).sort().pop()!;

describe('per-category eval thresholds', () => {
  it('selects by each candidate’s category threshold, registers the map and refuses a change mid-run', async () => {
    // coverage (the feedback rules) needs 9.5, more than any cheap score; examples needs only 4.
    const dir = exampleLoopProject({ loop: '{max_iterations: 1, candidates_per_iteration: 3, proposers: [feedback, structural]}', evaluate: '{eval_threshold: 6, eval_thresholds: {coverage: 9.5, examples: 4}}' });
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const runId = newestRun(dir);
    const runDir = join(dir, 'state/runs', runId);
    expect(readJson(join(runDir, 'run.json'))).toMatchObject({ settings: { eval_threshold: 6, eval_thresholds: { coverage: 9.5, examples: 4 } } });
    const ranking = readJson(join(runDir, 'iter-001/ranking.json'));
    expect(ranking.eval_thresholds).toEqual({ coverage: 9.5, examples: 4 });
    const coverage = ranking.scored_candidates.filter((c: { category: string }) => c.category === 'coverage');
    expect(coverage.length).toBeGreaterThan(0);
    for (const c of coverage) {
      expect(c).toMatchObject({ recommendation: 'reject', eval_threshold: 9.5, eval_threshold_from: 'evaluate.eval_thresholds.coverage' });
      // Scored above the single threshold: only its category's own bar keeps it out.
      expect(c.score).toBeGreaterThanOrEqual(6);
    }
    const examples = ranking.scored_candidates.find((c: { category: string }) => c.category === 'examples');
    expect(examples).toMatchObject({ recommendation: 'evaluate', eval_threshold: 4 });
    expect(ranking.selected).toBe(examples.id);
    expect(readJson(join(runDir, 'iter-001/evaluation.json'))).toMatchObject({ candidate_id: examples.id, eval_threshold: 4, eval_threshold_from: 'evaluate.eval_thresholds.examples' });

    // Lowering coverage's bar after seeing its candidates rejected is choosing by hindsight: refused.
    const before = snapshotTree(join(dir, 'state'));
    const cfg = join(dir, 'pipeline.yaml');
    writeFileSync(cfg, readFileSync(cfg, 'utf8').replace('coverage: 9.5', 'coverage: 6'));
    const changed = await whet(['discriminate', '--run', runId], { cwd: dir });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/decision settings changed since it started \(evaluate\.eval_thresholds: \{"coverage":9\.5,"examples":4\} \(set before results\) → \{"coverage":6,"examples":4\} \(pipeline\.yaml now\)/);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  });

  it('keeps loop.minibatch and llm_judge in run.json, so changing them mid-run is refused too', async () => {
    // (The manifest's schema used to drop them on write, so they were registered in name only.)
    const dir = exampleLoopProject({ loop: '{max_iterations: 1, proposers: [feedback, structural]}', evaluate: '{eval_threshold: 9}' });
    expect((await whet(['run'], { cwd: dir })).code).toBe(0);
    const runId = newestRun(dir);
    expect(readJson(join(dir, 'state/runs', runId, 'run.json')).settings).toMatchObject({ minibatch: 0, llm_judge: false, eval_thresholds: {} });
    const before = snapshotTree(join(dir, 'state'));
    const cfg = join(dir, 'pipeline.yaml');
    writeFileSync(cfg, readFileSync(cfg, 'utf8').replace('loop: {', 'loop: {minibatch: 2, '));
    const changed = await whet(['discriminate', '--run', runId], { cwd: dir });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/loop\.minibatch: 0 \(set before results\) → 2 \(pipeline\.yaml now\)/);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  });

  it('reads the map from pipeline.yaml and refuses one that is not category → number', async () => {
    const dir = tempDir();
    write(join(dir, 'pipeline.yaml'), 'evaluate:\n  eval_threshold: 6\n  eval_thresholds: {docs: 5.0, prompt: 7.0}\n');
    const cfg = await loadPipeline(undefined, dir);
    expect(evalThresholdFor('docs', cfg)).toEqual({ value: 5, from: 'evaluate.eval_thresholds.docs' });
    expect(evalThresholdFor('prompt', cfg, 4)).toEqual({ value: 7, from: 'evaluate.eval_thresholds.prompt' });
    expect(evalThresholdFor('examples', cfg)).toEqual({ value: 6, from: 'evaluate.eval_threshold' });
    expect(evalThresholdFor(undefined, cfg, 4)).toEqual({ value: 4, from: '--eval-threshold' });
    write(join(dir, 'pipeline.yaml'), 'evaluate:\n  eval_thresholds: {docs: high}\n');
    await expect(loadPipeline(undefined, dir)).rejects.toThrow(/pipeline\.yaml:2:\d+ evaluate\.eval_thresholds\.docs: /);
  });
});
