// --eval-threshold on `whet run` and `whet discriminate`: the same rule as `whet evaluate` (a score at or
// above it is evaluated); a new run registers the flag's value, an existing run refuses a different one
// like a changed pipeline.yaml, and the loop's evaluate skips by the threshold discriminate ranked with.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readArtifact } from '../../src/state/artifact-io.js';
import { iterationPaths } from '../../src/loop/paths.js';
import { openRun } from '../../src/loop/open.js';
import { run as discriminate } from '../../stages/discriminate/index.js';
import { rankingArtifact } from '../../src/artifacts/ranking.js';
import { evaluateLoopBaseline, evaluateLoopCandidate } from '../../stages/evaluate/loop.js';
import { run as generate } from '../../stages/generate/index.js';
import { loopProject } from '../fixtures/stages/loop-project.js';
import { exampleLoopProject, readJson, snapshotTree, whet } from '../support/cli.js';

function project(): string {
  return exampleLoopProject({
    loop: '{max_iterations: 1, candidates_per_iteration: 3, proposers: [feedback, structural]}',
    evaluate: '{concurrency: 2, eval_threshold: 6}',
  });
}
const newestRun = (dir: string) => readdirSync(join(dir, 'state/runs')).sort().pop()!;

describe('whet run / discriminate --eval-threshold', () => {
  it('registers the flag on a new run, keeps it on later calls, and refuses a different one with state untouched', async () => {
    const dir = project();
    const r = await whet(['run', '--eval-threshold', '9'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const runId = newestRun(dir);
    const runDir = join(dir, 'state/runs', runId);
    expect(readJson(join(runDir, 'run.json'))).toMatchObject({ settings: { eval_threshold: 9 }, flags: { eval_threshold: 9 } });
    const ranking = readJson(join(runDir, 'iter-001/ranking.json'));
    // 9 is above every cheap score (best 6.5): nothing is selected, though pipeline.yaml's 6 would select.
    expect(ranking).toMatchObject({ eval_threshold: 9, selected: null, reason: expect.stringContaining('eval threshold 9') });

    const before = snapshotTree(join(dir, 'state'));
    const changed = await whet(['discriminate', '--run', runId, '--eval-threshold', '6'], { cwd: dir });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/refuses to continue: its decision settings changed since it started \(evaluate\.eval_threshold: 9 \(set before results\) → 6 \(--eval-threshold now\)/);
    const redo = await whet(['run', '--from', 'discriminate', '--run', runId, '--eval-threshold', '6.5'], { cwd: dir });
    expect(redo.code).toBe(2);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);

    // The same value, or none (the run's registered flag stands in for pipeline.yaml's 6), is accepted.
    expect((await whet(['discriminate', '--run', runId, '--eval-threshold', '9'], { cwd: dir })).code).toBe(0);
    expect((await whet(['discriminate', '--run', runId], { cwd: dir })).code).toBe(0);
    expect(readJson(join(runDir, 'iter-001/ranking.json'))).toMatchObject({ eval_threshold: 9, selected: null });
  });

  it('refuses a flag that differs from a value registered from pipeline.yaml, and rejects a non-number', async () => {
    const dir = project();
    expect((await whet(['run'], { cwd: dir })).code).toBe(0);
    const runId = newestRun(dir);
    const r = await whet(['discriminate', '--run', runId, '--eval-threshold', '5'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/evaluate\.eval_threshold: 6 \(set before results\) → 5 \(--eval-threshold now\)/);
    const same = await whet(['discriminate', '--run', runId, '--eval-threshold', '6'], { cwd: dir });
    // An equal flag passes the settings check; this run then refuses only because its keep was applied.
    expect(same.stderr).not.toMatch(/decision settings/);
    expect(same.stderr).toMatch(/already promoted its candidate/);
    const bad = await whet(['run', '--eval-threshold', 'high'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--eval-threshold must be a number/);
  });
});

describe('the ranking drives the loop’s evaluate skip', () => {
  it('skips a candidate scored below the run’s threshold and evaluates one at it (score ≥ threshold)', async () => {
    const p = await loopProject('loop:\n  proposers: [feedback, structural]\n', {});
    const ctx = await openRun(p.env, { stateDir: p.ctx.stateDir, runId: p.ctx.runId, evalThreshold: 6.5 });
    const paths = iterationPaths(ctx.runDir, 1);
    expect(await evaluateLoopBaseline(ctx)).not.toBe('interrupted');
    await generate(ctx);
    await discriminate(ctx);
    const r = readArtifact(paths.ranking, rankingArtifact);
    // Exactly at the threshold counts: the 6.5 candidates reach evaluation, the 4.5 one does not.
    expect(r.eval_threshold).toBe(6.5);
    expect(r.selected).toBe('cand-01-guidance-for-breaking-changes-requests');
    const low = r.scored_candidates.find((c) => c.score < 6.5)!;
    expect(low).toMatchObject({ id: 'cand-02-structure-examples', score: 4.5, recommendation: 'reject' });

    const skipped = await evaluateLoopCandidate(ctx, low.id);
    expect(skipped).toMatchObject({ verdict: 'skipped' });
    expect(readJson(paths.evaluation)).toMatchObject({ eval_threshold: 6.5, evaluation: { verdict: 'skipped', reason: 'score 4.5 < threshold 6.5 (--eval-threshold)' } });
    // Under a lower flag (pipeline.yaml says 6.0 here) the same ranking entry is evaluated: evaluate
    // reads the run's threshold, not pipeline.yaml's.
    const lower = await evaluateLoopCandidate({ ...ctx, config: { ...ctx.config, evalThreshold: 4.5 } }, low.id);
    expect(lower).not.toBe('interrupted');
    expect((lower as { verdict: string }).verdict).not.toBe('skipped');
    expect(readJson(paths.evaluation)).toMatchObject({ eval_threshold: 4.5 });
  });
});
