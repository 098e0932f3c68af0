// Issue 39, item 5: a run killed with kill -9 (a cancelled CI job, a reboot) never writes `interrupted`;
// `whet status`, `whet show` and the viewer's read model say it anyway, from the check the state lock
// makes before a takeover (is its holder alive, and is it this run), with the hint to resume. A real
// `whet run` against the slow-agent executable, killed while it holds the lock; then resumed, it is
// `running` again while its new process lives.
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runDetail } from '../../src/view/run-model.js';
import { RunIndex } from '../../src/view/run-index.js';
import { whet, write } from '../support/cli.js';
import { hasRun, killAll, lockHolder, slowProject, startWhet, waitFor, type Started } from '../support/slow-run.js';

const started: Started[] = [];
const track = (s: Started) => (started.push(s), s);

describe('a run whose process is gone is interrupted, not running', () => {
  it('after kill -9 of a running loop, status, show and the viewer say interrupted with the resume hint', { timeout: 180_000 }, async () => {
    const p = slowProject({ seconds: 3, concurrency: 1, maxIterations: 1 });
    const state = join(p.dir, 'state');
    try {
      const run = track(startWhet(p, ['run']));
      await waitFor('the run to hold the lock and record itself', () => (lockHolder(p) === run.pid && hasRun(p)) || run.done(), 60_000);
      expect(run.done(), run.stderr()).toBe(false);
      const id = readdirSync(join(state, 'runs'))[0]!;
      const live = await whet(['status'], { cwd: p.dir });
      expect(live.stdout).toMatch(new RegExp(`^${id}  loop  running  `, 'm'));
      expect(live.stdout).not.toMatch(/interrupted/);

      run.child.kill('SIGKILL');
      await run.exited;
      expect(lockHolder(p), 'kill -9 leaves the lock of a dead holder').toBe(run.pid);
      const status = await whet(['status'], { cwd: p.dir });
      expect(status.stdout).toMatch(new RegExp(`^${id}  loop  interrupted  `, 'm'));
      expect(status.stdout).toContain(`interrupted: run.json says running, but pid ${run.pid} on ${hostname()}`);
      expect(status.stdout).toContain(`is gone; continue with "whet resume ${id}"`);
      const show = await whet(['show', id], { cwd: p.dir });
      expect(show.stdout).toMatch(/— status interrupted/);
      expect(show.stdout).toContain(`continue with "whet resume ${id}"`);
      const json = JSON.parse((await whet(['show', id, '--json'], { cwd: p.dir })).stdout) as { manifest: { status: string; resume_hint: string } };
      expect(json.manifest.status).toBe('interrupted');
      const rows = await new RunIndex(state).all(new Date());
      expect(rows.map((r) => [r.status, r.progress])).toEqual([['interrupted', null]]);
      const detail = await runDetail(state, id, new Date());
      expect((detail!.manifest as { data: { status: string; resume_hint: string } }).data).toMatchObject({ status: 'interrupted', resume_hint: `continue with "whet resume ${id}"` });

      // Resumed, the run has a live process again: running, until that one stops.
      const resumed = track(startWhet(p, ['resume']));
      await waitFor('the resume to take the lock', () => lockHolder(p) === resumed.pid || resumed.done(), 60_000);
      expect(resumed.done(), resumed.stderr()).toBe(false);
      expect((await whet(['status'], { cwd: p.dir })).stdout).toMatch(new RegExp(`^${id}  loop  running  `, 'm'));
      resumed.child.kill('SIGINT');
      expect((await resumed.exited).code).toBe(130);
    } finally {
      killAll(started);
    }
  });

  it('a live lock held by another run does not keep a dead run running; one naming this run or none does', async () => {
    const p = slowProject({ seconds: 0, concurrency: 1, maxIterations: 1 });
    const state = join(p.dir, 'state');
    const id = '2026-12-01T00-00-00Z-dead';
    const now = new Date().toISOString();
    write(join(state, 'runs', id, 'run.json'), JSON.stringify({ schema: 'whetstone.run/1', run_id: id, mode: 'standalone', status: 'running', created_at: now, updated_at: now }));
    write(join(state, 'runs', id, 'events.jsonl'), `${JSON.stringify({ ts: now, event: 'run_started' })}\n`);
    const owner = (command: string) => write(join(state, 'lock', 'owner.json'), JSON.stringify({ pid: process.pid, host: hostname(), command, since: now }));
    const statusOf = async () => (await whet(['status'], { cwd: p.dir })).stdout;
    owner('whet run (2026-12-02T00-00-00Z-other)');
    expect(await statusOf()).toMatch(/standalone  interrupted .*\n[\s\S]*the state lock is held by another run[\s\S]*run the same command again to resume/);
    owner(`whet run (${id})`);
    expect(await statusOf()).toMatch(/standalone  running /);
    owner('whet evaluate --standalone');
    expect(await statusOf()).toMatch(/standalone  running /);
  });
});
