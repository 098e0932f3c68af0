// Real-duration helpers: a project whose engine is the `slow-agent` executable (seconds per call), the
// built CLI spawned as a user would run it, and polling for what it leaves on disk. For tests of what
// lives in time — the state lock, kill -9 and resume — where mocked timers would prove nothing.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { copyExample, fixturesBin, repoRoot, tempDir, write } from './cli.js';

export const cli = join(repoRoot, 'dist/src/cli.js');

export interface SlowProject {
  dir: string;
  env: NodeJS.ProcessEnv;
  /** One line per engine call ("task pid"), appended by the agent as each call starts. */
  callsLog: string;
}

// slow-agent answers with what it was sent: deterministic, and said so — a command engine is otherwise
// treated as noisy and its held-out tasks get rounds of attempts (issue 38), minutes more at seconds a call.
export function slowProject(o: { seconds: number; concurrency: number; maxIterations: number }): SlowProject {
  const dir = tempDir('whet-slow-');
  copyExample('release-notes', join(dir, 'release-notes'));
  write(
    join(dir, 'pipeline.yaml'),
    `state_dir: state
engine: {type: command, command: ["slow-agent"]}
targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]
loop: {max_iterations: ${o.maxIterations}, plateau_window: 2, candidates_per_iteration: 2, proposers: [feedback, structural]}
thresholds: {min_delta: 0, max_new_failures: 0}
evaluate: {concurrency: ${o.concurrency}, deterministic: true}
`,
  );
  const callsLog = join(dir, 'calls.log');
  const env = { ...process.env, PATH: `${fixturesBin}:${process.env['PATH'] ?? ''}`, SLOW_AGENT_SECONDS: String(o.seconds), SLOW_AGENT_LOG: callsLog, WHET_LOG_LEVEL: 'warn' };
  return { dir, env, callsLog };
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Started {
  child: ChildProcess;
  pid: number;
  startedAt: number;
  exited: Promise<Exit>;
  done: () => boolean;
  stderr: () => string;
}

export function startWhet(p: SlowProject, args: string[]): Started {
  const child = spawn(process.execPath, [cli, ...args], { cwd: p.dir, env: p.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let finished = false;
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exit>((r) => child.on('close', (code, signal) => ((finished = true), r({ code, signal, stdout, stderr }))));
  return { child, pid: child.pid!, startedAt: Date.now(), exited, done: () => finished, stderr: () => stderr };
}

/** The pid recorded in the state lock, or undefined when there is no (readable) lock. */
export function lockHolder(p: SlowProject): number | undefined {
  try {
    return (JSON.parse(readFileSync(join(p.dir, 'state/lock/owner.json'), 'utf8')) as { pid: number }).pid;
  } catch {
    return undefined;
  }
}

/** Everything lock-shaped in the state directory: the lock and any folder prepared or moved aside. */
export function lockLeftovers(p: SlowProject): string[] {
  const state = join(p.dir, 'state');
  return existsSync(state) ? readdirSync(state).filter((n) => n === 'lock' || n.startsWith('lock.')) : [];
}

export async function waitFor(what: string, pred: () => boolean, timeoutMs: number): Promise<number> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
  return Date.now() - t0;
}

/** Sleeps until `ms` after `from` (a test's own schedule, immune to how long earlier steps took). */
export async function until(from: number, ms: number): Promise<void> {
  const left = from + ms - Date.now();
  if (left > 0) await sleep(left);
}

/** A run was recorded (its run.json written): `whet resume` has something to continue. */
export function hasRun(p: SlowProject): boolean {
  const runs = join(p.dir, 'state/runs');
  return existsSync(runs) && readdirSync(runs).some((r) => existsSync(join(runs, r, 'run.json')));
}

export function countCalls(p: SlowProject): number {
  return existsSync(p.callsLog) ? readFileSync(p.callsLog, 'utf8').split('\n').filter(Boolean).length : 0;
}

/** Kills whatever a failed test left running, so nothing orphaned keeps a shared machine busy. */
export function killAll(started: Started[]): void {
  for (const s of started) if (!s.done()) s.child.kill('SIGKILL');
}
