// The mock never edits the author's skill unasked (issue 41): a run whose engine is the mock — by --mock or
// by pipeline.yaml — improves a copy in state/mock-copies/ unless --apply (or loop.mock_keeps: apply) asks,
// and says so at its start, in its last lines and in run.json. Copies go with their runs. And (issue 42)
// `whet baseline` / `whet nightly` refuse a bad suite before the state directory exists.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copyExample, fixturesBin, readJson, tempDir, whet, write } from '../support/cli.js';

function project(o: { engine?: string; loop?: string } = {}): string {
  const dir = tempDir('whet-mock-keeps-');
  copyExample('release-notes', join(dir, 'release-notes'));
  write(
    join(dir, 'pipeline.yaml'),
    `state_dir: state\nengine: ${o.engine ?? '{type: mock}'}\ntargets: [{skill: release-notes, suite: release-notes/tasks.yaml}]\nloop: {max_iterations: 1, plateau_window: 1, candidates_per_iteration: 3, proposers: [feedback, structural]${o.loop ?? ''}}\nthresholds: {min_delta: 0, max_new_failures: 0}\n`,
  );
  return dir;
}
const runIdOf = (stdout: string): string => /evidence report: state\/runs\/([^/]+)\/report\.md/.exec(stdout)![1]!;

describe('a run on the mock engine set in pipeline.yaml', () => {
  it('improves a copy without --apply, says why at its start and end, and records it in run.json', async () => {
    const dir = project();
    const skill = join(dir, 'release-notes/SKILL.md');
    const before = readFileSync(skill, 'utf8');
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the mock engine is not a model \(engine: mock in pipeline\.yaml\): this run improves a copy of \S+release-notes, which stays as it is \(--apply lets a mock run edit it\)/);
    expect(r.stdout).toMatch(/^kept 1 \(iteration 1: cand-\S+\), applied to the mock run's copy state\/mock-copies\/[\w-]+\/release-notes\/SKILL\.md/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('the mock engine is not a model (it answers by quoting the skill), so this run improved a copy: release-notes/SKILL.md is unchanged; whet run --mock --apply lets a mock run edit it');
    expect(readFileSync(skill, 'utf8')).toBe(before);
    const id = runIdOf(r.stdout);
    expect(readFileSync(join(dir, 'state/mock-copies', id, 'release-notes/SKILL.md'), 'utf8')).not.toBe(before);
    expect(readJson(join(dir, 'state/runs', id, 'run.json')).mock_keeps).toEqual({ applied_to: 'copy', skill_dir: join(dir, 'release-notes'), because: 'engine: mock in pipeline.yaml' });
  }, 120_000);

  it('edits the skill when --apply or loop.mock_keeps: apply asks, and says which asked', async () => {
    const dir = project();
    const skill = join(dir, 'release-notes/SKILL.md');
    const before = readFileSync(skill, 'utf8');
    const r = await whet(['run', '--apply'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/the mock engine is not a model \(engine: mock in pipeline\.yaml\): --apply lets this run's keeps edit \S+release-notes\/SKILL\.md itself/);
    const id = runIdOf(r.stdout);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(`the mock engine is not a model (engine: mock in pipeline.yaml): release-notes/SKILL.md has its template text because --apply asked for it; whet rollback ${id} undoes it`);
    expect(readFileSync(skill, 'utf8')).not.toBe(before);
    expect(readJson(join(dir, 'state/runs', id, 'run.json')).mock_keeps).toMatchObject({ applied_to: 'skill', asked_by: '--apply' });
    expect(existsSync(join(dir, 'state/mock-copies'))).toBe(false);

    const cfg = project({ loop: ', mock_keeps: apply' });
    const c = await whet(['run'], { cwd: cfg });
    expect(c.code, c.stderr).toBe(0);
    expect(readJson(join(cfg, 'state/runs', runIdOf(c.stdout), 'run.json')).mock_keeps).toMatchObject({ applied_to: 'skill', asked_by: 'loop.mock_keeps: apply in pipeline.yaml' });
    expect(readFileSync(join(cfg, 'release-notes/SKILL.md'), 'utf8')).not.toBe(before);
  }, 120_000);

  it('refuses --apply on a run on a model (its keeps are applied anyway), creating nothing', async () => {
    const dir = project({ engine: `{type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}` });
    const r = await whet(['run', '--apply'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--apply is for a run on the mock engine: this run's engine \(command\) is a model's/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });
});

describe('mock copies go with their runs', () => {
  it('a run removed by hand loses its copy at the next mock run, and whet prune removes the copies of what it removes', async () => {
    const dir = project();
    const first = runIdOf((await whet(['run'], { cwd: dir })).stdout);
    const second = runIdOf((await whet(['run'], { cwd: dir })).stdout);
    expect(readdirSync(join(dir, 'state/mock-copies')).sort()).toEqual([first, second].sort());
    rmSync(join(dir, 'state/runs', first), { recursive: true });
    const third = runIdOf((await whet(['run'], { cwd: dir })).stdout);
    expect(readdirSync(join(dir, 'state/mock-copies')).sort()).toEqual([second, third].sort());
    // By hand again; prune names the copy of the run already gone and keeps the ones whose run is kept.
    rmSync(join(dir, 'state/runs', second), { recursive: true });
    const p = await whet(['prune', '--older-than', '365d', '--json'], { cwd: dir });
    expect(p.code, p.stderr).toBe(0);
    expect((JSON.parse(p.stdout) as { removed_mock_copies: string[] }).removed_mock_copies).toEqual([second]);
    expect(readdirSync(join(dir, 'state/mock-copies'))).toEqual([third]);
  }, 180_000);
});

describe('whet baseline and whet nightly refuse a bad suite before the state directory exists (issue 42)', () => {
  for (const command of ['baseline', 'nightly']) {
    it(`whet ${command}: exit 2 at the suite's line, and no state/`, async () => {
      const dir = project();
      write(join(dir, 'release-notes/tasks.yaml'), 'skill_id: release-notes\nversion: "1.0"\ntasks:\n  - {id: a, prompt: 3, judge: {type: nope}}\n');
      const r = await whet([command, '--mock'], { cwd: dir });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/tasks\.yaml:\d+:\d+/);
      expect(existsSync(join(dir, 'state'))).toBe(false);
    });
  }
});
