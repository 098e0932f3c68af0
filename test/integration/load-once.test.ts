// A loop run opens pipeline.yaml, the suite and the engines once, and every stage of the process reuses them
// (LoopContext.opened). Shown from the outside: the generator (an external stage program) breaks both files
// on disk; a run that read them again in a later stage — the evaluation, the minibatch, the learner — would
// stop with a config error, this one finishes the iteration on what it opened.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample, findFiles, readJson, repoRoot, tempDir, whet, write } from '../support/cli.js';

const generator = join(repoRoot, 'test/fixtures/stages/bad-generator.mjs');

describe('a loop run opens its inputs once', () => {
  it('finishes an iteration after its config and suite files were broken mid-run', async () => {
    const dir = tempDir('whet-load-once-');
    copyExample('release-notes', join(dir, 'release-notes'));
    write(
      join(dir, 'pipeline.yaml'),
      `state_dir: state
engine: {type: mock}
targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]
loop: {max_iterations: 1, minibatch: 2}
thresholds: {min_delta: 0, max_new_failures: 0}
evaluate: {eval_threshold: 0}
stages:
  generate: {command: [node, ${JSON.stringify(generator)}, break-config]}
`,
    );
    const r = await whet(['run'], { cwd: dir });
    // Broken indeed: anything that parses them now fails.
    expect(readFileSync(join(dir, 'pipeline.yaml'), 'utf8')).toBe('engine: [unclosed\n');
    expect((await whet(['status'], { cwd: dir })).code).toBe(2);
    expect(r.stderr).not.toMatch(/pipeline\.yaml:\d+:\d+|tasks\.yaml:\d+:\d+/);
    expect(r.code, r.stderr).toBe(0);
    const runDir = findFiles(join(dir, 'state/runs'), 'run.json').map((f) => join(f, '..'))[0]!;
    const ranking = readJson(join(runDir, 'iter-001/ranking.json'));
    expect(ranking.selected).toBe('version-first');
    // The candidate was pre-checked on train tasks and measured, gated and learned from, all after the break.
    expect(findFiles(join(runDir, 'iter-001/minibatch'), 'version-first.jsonl')).toHaveLength(1);
    expect(readJson(join(runDir, 'iter-001/evaluation.json')).candidate_id).toBe('version-first');
    expect(readJson(join(runDir, 'iter-001/gate.json')).decision).toMatch(/^(keep|reject|pending_review)$/);
    expect(readJson(join(runDir, 'iter-001/learning.json')).verdict).toBe('stop');
  }, 120_000);
});
