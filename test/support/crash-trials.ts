// Crash consistency at real durations (issue 11), run by test/integration/real-durations.test.ts: a loop against an engine that takes a second per call
// is killed with -9 at random moments, resumed each time, and finished by `whet resume`. Every trial
// must end with the uninterrupted run's decisions and per-task results, every JSON/JSONL file in the
// state directory whole, no task attempt recorded twice, and no more engine calls than the attempts in
// flight at each kill. The kill moments come from a seed printed with every failure (set
// WHET_CRASH_SEED to replay one); the trials and the reference run at the same time.
// Kept apart from the test file so the lock scenarios and these run concurrently in one file.
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

import { expect } from 'vitest';
import { countCalls, hasRun, killAll, lockLeftovers, slowProject, startWhet, type SlowProject, type Started } from './slow-run.js';

const SLOW = { seconds: 1, concurrency: 2, maxIterations: 2 };
const KILLS = 4;
const TRIALS = 3;
const started: Started[] = [];
const track = (s: Started) => (started.push(s), s);

/** mulberry32: a tiny seeded generator, so a failing sequence of kill moments can be replayed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]));
}

const runDir = (p: SlowProject) => join(p.dir, 'state/runs', readdirSync(join(p.dir, 'state/runs')).sort().pop()!);

/** What the run decided and measured, independent of its run id and timings. */
function outcome(p: SlowProject): { decisions: string[]; results: Record<string, string[]> } {
  const dir = runDir(p);
  const live = files(dir).filter((f) => !f.includes('/superseded/'));
  const decisions = live
    .filter((f) => f.endsWith('/gate.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { iteration: number; candidate_id: string; decision: string })
    .map((g) => `${g.iteration}:${g.candidate_id}:${g.decision}`);
  const results: Record<string, string[]> = {};
  for (const f of live.filter((f) => f.includes('/results/') && f.endsWith('.jsonl'))) {
    const lines = readFileSync(f, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { task_id: string; attempt: number; status: string; score: number; reason: string });
    const judged = lines.filter((l) => l.status !== 'error');
    const keys = judged.map((l) => `${l.task_id}#${l.attempt}`);
    expect(new Set(keys).size, `${f}: an attempt was recorded twice`).toBe(keys.length);
    results[relative(dir, f)] = judged.map((l) => `${l.task_id}#${l.attempt} ${l.status} ${l.score} ${l.reason}`).sort();
  }
  return { decisions, results };
}

/** Every .json parses and every .jsonl line parses and ends with a newline: nothing truncated. */
function expectWholeFiles(p: SlowProject, label: string): void {
  for (const f of files(join(p.dir, 'state'))) {
    const text = readFileSync(f, 'utf8');
    if (f.endsWith('.json')) expect(() => JSON.parse(text), `${label}: ${f} is not whole JSON`).not.toThrow();
    if (f.endsWith('.jsonl')) {
      expect(text === '' || text.endsWith('\n'), `${label}: ${f} ends mid-line`).toBe(true);
      for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line), `${label}: ${f} has a truncated line`).not.toThrow();
    }
  }
}

async function reference(): Promise<{ outcome: ReturnType<typeof outcome>; calls: number }> {
  const p = slowProject(SLOW);
  const r = await track(startWhet(p, ['run'])).exited;
  expect(r.code, r.stderr).toBe(0);
  return { outcome: outcome(p), calls: countCalls(p) };
}

async function trial(seed: number): Promise<{ p: SlowProject; kills: number; label: string; moments: number[] }> {
  const next = rng(seed);
  const p = slowProject(SLOW);
  const moments: number[] = [];
  let kills = 0;
  for (let i = 0; i < KILLS; i++) {
    // Killed before it recorded its run, a `whet run` is simply started again, as a user would.
    const s = track(startWhet(p, [hasRun(p) ? 'resume' : 'run']));
    // Anywhere from just after start (the lock, run.json) to deep into an evaluation.
    const at = Math.round(300 + next() * 9_000);
    moments.push(at);
    await Promise.race([s.exited, new Promise((r) => setTimeout(r, at))]);
    if (s.done()) break;
    s.child.kill('SIGKILL');
    await s.exited;
    kills++;
  }
  const label = `seed ${seed} (kills at ${moments.join(', ')} ms after each start)`;
  const fin = await track(startWhet(p, [hasRun(p) ? 'resume' : 'run'])).exited;
  expect(fin.code, `${label}: ${fin.stderr}`).toBe(0);
  return { p, kills, label, moments };
}

/** The reference and TRIALS killed-and-resumed runs, concurrently; every assertion of the bar. */
export async function crashTrialsMatchReference(): Promise<void> {
  const base = Number(process.env['WHET_CRASH_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
  console.log(`crash-resume seeds: ${Array.from({ length: TRIALS }, (_, i) => base + i).join(', ')} (replay with WHET_CRASH_SEED=${base})`);
  try {
    const [ref, ...trials] = await Promise.all([reference(), ...Array.from({ length: TRIALS }, (_, i) => trial(base + i))]);
    for (const t of trials) {
      expect(t.kills, `${t.label}: no kill landed`).toBeGreaterThan(0);
      expectWholeFiles(t.p, t.label);
      const got = outcome(t.p);
      expect(got.decisions, t.label).toEqual(ref.outcome.decisions);
      expect(got.results, t.label).toEqual(ref.outcome.results);
      // Only attempts in flight at a kill (at most `concurrency` each time) may have been called again.
      const calls = countCalls(t.p);
      expect(calls, t.label).toBeGreaterThanOrEqual(ref.calls);
      expect(calls, t.label).toBeLessThanOrEqual(ref.calls + t.kills * SLOW.concurrency);
      expect(lockLeftovers(t.p), t.label).toEqual([]);
      for (const f of files(runDir(t.p)).filter((f) => f.endsWith('/run.json'))) expect(JSON.parse(readFileSync(f, 'utf8')).status, `${t.label}: ${f}`).toBe('completed');
    }
  } finally {
    killAll(started);
  }
}
