import { describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { acquireStateLock } from '../../src/state/lock.js';
import { ResultsLog, readResults, type ResultLine } from '../../src/state/results-log.js';
import { baselineCacheKey, lookupBaseline, storeBaseline, type CacheKeyParts } from '../../src/evaluation/cache.js';
import { StateError } from '../../src/core/errors.js';
import { tempDir } from '../support/cli.js';

const line = (task_id: string, attempt = 0, status: ResultLine['status'] = 'pass'): ResultLine => ({
  task_id,
  attempt,
  status,
  score: status === 'pass' ? 1 : 0,
  reason: 'r',
  judges: [],
  output: 'out',
  usage: {},
  duration_ms: 1,
  engine_calls: 1,
  finished_at: new Date(0).toISOString(),
});

describe('results log', () => {
  it('appends one line per attempt and cuts a torn last line on reopen', async () => {
    const file = join(tempDir(), 'results/base.jsonl');
    const log = ResultsLog.open(file);
    log.append(line('a'));
    log.append(line('b'));
    log.close();
    appendFileSync(file, '{"task_id":"c","att'); // a write torn by kill -9
    ResultsLog.open(file).close();
    expect(readFileSync(file, 'utf8').endsWith('}\n')).toBe(true);
    const seen: string[] = [];
    const r = await readResults(file, (l) => seen.push(l.task_id));
    expect(seen).toEqual(['a', 'b']);
    expect(r).toEqual({ lines: 2, skipped: 0 });
  });

  it('refuses to write a line the reader would not accept', () => {
    const file = join(tempDir(), 'r.jsonl');
    const log = ResultsLog.open(file);
    expect(() => log.append({ ...line('a'), status: 'maybe' } as unknown as ResultLine)).toThrow(/result line for a attempt 0 does not match its schema: status/);
    log.close();
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('truncates huge outputs in the log and says so', async () => {
    const file = join(tempDir(), 'r.jsonl');
    const log = ResultsLog.open(file);
    log.append({ ...line('a'), output: 'x'.repeat(100_000) });
    log.close();
    const got: ResultLine[] = [];
    await readResults(file, (l) => got.push(l));
    expect(got[0]!.output.length).toBe(64 * 1024);
    expect(got[0]!.output_truncated).toBe(true);
  });
});

describe('state lock', () => {
  it('refuses a second holder with a message naming the holder', async () => {
    const dir = tempDir();
    const held = await acquireStateLock(dir, 'first');
    await expect(acquireStateLock(dir, 'second')).rejects.toThrow(StateError);
    await expect(acquireStateLock(dir, 'second')).rejects.toThrow(new RegExp(`in use by pid ${process.pid} .*\\(first, since`));
    await held.release();
    const again = await acquireStateLock(dir, 'third');
    await again.release();
  });

  it('recovers a lock left by a process that was killed', async () => {
    const dir = tempDir();
    const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 10)']);
    const deadPid: number = await new Promise((r) => child.on('exit', () => r(child.pid!)));
    mkdirSync(join(dir, 'lock'), { recursive: true });
    writeFileSync(join(dir, 'lock/owner.json'), JSON.stringify({ pid: deadPid, host: (await import('node:os')).hostname(), command: 'killed', since: 'then' }));
    const lock = await acquireStateLock(dir, 'recovering');
    expect(JSON.parse(readFileSync(join(dir, 'lock/owner.json'), 'utf8')).pid).toBe(process.pid);
    await lock.release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });
});

describe('baseline cache', () => {
  const parts: CacheKeyParts = { skill: 'sha256:a', suite: 'sha256:b', engine: { type: 'mock' }, judge_engine: null, pass_k: 1, task_timeout_ms: 1000 };
  const outcome = (errors = 0) => ({
    variant: 'baseline',
    tallies: [{ task_id: 't', category: 'c', negative: false, critical: false, k: 1, judged: errors ? 0 : 1, passes: 1, errors, timeouts: 0, bestScore: 1, reason: '' }],
    engineCalls: 1,
    judgeCalls: 0,
    resumedAttempts: 0,
    usage: { input_tokens: 1, output_tokens: 1, cost_usd: 0, cost_reported: false },
    durationsMs: [1],
    interrupted: false,
    wallMs: 1,
  });

  it('keys on every part, in any key order', () => {
    const k = baselineCacheKey(parts);
    expect(baselineCacheKey({ ...parts, engine: { type: 'mock' } })).toBe(k);
    for (const change of [{ skill: 'sha256:x' }, { suite: 'sha256:x' }, { engine: { type: 'mock', latency_ms: 1 } }, { judge_engine: { type: 'mock' } }, { pass_k: 2 }, { task_timeout_ms: 2 }]) {
      expect(baselineCacheKey({ ...parts, ...change })).not.toBe(k);
    }
  });

  it('hits within the TTL with its age, expires after it, and never stores errors', async () => {
    const dir = tempDir();
    const key = baselineCacheKey(parts);
    const t0 = new Date('2026-11-01T00:00:00Z');
    expect(await storeBaseline(dir, key, parts, outcome(), t0)).toBe(true);
    const hit = lookupBaseline(dir, key, 7 * 86_400_000, new Date('2026-11-07T23:00:00Z'));
    expect(hit).toMatchObject({ hit: true, ageMs: (6 * 24 + 23) * 3_600_000 });
    expect(lookupBaseline(dir, key, 7 * 86_400_000, new Date('2026-11-08T00:00:01Z'))).toEqual({ hit: false, why: 'expired' });
    const other = baselineCacheKey({ ...parts, pass_k: 3 });
    expect(await storeBaseline(dir, other, parts, outcome(1), t0)).toBe(false);
    expect(lookupBaseline(dir, other, 7 * 86_400_000, t0)).toEqual({ hit: false, why: 'absent' });
  });
});

describe('events.jsonl', () => {
  it('checks each event on write', async () => {
    const { appendEvent } = await import('../../src/state/events.js');
    const dir = tempDir();
    appendEvent(dir, { event: 'stage_started', stage: 'gate', iteration: 2 }, new Date(0));
    expect(() => appendEvent(dir, { event: 'Stage Started' })).toThrow(/event "Stage Started" does not match its schema: event: an event name is snake_case/);
    expect(() => appendEvent(dir, { event: 'x', iteration: -1 })).toThrow(/iteration/);
    expect(readFileSync(join(dir, 'events.jsonl'), 'utf8')).toBe('{"at":"1970-01-01T00:00:00.000Z","event":"stage_started","stage":"gate","iteration":2}\n');
  });
});
