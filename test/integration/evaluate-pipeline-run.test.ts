import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesBin, readJson, snapshotTree, tempDir, whet, write } from '../support/cli.js';

// Pipeline mode with a ranking that lives outside the state dir, as a hand-written or seed-style
// ranking does: its paths, its run's bookkeeping, its errors and a second evaluation of its iteration.
const SUITE = `skill_id: rn
version: "1.0"
tasks:
  - {id: t1, prompt: "notes", judge: {type: contains, expected: ["Release notes"]}}
  - {id: t2, prompt: "breaking", judge: {type: contains, expected: ["migration step"]}}
`;
const TARGET = '# Release notes\nGroup the commits.\n';
const CANDIDATE = `${TARGET}\nEach breaking change gets its migration step.\n`;

function project(): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), TARGET);
  write(join(dir, 'tasks.yaml'), SUITE);
  // Both variants on every task, so the rates below are the whole suite's (by default a noisy engine's train tasks wait for a keep).
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {measure_train: always}\n`);
  // The ranking sits in its own folder; its paths are relative to that folder, not to the cwd.
  write(join(dir, 'in/variants/c1/SKILL.md'), CANDIDATE);
  write(join(dir, 'in/ranking.json'), JSON.stringify({ run_id: 'r1', iteration: 1, target: { path: '../skill' }, scored_candidates: [{ id: 'c1', score: 8, variant_path: 'variants/c1' }] }, null, 2));
  return dir;
}

const evaluate = (dir: string, input = 'in/ranking.json') =>
  whet(['evaluate', '--input', input, '--candidate-id', 'c1', '--task-suite', 'tasks.yaml', '--state-root', 'state', '--json'], { cwd: dir });

describe('evaluate (pipeline mode, a ranking from outside the state dir)', () => {
  it('resolves target.path against the ranking’s folder and writes a run manifest that status sees', async () => {
    const dir = project();
    const r = await evaluate(dir);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).evaluation).toMatchObject({ execution_pass_rate: 1, baseline_pass_rate: 0.5 });
    const m = readJson(join(dir, 'state/runs/r1/run.json'));
    expect(m).toMatchObject({ run_id: 'r1', mode: 'pipeline', status: 'completed', target: { skill_path: join(dir, 'skill/SKILL.md') } });
    const s = await whet(['status', '--state-root', 'state'], { cwd: dir });
    expect(s.stdout).not.toMatch(/no runs yet/);
    expect(s.stdout).toMatch(/r1/);
    // A pipeline-mode run verifies clean: nothing in it is taken for damage (issue 31).
    expect(s.code, s.stdout).toBe(0);
    const v = await whet(['verify', '--state-root', 'state'], { cwd: dir });
    expect(v.code, v.stdout).toBe(0);
  });

  it('keeps the previous evaluation.json in superseded/ when the iteration is evaluated again', async () => {
    const dir = project();
    expect((await evaluate(dir)).code).toBe(0);
    const iter = join(dir, 'state/runs/r1/iter-001');
    const first = readFileSync(join(iter, 'evaluation.json'), 'utf8');
    const again = await evaluate(dir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/previous evaluation\.json moved to .*superseded/);
    const kept = readdirSync(join(iter, 'superseded')).filter((f) => f.endsWith('evaluation.json'));
    expect(kept).toHaveLength(1);
    expect(readFileSync(join(iter, 'superseded', kept[0]!), 'utf8')).toBe(first);
  });

  it('points at line and column of a ranking that is not valid JSON or does not match its schema', async () => {
    const dir = project();
    write(join(dir, 'syntax.json'), '{\n  "run_id": "r1",\n  "target": {"path": "skill"}\n  "scored_candidates": []\n}\n');
    const a = await evaluate(dir, 'syntax.json');
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/syntax\.json:4:3: invalid JSON/);
    write(join(dir, 'schema.json'), '{\n  "run_id": "r1",\n  "target": {"path": "skill"},\n  "scored_candidates": [\n    {"id": "c1", "score": "high"}\n  ]\n}\n');
    const b = await evaluate(dir, 'schema.json');
    expect(b.code).toBe(2);
    expect(b.stderr).toMatch(/schema\.json:5:27 scored_candidates\[0\]\.score: .*expected number/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
    expect(snapshotTree(join(dir, 'state'))).toEqual({});
  });
});
