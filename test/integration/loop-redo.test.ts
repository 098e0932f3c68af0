// `whet run --from STAGE`, single-stage commands and `whet resume` on saved runs: every refusal comes
// before anything is moved or written, settings that decide verdicts are registered like thresholds,
// a stepped stage leaves the run's status true, and a damaged newest artifact does not strand a run.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, findFiles, readJson, snapshotTree, tempDir, whet, write } from '../support/cli.js';

/** The example project; `noSplits` drops the suite's explicit splits so holdout_ratio assigns them. */
function project(o: { maxIterations?: number; noSplits?: boolean } = {}): string {
  const dir = tempDir();
  copyExample('release-notes', join(dir, 'release-notes'));
  if (o.noSplits) {
    const suite = join(dir, 'release-notes/tasks.yaml');
    writeFileSync(suite, readFileSync(suite, 'utf8').replace(/^\s*split: (train|holdout)\s*$\n/gm, ''));
  }
  write(
    join(dir, 'pipeline.yaml'),
    `state_dir: state
engine: {type: mock}
targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]
loop: {max_iterations: ${o.maxIterations ?? 4}, plateau_window: 2, holdout_ratio: 0.3, candidates_per_iteration: 3, proposers: [feedback, structural], mock_keeps: apply}
thresholds: {min_delta: 0, max_new_failures: 0}
evaluate: {concurrency: 2, eval_threshold: 6}
`,
  );
  return dir;
}

async function finishedRun(o: Parameters<typeof project>[0] = {}): Promise<{ dir: string; runId: string; runDir: string }> {
  const dir = project(o);
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
  return { dir, runId, runDir: join(dir, 'state/runs', runId) };
}

const edit = (dir: string, from: string, to: string) => {
  const f = join(dir, 'pipeline.yaml');
  const text = readFileSync(f, 'utf8');
  expect(text).toContain(from);
  writeFileSync(f, text.replace(from, to));
};
const status = (runDir: string) => readJson(join(runDir, 'run.json')).status;
const gates = (runDir: string) =>
  findFiles(runDir, 'gate.json')
    .filter((f) => !f.includes('superseded'))
    .map((f) => readJson(f))
    .map((g) => `${g.iteration}:${g.candidate_id}:${g.decision}`);

describe('decision settings registered at run start', () => {
  it('records every task’s split and refuses a lowered eval_threshold on --from discriminate, state untouched', async () => {
    const { dir, runId, runDir } = await finishedRun({ noSplits: true });
    const m = readJson(join(runDir, 'run.json'));
    expect(m.settings).toMatchObject({ eval_threshold: 6, holdout_ratio: 0.3, max_iterations: 4, plateau_window: 2 });
    expect(Object.keys(m.settings.splits)).toHaveLength(10);
    edit(dir, 'eval_threshold: 6', 'eval_threshold: 1');
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['run', '--from', 'discriminate', '--run', runId], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refuses to continue: its decision settings changed since it started \(evaluate\.eval_threshold: 6 \(set before results\) → 1 \(pipeline\.yaml now\)/);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  });

  it('refuses a changed holdout_ratio on --from evaluate, naming the tasks it would move', async () => {
    const { dir, runId } = await finishedRun({ maxIterations: 2, noSplits: true });
    edit(dir, 'holdout_ratio: 0.3', 'holdout_ratio: 0.9');
    const before = snapshotTree(join(dir, 'state'));
    const r = await whet(['run', '--from', 'evaluate', '--run', runId], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/loop\.holdout_ratio: 0\.3 \(set before results\) → 0\.9/);
    expect(r.stderr).toMatch(/split of task [\w-]+: train \(set before results\) → holdout \(suite now\)/);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  });

  it('refuses changed stop rules on resume of an unfinished run', async () => {
    const { dir, runId, runDir } = await finishedRun({ maxIterations: 2 });
    const learning = join(runDir, 'iter-002/learning.json');
    writeFileSync(learning, readFileSync(learning, 'utf8').replace('"next_step": "done"', '"next_step": "generate"'));
    // Recorded as if whetstone had written it: an edit it did not record is refused before anything else (issue 31).
    const sha256 = `sha256:${createHash('sha256').update(readFileSync(learning)).digest('hex')}`;
    appendFileSync(join(runDir, 'events.jsonl'), `${JSON.stringify({ at: new Date().toISOString(), event: 'artifact_written', path: 'iter-002/learning.json', sha256 })}\n`);
    edit(dir, 'max_iterations: 2', 'max_iterations: 9');
    const r = await whet(['resume', runId], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/loop\.max_iterations: 2 \(set before results\) → 9/);
    expect(existsSync(join(runDir, 'iter-003'))).toBe(false);
  });
});

