// The improvement loop end to end on the mock engine: decisions explained from artifacts, refusals when
// thresholds or the target change mid-run, byte-exact rollback, and kill -9 at several points.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { copyExample, findFiles, readJson, repoRoot, snapshotTree, tempDir, whet, write } from '../support/cli.js';

const cli = join(repoRoot, 'dist/src/cli.js');
const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

function project(extra = '', loop = 'max_iterations: 4'): string {
  const dir = tempDir();
  copyExample('release-notes', join(dir, 'release-notes'));
  write(
    join(dir, 'pipeline.yaml'),
    `state_dir: state
engine: {type: mock${extra}}
targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]
loop: {${loop}, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural], mock_keeps: apply}
thresholds: {min_delta: 0, max_new_failures: 0}
evaluate: {concurrency: 2}
`,
  );
  return dir;
}

function findAll(dir: string, pred: (p: string) => boolean): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...findAll(p, pred));
    else if (pred(p)) out.push(p);
  }
  return out;
}

const runIdOf = (dir: string) => readdirSync(join(dir, 'state/runs')).sort().pop()!;
const decisions = (dir: string, runId: string) =>
  findFiles(join(dir, 'state/runs', runId), 'gate.json')
    .filter((f) => !f.includes('superseded'))
    .map((f) => readJson(f))
    .map((g) => `${g.iteration}:${g.candidate_id}:${g.decision}`);

describe('the improvement loop (mock engine)', () => {
  it('keeps a candidate with a held-out gain, rejects one with its reason, and explains both from the artifacts', async () => {
    const dir = project();
    const original = sha(join(dir, 'release-notes/SKILL.md'));
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/gate: KEEP/);
    expect(r.stdout).toMatch(/gate: REJECT/);
    const runId = runIdOf(dir);
    const ds = decisions(dir, runId);
    expect(ds.some((d) => d.endsWith(':keep'))).toBe(true);
    expect(ds.some((d) => d.endsWith(':reject'))).toBe(true);
    const kept = findFiles(join(dir, 'state/runs', runId), 'gate.json').map((f) => readJson(f)).find((g) => g.decision === 'keep')!;
    expect(kept.holdout.delta).toBeGreaterThan(0);
    expect(sha(join(dir, 'release-notes/SKILL.md'))).not.toBe(original);
    const show = await whet(['show', runId], { cwd: dir });
    expect(show.stdout).toMatch(/\[ok\] holdout_gain: held-out delta \+/);
    expect(show.stdout).toMatch(/\[NO\] holdout_gain|\[NO\] new_failures/);
    const status = await whet(['status'], { cwd: dir });
    expect(status.stdout).toContain(runId);
    const diff = await whet(['diff', runId, kept.candidate_id], { cwd: dir });
    expect(diff.stdout).toMatch(/^--- a\/SKILL\.md/m);
    // Rollback restores the original bytes.
    const rb = await whet(['rollback', runId], { cwd: dir });
    expect(rb.code, rb.stderr).toBe(0);
    expect(sha(join(dir, 'release-notes/SKILL.md'))).toBe(original);
    // Pruning never removes a run that promoted a candidate, nor its backups.
    const pr = await whet(['prune', '--older-than', '1d', '--json'], { cwd: dir, now: () => new Date(Date.now() + 90 * 86_400_000) });
    expect(JSON.parse(pr.stdout).kept_promoted).toContain(runId);
    expect(existsSync(join(dir, 'state/backups', runId))).toBe(true);
  });

  it('refuses a changed threshold before anything is moved or written, the gate included, showing the difference', async () => {
    const dir = project('', 'max_iterations: 2');
    expect((await whet(['run'], { cwd: dir })).code).toBe(0);
    const runId = runIdOf(dir);
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace('min_delta: 0,', 'min_delta: 0.5,'));
    const before = snapshotTree(join(dir, 'state'));
    for (const argv of [['gate', '--run', runId], ['generate', '--run', runId], ['run', '--from', 'gate', '--run', runId], ['resume', runId]]) {
      const r = await whet(argv, { cwd: dir });
      if (argv[0] === 'resume') {
        // A finished run that is only looked at runs no stage: nothing to refuse.
        expect(r.code, r.stderr).toBe(0);
        continue;
      }
      expect(r.code, argv.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/refuses to continue: its thresholds changed since it started \(min_delta: 0 \(set before results\) → 0\.5 \(pipeline\.yaml now\)/);
      expect(snapshotTree(join(dir, 'state'))).toEqual(before);
    }
  });

  it('refuses to redo the gate when the target was edited by hand after evaluation, moving nothing', async () => {
    const dir = project('', 'max_iterations: 2');
    expect((await whet(['run'], { cwd: dir })).code).toBe(0);
    const runId = runIdOf(dir);
    write(join(dir, 'release-notes/SKILL.md'), `${readFileSync(join(dir, 'release-notes/SKILL.md'), 'utf8')}\nA hand edit.\n`);
    const before = snapshotTree(join(dir, 'state'));
    const g = await whet(['gate', '--run', runId], { cwd: dir });
    expect(g.code, g.stderr).toBe(2);
    expect(g.stderr).toMatch(/the gate would refuse: the target was edited after it was evaluated .*; nothing was moved/);
    expect(snapshotTree(join(dir, 'state'))).toEqual(before);
  });
});

