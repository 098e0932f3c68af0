// The state lock at the durations real engines take (issue 11): a `whet run` of over two minutes against
// an engine that takes seconds per call keeps its lock with no warning, refuses second processes at
// 15 s, 45 s and 90 s naming itself (and `whet verify --repair`, while a read-only `whet verify` finds
// the live run clean), and leaves no lock when it ends; a holder killed with -9 at 5 s, 35 s
// or 75 s is taken over at once, and a resumed run stopped by SIGINT or SIGTERM leaves no lock either.
// Real processes and real time — the old lock broke ten seconds into every run, which no mocked timer
// showed. Also crash consistency: seeded kill -9 + resume of a slow loop (test/support/crash-trials.ts).
// The scenarios mostly sleep, so both tests run at the same time: the file lasts as long as the longest.
// long-running: waits on a slow engine and real lock timers for minutes, ≈ 145 s
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';
import { crashTrialsMatchReference } from '../support/crash-trials.js';
import { countCalls, hasRun, killAll, lockHolder, lockLeftovers, slowProject, startWhet, until, waitFor, type Started } from '../support/slow-run.js';

// 30 calls (baseline, a candidate, the next iteration's candidate) at 4.5 s one at a time: ≈ 140 s.
const SLOW = { seconds: 4.5, concurrency: 1, maxIterations: 2 };
const started: Started[] = [];
const track = (s: Started) => (started.push(s), s);

async function longRunRefusesOthers(): Promise<void> {
  const p = slowProject(SLOW);
  const holder = track(startWhet(p, ['run']));
  await waitFor('the run to take the lock', () => lockHolder(p) === holder.pid || holder.done(), 30_000);
  const seconds: Array<[number, string[]]> = [
    [15_000, ['run']],
    [45_000, ['resume']],
    [90_000, ['evaluate', '--standalone', '--task-suite', 'release-notes/tasks.yaml', '--skill-path', 'release-notes']],
  ];
  for (const [at, args] of seconds) {
    await until(holder.startedAt, at);
    expect(holder.done(), `the run ended before ${at / 1000}s: ${holder.stderr()}`).toBe(false);
    const second = await track(startWhet(p, args)).exited;
    const what = `whet ${args[0]} at ${at / 1000}s: ${second.stderr}`;
    expect(second.code, what).toBe(3);
    expect(second.stderr, what).toMatch(new RegExp(`in use by pid ${holder.pid} on \\S+ \\(whet run \\(`));
    expect(second.stderr, what).not.toMatch(/ENOTEMPTY|internal error|"level"/);
    expect(lockHolder(p), what).toBe(holder.pid);
  }
  // Reading needs no lock: a run in progress is not damage, and the refused repair moved nothing.
  expect(holder.done(), holder.stderr()).toBe(false);
  const check = await track(startWhet(p, ['verify'])).exited;
  expect(check.code, check.stdout + check.stderr).toBe(0);
  expect(check.stdout).toMatch(/clean: 1 run\(s\)/);
  const r = await holder.exited;
  const ms = Date.now() - holder.startedAt;
  expect(r.code, r.stderr).toBe(0);
  expect(ms, 'the run must outlast every timer the lock has').toBeGreaterThan(120_000);
  expect(r.stderr).not.toMatch(/lock|compromised|"level"/i);
  expect(r.stdout).toMatch(/run done/);
  expect(countCalls(p)).toBeGreaterThanOrEqual(25);
  expect(lockLeftovers(p)).toEqual([]);
  const after = await track(startWhet(p, ['verify'])).exited;
  expect(after.code, after.stdout + after.stderr).toBe(0);
}

/**
 * `whet verify --repair` moves files aside: beside a live run it needs the lock like any writer. With
 * damage planted in another run, it is refused naming the holder and moves nothing, while a read-only
 * `whet verify` names the damage and not the live run; once the run stops, the repair goes ahead.
 */