describe('whet run --from STAGE', () => {
  it('redoes the gate of the newest iteration and ends the run as it was', async () => {
    const { dir, runId, runDir } = await finishedRun({ maxIterations: 2 });
    const decided = gates(runDir);
    const r = await whet(['run', '--from', 'gate', '--run', runId], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/moved gate\.json, learning\.json of iteration 2 to superseded\//);
    expect(r.stderr).toMatch(/\[iter 2\] gate cand-/);
    expect(gates(runDir)).toEqual(decided);
    expect(readdirSync(join(runDir, 'iter-002/superseded'))).toHaveLength(1);
    expect(status(runDir)).toBe('completed');
  });

  it('refuses clearly when the newest iteration never reached the stage, moving nothing', async () => {
    const { dir, runId, runDir } = await finishedRun();
    // The demo's last iteration evaluates nothing: no candidate scores above the eval threshold.
    expect(existsSync(join(runDir, 'iter-003/gate.json'))).toBe(false);
    const before = snapshotTree(join(dir, 'state'));
    for (const argv of [['run', '--from', 'gate', '--run', runId], ['gate', '--run', runId]]) {
      const r = await whet(argv, { cwd: dir });
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/iteration 3 never reached gate and cannot redo it \(its artifacts before gate lead to learn\); nothing was moved/);
      expect(r.stderr).not.toMatch(/moved .* to superseded/);
      expect(snapshotTree(join(dir, 'state'))).toEqual(before);
    }
    expect(status(runDir)).toBe('completed');
  });
});

describe('a redo the stage itself would refuse', () => {
  it('refuses --from gate|discriminate|generate and whet gate over a hand-edited target, the state dir byte-identical', async () => {
    const { dir, runId, runDir } = await finishedRun({ maxIterations: 2 });
    expect(existsSync(join(runDir, 'iter-002/gate.json'))).toBe(true);
    const skill = join(dir, 'release-notes/SKILL.md');
    writeFileSync(skill, `${readFileSync(skill, 'utf8')}\nA line a person added after the run.\n`);
    const before = snapshotTree(join(dir, 'state'));
    const cases: Array<[string[], RegExp]> = [
      [['run', '--from', 'gate', '--run', runId], /cannot redo gate of iteration 2: the gate would refuse: the target was edited after it was evaluated/],
      [['gate', '--run', runId], /cannot redo gate of iteration 2: the gate would refuse/],
      [['run', '--from', 'discriminate', '--run', runId], /cannot redo discriminate of iteration 2: the target changed after candidates\.json was generated/],
      [['run', '--from', 'generate', '--run', runId], /cannot redo generate of iteration 2: the target changed after this iteration's baseline measured it/],
    ];
    for (const [argv, why] of cases) {
      const r = await whet(argv, { cwd: dir });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(why);
      expect(r.stderr).toMatch(/nothing was moved/);
      expect(snapshotTree(join(dir, 'state')), argv.join(' ')).toEqual(before);
    }
    expect(status(runDir)).toBe('completed');
  });
});

describe('the run status after a single stage', () => {
  it('a stage re-run on a finished run leaves it completed, in run.json and in whet status', async () => {
    const { dir, runId, runDir } = await finishedRun({ maxIterations: 2 });
    const r = await whet(['learn', '--run', runId], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(status(runDir)).toBe('completed');
    const s = await whet(['status'], { cwd: dir });
    expect(s.stdout).toMatch(new RegExp(`${runId}\\s+loop\\s+completed`));
  });
});

describe('whet resume with a damaged newest artifact', () => {
  it('refuses it, naming the file (exit 2, nothing moved); whet verify --repair moves it to superseded/ and resume goes on', async () => {
    const { dir, runId, runDir } = await finishedRun({ maxIterations: 2 });
    const learning = join(runDir, 'iter-002/learning.json');
    writeFileSync(learning, readFileSync(learning, 'utf8').slice(0, 40));
    // Written whole and recorded (issue 33), an artifact cut short is damage, never a crash's trace (issue 42).
    const before = snapshotTree(join(dir, 'state'));
    const refused = await whet(['resume', runId], { cwd: dir });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/DAMAGED \S*iter-002\/learning\.json:\d+:\d+: unparsable: /);
    expect(refused.stderr).toContain(`whet verify --repair ${runId}`);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
    expect((await whet(['verify', '--repair', runId], { cwd: dir })).code).toBe(0);
    const r = await whet(['resume', runId], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\[iter 2\] learn: /);
    expect(readJson(learning).stage).toBe('learned');
    const [moved] = readdirSync(join(runDir, 'iter-002/superseded'));
    expect(readFileSync(join(runDir, 'iter-002/superseded', moved!, 'learning.json'), 'utf8')).toHaveLength(40);
    expect(status(runDir)).toBe('completed');
  });
});
