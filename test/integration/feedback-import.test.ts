// skill-creator's feedback.json round trip (issue 40, item 3): reviews given on the run ids skill-creator's
// own viewer (run unchanged, python3) names in a workspace `whet report --format skill-creator` wrote are
// imported into the feedback memory on the attempt they name; whetstone's export of that memory names the
// same runs and reads back to the same verdicts.
import { describe, expect, it } from 'vitest';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentFeedback, readFeedback } from '../../src/lessons/feedback.js';
import { exportFeedback } from '../../src/view/feedback-model.js';
import { readJson, repoRoot, snapshotTree, tempDir, whet, write } from '../support/cli.js';
import { viewerRuns } from '../support/skill-creator.js';

const memory = (dir: string) => currentFeedback(readFeedback(join(dir, 'state/memory/feedback.jsonl')).items);
const brief = (dir: string) => memory(dir).map((f) => [f.task_id, f.variant, f.attempt, f.rating, f.comment, f.source]);

describe('whet import feedback', () => {
  it('a standalone run: the viewer\'s run ids, imported, exported and imported again to the same verdicts', async () => {
    const dir = tempDir('whet-fb-import-');
    cpSync(join(repoRoot, 'test/fixtures/evals-json/canonical'), join(dir, 'skill'), { recursive: true });
    const ev = await whet(['evaluate', '--standalone', '--task-suite', 'skill/evals/evals.json', '--skill-path', 'skill', '--state-root', 'state', '--mock', '--pass-k', '2', '--json'], { cwd: dir });
    expect(ev.code, ev.stderr).toBe(0);
    const runId = JSON.parse(ev.stdout).run_id as string;
    expect((await whet(['report', '--format', 'skill-creator', '-o', 'ws', '--state-root', 'state'], { cwd: dir })).code).toBe(0);
    const ids = viewerRuns(join(dir, 'ws')).runs.map((r) => r.id);
    expect(ids).toEqual(['eval-1-with_skill-run-1', 'eval-1-with_skill-run-2', 'eval-2-with_skill-run-1', 'eval-2-with_skill-run-2']);
    // What skill-creator's viewer saves: every run, empty when fine, a complaint otherwise.
    write(join(dir, 'ws/feedback.json'), JSON.stringify({ reviews: [
      { run_id: ids[1], feedback: 'names the columns but never counts the rows', timestamp: '2026-01-01T00:00:00Z' },
      { run_id: ids[2], feedback: '', timestamp: '2026-01-01T00:00:00Z' },
      { run_id: 'eval-2-with_skill', feedback: 'the histogram is missing' },
      { run_id: 'eval-7-with_skill-run-1', feedback: 'no such eval' },
      { run_id: 'eval-1-old_skill-run-1', feedback: 'no candidate in this run' },
    ], status: 'complete' }));
    const r = await whet(['import', 'feedback', 'ws/feedback.json', '--state-root', 'state'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/3 review\(s\) of .* imported into state\/memory\/feedback\.jsonl \(2 bad, 1 good\)/);
    expect(r.stderr).toMatch(/not imported: eval-7-with_skill-run-1: .*has no eval-7/);
    expect(r.stderr).toMatch(/not imported: eval-1-old_skill-run-1: .*has no old_skill/);
    expect(brief(dir)).toEqual([
      ['eval-1', 'baseline', 1, 'bad', 'names the columns but never counts the rows', 'feedback.json (skill-creator)'],
      ['eval-2', 'baseline', 0, 'good', '', 'feedback.json (skill-creator)'],
      ['eval-2', 'baseline', null, 'bad', 'the histogram is missing', 'feedback.json (skill-creator)'],
    ]);
    expect(memory(dir).every((f) => f.run_id === runId && f.iteration === 0 && f.category !== undefined)).toBe(true);

    // Exported, the same run ids the viewer named; imported into a fresh memory, the same verdicts.
    const exported = exportFeedback(join(dir, 'state'), runId);
    expect(exported.reviews.map((x) => [x.run_id, x.feedback])).toEqual([
      ['eval-1-with_skill-run-2', 'bad: names the columns but never counts the rows'],
      ['eval-2-with_skill-run-1', ''],
      ['eval-2-with_skill', 'bad: the histogram is missing'],
    ]);
    const before = brief(dir).map((b) => b.slice(0, 5));
    write(join(dir, 'round.json'), JSON.stringify(exported));
    write(join(dir, 'state/memory/feedback.jsonl'), '');
    expect((await whet(['import', 'feedback', 'round.json', runId, '--state-root', 'state'], { cwd: dir })).code).toBe(0);
    expect(brief(dir).map((b) => b.slice(0, 5))).toEqual(before);
  }, 120_000);

  it('a candidate run maps new_skill and old_skill; a file that is not feedback.json is refused and nothing is written', async () => {
    const dir = tempDir('whet-fb-cand-');
    cpSync(join(repoRoot, 'test/fixtures/evals-json/canonical'), join(dir, 'skill'), { recursive: true });
    write(join(dir, 'variants/cand-01/SKILL.md'), `${readFileSync(join(dir, 'skill/SKILL.md'), 'utf8')}Draw a histogram of the monthly revenue trend.\n`);
    write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-1', iteration: 1, target: { path: join(dir, 'skill') }, scored_candidates: [{ id: 'cand-01', score: 7 }] }));
    const ev = await whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'cand-01', '--task-suite', 'skill/evals/evals.json', '--state-root', 'state', '--mock'], { cwd: dir });
    expect(ev.code, ev.stderr).toBe(0);
    expect((await whet(['report', '--format', 'skill-creator', '-o', 'ws', '--state-root', 'state'], { cwd: dir })).code).toBe(0);
    const ids = viewerRuns(join(dir, 'ws')).runs.map((r) => r.id);
    expect(ids).toEqual(['eval-1-new_skill-run-1', 'eval-1-old_skill-run-1', 'eval-2-new_skill-run-1', 'eval-2-old_skill-run-1']);
    write(join(dir, 'fb.json'), JSON.stringify({ reviews: [{ run_id: ids[2], feedback: 'good: the histogram helps' }, { run_id: ids[3], feedback: 'no chart at all' }] }));
    const r = await whet(['import', 'feedback', 'fb.json', '--state-root', 'state'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(brief(dir).map((b) => b.slice(0, 5))).toEqual([
      ['eval-2', 'cand-01', 0, 'good', 'the histogram helps'],
      ['eval-2', 'baseline', 0, 'bad', 'no chart at all'],
    ]);
    const state = snapshotTree(join(dir, 'state'));
    write(join(dir, 'bad.json'), JSON.stringify({ runs: [] }));
    const bad = await whet(['import', 'feedback', 'bad.json', '--state-root', 'state'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/bad\.json reviews: .*expected skill-creator's feedback\.json/);
    expect(snapshotTree(join(dir, 'state'))).toEqual(state);
    expect(readJson(join(dir, 'ws/benchmark.json')).whetstone.configurations).toEqual({ new_skill: 'candidate cand-01', old_skill: 'the current SKILL.md (the baseline)' });
  }, 120_000);
});