async function repairWaitsForTheLock(): Promise<void> {
  const p = slowProject(SLOW);
  const holder = track(startWhet(p, ['run']));
  await waitFor('the run to take the lock and record itself', () => (lockHolder(p) === holder.pid && hasRun(p)) || holder.done(), 30_000);
  const runs = join(p.dir, 'state/runs');
  const live = readdirSync(runs)[0]!;
  const planted = join(runs, 'planted-run/run.json');
  mkdirSync(join(runs, 'planted-run'));
  writeFileSync(planted, '{"schema": "whetstone.run/1", "run_id": "planted-r');
  const check = await track(startWhet(p, ['verify'])).exited;
  expect(check.code, check.stdout + check.stderr).toBe(1);
  expect(check.stdout).toMatch(/planted-run/);
  expect(check.stdout).not.toContain(`${live}/`);
  const repair = await track(startWhet(p, ['verify', '--repair'])).exited;
  expect(repair.code, repair.stdout + repair.stderr).toBe(3);
  expect(repair.stderr).toMatch(new RegExp(`in use by pid ${holder.pid} on \\S+ \\(whet run \\(`));
  expect(readFileSync(planted, 'utf8')).toBe('{"schema": "whetstone.run/1", "run_id": "planted-r');
  expect(readdirSync(runs).flatMap((r) => readdirSync(join(runs, r))).filter((f) => f === 'superseded')).toEqual([]);
  expect(holder.done(), holder.stderr()).toBe(false);
  holder.child.kill('SIGINT');
  expect((await holder.exited).code).toBe(130);
  const after = await track(startWhet(p, ['verify', '--repair'])).exited;
  expect(after.code, after.stdout + after.stderr).not.toBe(3);
  expect(after.stdout).toMatch(/planted-run/);
  expect(after.stdout).not.toContain(`${live}/`);
  expect(lockLeftovers(p)).toEqual([]);
}

/** kill -9 of the holder `at` ms into its run; the next process holds the lock within seconds. */
async function killedHolderIsTakenOver(at: number, stopWith: 'SIGINT' | 'SIGTERM'): Promise<void> {
  const p = slowProject(SLOW);
  const holder = track(startWhet(p, ['run']));
  // On a loaded machine a process start alone can take seconds: kill at `at`, or once it holds the lock.
  await waitFor('the run to take the lock', () => lockHolder(p) === holder.pid || holder.done(), 30_000);
  await until(holder.startedAt, at);
  expect(holder.done(), holder.stderr()).toBe(false);
  expect(lockHolder(p)).toBe(holder.pid);
  holder.child.kill('SIGKILL');
  await holder.exited;
  expect(lockHolder(p), 'kill -9 leaves its lock behind, as it must').toBe(holder.pid);

  // Killed before it recorded its run (a loaded machine starts slowly), the user runs `whet run` again.
  const next = track(startWhet(p, [hasRun(p) ? 'resume' : 'run']));
  const took = await waitFor(`the resume after a kill at ${at / 1000}s to take the lock`, () => lockHolder(p) === next.pid || next.done(), 20_000);
  expect(next.done(), `resume after a kill at ${at / 1000}s: ${next.stderr()}`).toBe(false);
  // At once: the old lock's staleness timeout was 30 s; a process start takes well under 10 s here.
  expect(took).toBeLessThan(10_000);
  // Let it work a little, then stop it as Ctrl-C or a service manager would: no lock may stay behind.
  await sleep(3_000);
  expect(next.done(), next.stderr()).toBe(false);
  next.child.kill(stopWith);
  const r = await next.exited;
  expect(r.code, r.stderr).toBe(stopWith === 'SIGINT' ? 130 : 143);
  expect(r.stderr).not.toMatch(/lock|"level"/i);
  expect(lockLeftovers(p)).toEqual([]);
}

describe.concurrent('real durations (slow command engine)', () => {
  it('the state lock keeps a 2-minute run locked, refuses others at 15/45/90 s, takes over after kill -9 at 5/35/75 s, leaves no lock', async () => {
    try {
      await Promise.all([
        longRunRefusesOthers(),
        repairWaitsForTheLock(),
        killedHolderIsTakenOver(5_000, 'SIGINT'),
        killedHolderIsTakenOver(35_000, 'SIGTERM'),
        killedHolderIsTakenOver(75_000, 'SIGINT'),
      ]);
    } finally {
      killAll(started);
    }
  }, 300_000);

  it('kill -9 at random moments of a slow loop, then resume, ends with the uninterrupted decisions and results, whole files, no attempt recorded twice', async () => {
    await crashTrialsMatchReference();
  }, 240_000);
});
