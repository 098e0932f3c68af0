// The results log writes the lines of one event-loop turn together (src/state/results-log.ts). What it
// must keep: every line reaches the file by close; a turn that never yields (an instant engine) still
// writes as it goes, so pending lines stay bounded; and nothing an attempt's reporter was told is lost
// to a kill -9 — shown against a real child process killed mid-run, many times over.
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResultsLog, readResults, type ResultLine } from '../../src/state/results-log.js';
import { repoRoot, tempDir } from '../support/cli.js';

const line = (task_id: string, output = 'out'): ResultLine => ({
  task_id,
  attempt: 0,
  status: 'pass',
  score: 1,
  reason: 'r',
  judges: [],
  output,
  usage: {},
  duration_ms: 1,
  engine_calls: 1,
  finished_at: new Date(0).toISOString(),
});

const size = (f: string) => statSync(f).size;

describe('results log batching', () => {
  it('writes the lines of one turn at its end, and everything on close', async () => {
    const file = join(tempDir(), 'r.jsonl');
    const log = ResultsLog.open(file);
    log.append(line('a'));
    log.append(line('b'));
    expect(size(file)).toBe(0);
    await new Promise((r) => setImmediate(r));
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
    log.append(line('c'));
    log.close();
    const ids: string[] = [];
    await readResults(file, (l) => ids.push(l.task_id));
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(() => log.append(line('d'))).toThrow(/closed/);
  });

  it('flush() writes at once: what is reported as judged is on disk first', () => {
    const file = join(tempDir(), 'r.jsonl');
    const log = ResultsLog.open(file);
    log.append(line('a'));
    log.flush();
    expect(readFileSync(file, 'utf8')).toContain('"task_id":"a"');
    log.close();
  });

  it('a turn that never yields still writes as it goes (pending lines stay bounded)', () => {
    const file = join(tempDir(), 'r.jsonl');
    const log = ResultsLog.open(file);
    const big = 'x'.repeat(10_000);
    for (let i = 0; i < 100; i++) log.append(line(`t${i}`, big));
    // 100 lines of 10 KB in one synchronous turn: most of them are already written.
    expect(size(file)).toBeGreaterThan(700_000);
    log.close();
    expect(size(file)).toBeGreaterThan(1_000_000);
  });

  it('kill -9 at random moments loses no attempt that was reported as judged', async () => {
    const dist = join(repoRoot, 'dist');
    for (let trial = 0; trial < 6; trial++) {
      const file = join(tempDir(), 'results/baseline.jsonl');
      const child = spawn(process.execPath, [join(repoRoot, 'test/fixtures/crash/report-judged.mjs'), dist, file, '2000'], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      const killAt = 200 + trial * 1500;
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          // Killed after a varying number of reports, in the middle of a round.
          if (out.split('\n').length > killAt && !child.killed) child.kill('SIGKILL');
        });
        child.on('exit', () => resolve());
      });
      const reported = out.split('\n').filter((l) => l.startsWith('judged ')).map((l) => l.slice('judged '.length));
      expect(reported.length, `trial ${trial}: reports before the kill`).toBeGreaterThanOrEqual(killAt - 1);
      const inLog = new Set<string>();
      await readResults(file, (l) => inLog.add(`${l.task_id}#${l.attempt}`));
      const lost = reported.filter((r) => !inLog.has(r));
      expect(lost, `trial ${trial}: reported as judged but not in the results log`).toEqual([]);
    }
  }, 120_000);
});
