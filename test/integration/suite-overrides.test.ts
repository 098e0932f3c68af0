// pipeline.yaml's `suites:` gives a suite written in another tool's format (here skill-creator's
// evals.json) categories, negative controls and splits without touching the author's file: they reach a
// standalone evaluation's categories and the loop's frozen split registration in run.json, and an id that
// names no eval is refused at its pipeline.yaml line with exit 2 and nothing written.
import { describe, expect, it } from 'vitest';
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPipeline } from '../../src/config/pipeline.js';
import { loadSuiteWith } from '../../src/config/suite-overrides.js';
import { repoRoot, readJson, findFiles, tempDir, whet, write } from '../support/cli.js';

const evalsFile = 'csv/evals/evals.json';

function project(suites: string, extra = ''): { dir: string; original: string } {
  const dir = tempDir();
  cpSync(join(repoRoot, 'test/fixtures/evals-json/canonical'), join(dir, 'csv'), { recursive: true });
  write(join(dir, 'pipeline.yaml'), `engine: {type: mock}\ntargets:\n  - skill: csv\n${extra}suites:\n${suites}`);
  return { dir, original: readFileSync(join(dir, evalsFile), 'utf8') };
}

const overrides = `  ${evalsFile}:\n    categories: {"1": counting, eval-2: Data Quality}\n    negative_controls: [2]\n    held_out: [eval-2]\n`;

describe('suite overrides from pipeline.yaml', () => {
  it('sets categories, negative controls and splits by the author\'s id or whetstone\'s, leaving the file as it was', async () => {
    const { dir, original } = project(overrides);
    const cfg = await loadPipeline(undefined, dir);
    const suite = loadSuiteWith(cfg, join(dir, evalsFile));
    expect(suite.tasks.map((t) => [t.id, t.category, t.negative, t.split])).toEqual([
      ['eval-1', 'counting', false, undefined],
      ['eval-2', 'data-quality', true, 'holdout'],
    ]);
    // The overrides are part of what the suite is: a baseline cached without them is not reused.
    expect(suite.contentHash).not.toBe(loadSuiteWith({}, join(dir, evalsFile)).contentHash);
    const r = await whet(['evaluate', '--standalone', '--task-suite', evalsFile, '--skill-path', 'csv', '--state-root', 'state', '--json', '--force'], { cwd: dir });
    expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
    expect(Object.keys(JSON.parse(r.stdout).evaluation.per_category).sort()).toEqual(['counting', 'data-quality']);
    expect(readFileSync(join(dir, evalsFile), 'utf8')).toBe(original);
  });

  it('registers the held-out assignment in the loop run\'s frozen splits', async () => {
    const { dir } = project(overrides, 'loop: {max_iterations: 1, candidates_per_iteration: 1, holdout_ratio: 0}\n');
    const r = await whet(['run'], { cwd: dir });
    expect(r.code === 0 || r.code === 1, r.stderr).toBe(true);
    const runs = findFiles(join(dir, 'state/runs'), 'run.json');
    expect(readJson(runs[0]!).settings.splits).toEqual({ 'eval-1': 'train', 'eval-2': 'holdout' });
    // Moving the eval to train afterwards is a changed decision setting: the run refuses to go on.
    const runId = readJson(runs[0]!).run_id as string;
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace('held_out: [eval-2]', 'train: [eval-2]'));
    const changed = await whet(['discriminate', '--run', runId], { cwd: dir });
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/split of task eval-2: holdout \(set before results\) → train/);
  });

  it('refuses an id that names no eval at its pipeline.yaml line, before the state dir is touched', async () => {
    const { dir } = project(`  ${evalsFile}:\n    negative_controls: [2]\n    held_out: [7]\n`);
    const r = await whet(['evaluate', '--standalone', '--task-suite', evalsFile, '--skill-path', 'csv', '--state-root', 'state', '--force'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pipeline\.yaml:7:16 suites\.csv\/evals\/evals\.json\.held_out\[0\]: no task 7 in .*evals\.json \(its tasks: eval-1 \(1\), eval-2 \(2\)\)/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
    // A number key names the author's numeric id; its entry is found on the categories line.
    const cat = project(`  ${evalsFile}:\n    categories: {1: counting, 9: other}\n`);
    const r3 = await whet(['run'], { cwd: cat.dir });
    expect(r3.code).toBe(2);
    expect(r3.stderr).toMatch(/pipeline\.yaml:6:\d+ suites\.csv\/evals\/evals\.json\.categories\.9: no task "9"/);
    const missing = project(`  csv/evals/eval.json:\n    held_out: [1]\n`);
    const r4 = await whet(['run'], { cwd: missing.dir });
    expect(r4.code).toBe(2);
    expect(r4.stderr).toMatch(/pipeline\.yaml:6:5 suites\.csv\/evals\/eval\.json: no suite file csv\/evals\/eval\.json/);
    const both = project(`  ${evalsFile}:\n    held_out: [1]\n    train: [eval-1]\n`);
    const r2 = await whet(['run'], { cwd: both.dir });
    expect(r2.code).toBe(2);
    expect(r2.stderr).toMatch(/pipeline\.yaml:\d+:\d+ .*train\[0\]: task eval-1 is listed in both held_out and train/);
    expect(existsSync(join(both.dir, 'state'))).toBe(false);
  });
});