describe('stage programs', () => {
  it('each stage runs as a program of its own on saved state', async () => {
    const dir = project('', 'max_iterations: 1');
    expect((await whet(['run'], { cwd: dir })).code).toBe(0);
    const runId = runIdOf(dir);
    const stage = (name: string) => spawnSync(process.execPath, [join(repoRoot, `dist/stages/${name}/main.js`), '--run', runId], { cwd: dir, encoding: 'utf8' });
    const learn = stage('learn');
    expect(learn.status, learn.stderr).toBe(0);
    expect(learn.stderr).toMatch(/\[iter 1\] learn: keep .*stop \(max_iterations\)/);
    const gate = stage('gate');
    expect(gate.status, gate.stderr).toBe(0);
    expect(gate.stdout).toMatch(/gate: KEEP/);
    const generate = stage('generate');
    expect(generate.status).toBe(2);
    expect(generate.stderr).toMatch(/already promoted its candidate; roll it back first/);
  });
});

describe('Ctrl-C during whet run', () => {
  it('stops at a task boundary, marks the run interrupted, and resumes', async () => {
    const dir = project(', latency_ms: 150');
    const child = spawn(process.execPath, [cli, 'run'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    for (let i = 0; i < 400 && !existsSync(join(dir, 'state/runs')); i++) await sleep(10);
    await sleep(200);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(err).toMatch(/stopping after the tasks in flight/);
    const runId = runIdOf(dir);
    expect(readJson(join(dir, 'state/runs', runId, 'run.json')).status).toBe('interrupted');
    expect(existsSync(join(dir, 'state/lock'))).toBe(false);
    const fin = spawnSync(process.execPath, [cli, 'resume'], { cwd: dir, encoding: 'utf8' });
    expect(fin.status, fin.stderr).toBe(0);
    expect(fin.stdout).toMatch(/gate: KEEP/);
  });
});

describe('kill -9 during whet run', () => {
  it('resumes to the same decisions as an uninterrupted run, never repeating a finished task run', async () => {
    const reference = project(', latency_ms: 40');
    const ref = spawnSync(process.execPath, [cli, 'run'], { cwd: reference, encoding: 'utf8' });
    expect(ref.status, ref.stderr).toBe(0);
    const refDecisions = decisions(reference, runIdOf(reference));

    const dir = project(', latency_ms: 40');
    // Kill at successive points of the run: each time the run's event log has grown past the next mark
    // (a stage has just started or finished), so kills land in different stages and mid-evaluation.
    const eventsCount = () => {
      if (!existsSync(join(dir, 'state/runs'))) return 0;
      // runs/ can exist a moment before the run's own folder does.
      const id = readdirSync(join(dir, 'state/runs')).sort().pop();
      if (!id) return 0;
      const f = join(dir, 'state/runs', id, 'events.jsonl');
      return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
    };
    let kills = 0;
    for (const mark of [3, 7, 11, 15, 19, 23]) {
      const args = existsSync(join(dir, 'state/runs')) ? ['resume'] : ['run'];
      const child = spawn(process.execPath, [cli, ...args], { cwd: dir, stdio: 'ignore' });
      let done = false;
      const exited = new Promise((r) => child.on('exit', () => r((done = true))));
      while (!done && eventsCount() < mark) await sleep(5);
      if (!done) {
        child.kill('SIGKILL');
        kills++;
      }
      await exited;
    }
    expect(kills).toBeGreaterThanOrEqual(3);
    const fin = spawnSync(process.execPath, [cli, 'resume'], { cwd: dir, encoding: 'utf8' });
    expect(fin.status, fin.stderr).toBe(0);
    const runId = runIdOf(dir);
    expect(decisions(dir, runId)).toEqual(refDecisions);
    // No (task, attempt) was judged twice in any results file of the run.
    const resultFiles = findAll(join(dir, 'state/runs', runId), (p) => p.includes('/results/') && p.endsWith('.jsonl') && !p.includes('superseded'));
    expect(resultFiles.length).toBeGreaterThan(0);
    for (const f of resultFiles) {
      const keys = readFileSync(f, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((l) => l.status !== 'error').map((l) => `${l.task_id}#${l.attempt}`);
      expect(new Set(keys).size, f).toBe(keys.length);
    }
    for (const f of findFiles(join(dir, 'state/runs', runId), 'run.json')) expect(readJson(f).status).toBe('completed');
    expect(existsSync(join(dir, 'state/lock'))).toBe(false);
  });
});
