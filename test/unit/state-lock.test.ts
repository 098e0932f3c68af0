// The state lock's decisions on real files and real processes: a recycled pid, a lock from another
// machine (fresh or abandoned), a lock without an owner, racing takeovers of a dead holder's lock, and
// a lock lost while held — reported as a sentence after two heartbeats, never removed from its new owner.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { StateError } from '../../src/core/errors.js';
import { acquireStateLock } from '../../src/state/lock.js';
import { FOREIGN_STALE_MS, HEARTBEAT_MS, processStart } from '../../src/state/lock-owner.js';
import { repoRoot, tempDir } from '../support/cli.js';

const placeLock = (dir: string, owner: Record<string, unknown>) => {
  mkdirSync(join(dir, 'lock'), { recursive: true });
  writeFileSync(join(dir, 'lock/owner.json'), JSON.stringify(owner));
};
const ownerPid = (dir: string) => (JSON.parse(readFileSync(join(dir, 'lock/owner.json'), 'utf8')) as { pid: number }).pid;
const ago = (file: string, ms: number) => utimesSync(file, new Date(Date.now() - ms), new Date(Date.now() - ms));

describe('state lock decisions', () => {
  it('takes over a lock whose pid now belongs to a later process (recycled pid)', async () => {
    const dir = tempDir();
    // This very process is alive, but it did not start at that time: the holder was another process.
    placeLock(dir, { pid: process.pid, host: hostname(), command: 'killed long ago', since: 'then', token: 'old', start: '1' });
    const lock = await acquireStateLock(dir, 'new');
    expect(ownerPid(dir)).toBe(process.pid);
    expect(JSON.parse(readFileSync(join(dir, 'lock/owner.json'), 'utf8')).command).toBe('new');
    await lock.release();
  });

  it('refuses a live holder on this machine however old its heartbeat', async () => {
    const dir = tempDir();
    placeLock(dir, { pid: process.pid, host: hostname(), command: 'busy run', since: 'hours ago', token: 't', start: processStart(process.pid) });
    ago(join(dir, 'lock/owner.json'), 10 * FOREIGN_STALE_MS);
    ago(join(dir, 'lock'), 10 * FOREIGN_STALE_MS);
    await expect(acquireStateLock(dir, 'second')).rejects.toThrow(/in use by pid \d+ on .* \(busy run, since hours ago\)/);
  });

  it('refuses a fresh lock from another machine and takes over one whose heartbeat stopped', async () => {
    const dir = tempDir();
    placeLock(dir, { pid: 1, host: 'other-machine', command: 'whet run (x)', since: 'now', token: 'f' });
    await expect(acquireStateLock(dir, 'second')).rejects.toThrow(/in use by pid 1 on other-machine \(whet run \(x\)/);
    ago(join(dir, 'lock/owner.json'), FOREIGN_STALE_MS + 5_000);
    const lock = await acquireStateLock(dir, 'second');
    expect(ownerPid(dir)).toBe(process.pid);
    await lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('takes over an old lock folder without an owner (an older version’s leftover), not a fresh one', async () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'lock'));
    writeFileSync(join(dir, 'lock/owner.json'), '{"pid": 12');
    await expect(acquireStateLock(dir, 'second')).rejects.toThrow(StateError);
    ago(join(dir, 'lock'), 60_000);
    const lock = await acquireStateLock(dir, 'second');
    await lock.release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });

  it('never lets two of several processes racing for a dead holder’s lock hold it at once', async () => {
    const dir = tempDir();
    placeLock(dir, { pid: 2 ** 22 + 17, host: hostname(), command: 'killed', since: 'then', token: 'dead' });
    const mod = pathToFileURL(join(repoRoot, 'dist/src/state/lock.js')).href;
    const script = `const { acquireStateLock } = await import(${JSON.stringify(mod)});
      try { const l = await acquireStateLock(process.argv[1], 'racer'); const t0 = Date.now(); await new Promise((r) => setTimeout(r, 3000)); const t1 = Date.now(); await l.release(); console.log('got ' + t0 + ' ' + t1); }
      catch (e) { console.log(/in use by/.test(e.message) ? 'refused' : 'error ' + e.message); }`;
    const racers = Array.from({ length: 6 }, () => spawn(process.execPath, ['--input-type=module', '-e', script, dir], { stdio: ['ignore', 'pipe', 'inherit'] }));
    const said = await Promise.all(racers.map((c) => new Promise<string>((r) => {
      let out = '';
      c.stdout!.on('data', (d: Buffer) => (out += d.toString()));
      c.on('close', () => r(out.trim()));
    })));
    // A racer that starts after the winner released may win too; never two at once, never an error.
    expect(said.filter((s) => !s.startsWith('got ') && s !== 'refused')).toEqual([]);
    const held = said.filter((s) => s.startsWith('got ')).map((s) => s.split(' ').slice(1).map(Number) as [number, number]).sort((a, b) => a[0] - b[0]);
    expect(held.length).toBeGreaterThanOrEqual(1);
    for (let i = 1; i < held.length; i++) expect(held[i]![0], 'two racers held the lock at once').toBeGreaterThanOrEqual(held[i - 1]![1]);
    expect(readdirSync(dir)).toEqual([]);
  }, 30_000);

  it('sweeps old folders a killed process left mid-creation or mid-takeover, not young ones', async () => {
    const dir = tempDir();
    const old = join(dir, 'lock.0b5e3a2c-1111-4222-8333-944455556666.new');
    const young = join(dir, 'lock.0b5e3a2c-1111-4222-8333-944455557777.stale');
    mkdirSync(old);
    writeFileSync(join(old, 'owner.json'), '{}');
    ago(old, 5 * 60_000);
    mkdirSync(young);
    const lock = await acquireStateLock(dir, 'sweeper');
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    await lock.release();
  });

  it('reports a lock lost while held in plain words, and does not remove the new holder’s lock', async () => {
    const dir = tempDir();
    const lines: string[] = [];
    const lock = await acquireStateLock(dir, 'first', { report: (l) => lines.push(l) });
    rmSync(join(dir, 'lock'), { recursive: true });
    placeLock(dir, { pid: process.pid, host: hostname(), command: 'intruder', since: 'now', token: 'other', start: processStart(process.pid) });
    await new Promise((r) => setTimeout(r, 2 * HEARTBEAT_MS + 1_500));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^whet: warning: this process lost its lock on state directory .*: it is now held by pid \d+ on .* \(intruder, since now\)/);
    await lock.release();
    expect(JSON.parse(readFileSync(join(dir, 'lock/owner.json'), 'utf8')).command).toBe('intruder');
  }, 30_000);
});
