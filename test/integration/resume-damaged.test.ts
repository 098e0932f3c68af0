// Issue 42, item 1: `whet resume` verifies first. Iteration 1's evaluation.json cut in half, of a completed
// run and of an interrupted one: resume exits 2 naming the file and `whet verify --repair`, spends no call
// of the engine (a real executable on PATH that logs each call) and leaves report.md, and every other file
// of the state directory, byte-for-byte as it was. Before, the completed run was reported from the damage
// ("iteration 1 evaluated no candidate") and the interrupted one was finished and marked completed.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJson, snapshotTree } from '../support/cli.js';
import { countCalls, killAll, slowProject, startWhet, waitFor, type SlowProject, type Started } from '../support/slow-run.js';

const started: Started[] = [];
const track = (s: Started) => (started.push(s), s);
afterAll(() => killAll(started));

const runOf = (p: SlowProject) => {
  const runId = readdirSync(join(p.dir, 'state/runs')).sort().pop()!;
  return { runId, runDir: join(p.dir, 'state/runs', runId) };
};
const cutInHalf = (f: string) => writeFileSync(f, readFileSync(f).subarray(0, Math.floor(readFileSync(f).length / 2)));

async function refusedResume(p: SlowProject, runId: string, runDir: string): Promise<void> {
  const evaluation = join(runDir, 'iter-001/evaluation.json');
  cutInHalf(evaluation);
  const report = readFileSync(join(runDir, 'report.md'));
  const calls = countCalls(p);
  const before = snapshotTree(join(p.dir, 'state'));
  const r = await track(startWhet(p, ['resume', runId])).exited;
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/cannot resume run \S+: run \S+ is damaged/);
  expect(r.stderr).toMatch(/DAMAGED \S*iter-001\/evaluation\.json:\d+:\d+: unparsable: iteration 1's evaluation\.json is not valid JSON \(it ends early: cut short\)/);
  expect(r.stderr).toContain(`whet verify --repair ${runId}`);
  expect(r.stderr).not.toMatch(/\n\s+at |internal error/);
  expect(countCalls(p), 'no engine call').toBe(calls);
  expect(readFileSync(join(runDir, 'report.md')).equals(report), 'report.md byte-for-byte').toBe(true);
  expect(snapshotTree(join(p.dir, 'state'))).toEqual(before);
}

describe('whet resume of a run whose iteration 1 evaluation.json was cut in half', () => {
  it('a completed run: exit 2 naming it, no call, report.md as it was', async () => {
    const p = slowProject({ seconds: 0, concurrency: 4, maxIterations: 2 });
    const run = await track(startWhet(p, ['run'])).exited;
    expect(run.code, run.stderr).toBe(0);
    const { runId, runDir } = runOf(p);
    expect(readJson(join(runDir, 'run.json')).status).toBe('completed');
    await refusedResume(p, runId, runDir);
    expect(readJson(join(runDir, 'run.json')).status).toBe('completed');
  }, 120_000);

  it('an interrupted run: exit 2 naming it, no call, report.md as it was, still interrupted', async () => {
    const p = slowProject({ seconds: 0.3, concurrency: 4, maxIterations: 3 });
    const w = track(startWhet(p, ['run']));
    // Interrupted once iteration 1 is decided and iteration 2 is under way.
    await waitFor('iteration 2 to start', () => {
      try {
        return readdirSync(join(p.dir, 'state/runs')).some((r) => readdirSync(join(p.dir, 'state/runs', r)).includes('iter-002'));
      } catch {
        return false;
      }
    }, 90_000);
    w.child.kill('SIGINT');
    const r = await w.exited;
    expect(r.code, r.stderr).toBe(130);
    const { runId, runDir } = runOf(p);
    expect(readJson(join(runDir, 'run.json')).status).toBe('interrupted');
    await refusedResume(p, runId, runDir);
    expect(readJson(join(runDir, 'run.json')).status).toBe('interrupted');
  }, 150_000);
});
