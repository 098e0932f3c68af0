import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResultsLog, type ResultLine } from '../../src/state/results-log.js';
import { resumedAttempts, runVariant } from '../../src/evaluation/run-variant.js';
import { newTally } from '../../src/evaluation/aggregate.js';
import { writeJsonAtomically } from '../../src/core/atomic.js';
import type { Suite, Task } from '../../src/config/suite-schema.js';
import type { Engine } from '../../src/engines/types.js';
import { tempDir } from '../support/cli.js';

const BIG = 'x'.repeat(50_000);

const task = (id: string): Task => ({ id, prompt: `p ${id}`, judges: [{ type: 'contains', expected: ['x'] }], timeoutMs: 1000, category: 'c', negative: false, critical: false, index: 0 });

const line = (task_id: string, attempt: number, status: ResultLine['status']): ResultLine => ({
  task_id,
  attempt,
  status,
  score: status === 'pass' ? 1 : 0,
  reason: `${status} ${task_id}`,
  judges: [{ type: 'contains', passed: status === 'pass', score: 1, reason: BIG.slice(0, 1000) }],
  output: BIG,
  usage: { input_tokens: 2, output_tokens: 3 },
  duration_ms: 7,
  engine_calls: 1,
  finished_at: new Date(0).toISOString(),
});

function writeLog(file: string, lines: ResultLine[]): void {
  const log = ResultsLog.open(file);
  for (const l of lines) log.append(l);
  log.close();
}

const refusingEngine: Engine = {
  type: 'mock',
  identity: () => ({ type: 'mock' }),
  run: () => {
    throw new Error('a resumed attempt must not reach the engine');
  },
} as unknown as Engine;

describe('resume keeps facts, never outputs', () => {
  it('holds only what aggregation needs per attempt, the latest judged line winning', async () => {
    const file = join(tempDir(), 'results/baseline.jsonl');
    writeLog(file, [line('a', 0, 'fail'), line('a', 0, 'pass'), line('b', 0, 'pass'), line('b', 0, 'error'), line('a', 5, 'pass'), line('zz', 0, 'pass')]);
    const tallies = new Map(['a', 'b'].map((id) => [id, newTally(task(id), 2)]));
    const done = await resumedAttempts(file, tallies);
    // b's error line cancels its judged line (retried); attempt 5 is beyond pass-k; zz is not in the suite.
    expect([...done.keys()]).toEqual(['a#0']);
    const facts = done.get('a#0')!;
    expect(facts).toEqual({ status: 'pass', score: 1, reason: 'pass a', usage: { input_tokens: 2, output_tokens: 3 }, duration_ms: 7 });
    expect(JSON.stringify([...done.values()]).length).toBeLessThan(1000);
  });

  it('resumes a run whose log carries large outputs without any engine call', async () => {
    const dir = tempDir();
    const file = join(dir, 'results/baseline.jsonl');
    const tasks = ['a', 'b', 'c'].map(task);
    writeLog(file, [line('a', 0, 'pass'), line('b', 0, 'fail'), line('c', 0, 'pass')]);
    const suite: Suite = { path: join(dir, 'tasks.yaml'), dir, skillId: 's', tasks, contentHash: 'sha256:0' };
    const o = await runVariant({ variant: 'baseline', suite, engine: refusingEngine, passK: 1, concurrency: 2, resultsFile: file });
    expect(o.engineCalls).toBe(0);
    expect(o.resumedAttempts).toBe(3);
    expect(o.tallies.map((t) => [t.task_id, t.passes, t.judged, t.reason])).toEqual([
      ['a', 1, 1, 'pass a'],
      ['b', 0, 1, 'fail b'],
      ['c', 1, 1, 'pass c'],
    ]);
    expect(o.usage).toMatchObject({ input_tokens: 6, output_tokens: 9 });
    expect(o.durationsMs).toEqual([7, 7, 7]);
  });
});

describe('writeJsonAtomically', () => {
  it('writes exactly the bytes JSON.stringify would, indented or compact', async () => {
    const file = join(tempDir(), 'x.json');
    const values: unknown[] = [
      {},
      { a: [] },
      { a: [1, { b: 'line\nbreak', c: [1, 2, {}], d: undefined }], e: undefined, f: null, g: { h: { i: [[]] } }, j: 'é≥' },
      { t: [undefined, { x: new Date(0) }], d: new Date(5) },
      [1, 2],
      'plain',
    ];
    for (const v of values) {
      for (const indent of [0, 2] as const) {
        await writeJsonAtomically(file, v, indent);
        expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify(v, null, indent)}\n`);
      }
    }
  });

});

describe('when an attempt finished', () => {
  it('stamps each line with the clock at its end, attempts within one millisecond sharing its text', async () => {
    const dir = tempDir();
    const file = join(dir, 'results/baseline.jsonl');
    const tasks = ['a', 'b', 'c', 'd', 'e'].map(task);
    const suite: Suite = { path: join(dir, 'tasks.yaml'), dir, skillId: 's', tasks, contentHash: 'sha256:0' };
    // The clock moves on at every other reading: 0, 0, 1500, 1500, 3000 ms past the epoch.
    let reads = 0;
    const now = () => new Date(Math.floor(reads++ / 2) * 1500);
    const engine = { type: 'mock', identity: () => ({ type: 'mock' }), run: () => Promise.resolve({ ok: true, output: 'x', usage: {}, duration_ms: 0 }) } as unknown as Engine;
    await runVariant({ variant: 'baseline', suite, engine, passK: 1, concurrency: 1, resultsFile: file, now });
    const stamps = readFileSync(file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as ResultLine).finished_at);
    expect(stamps).toEqual([0, 0, 1500, 1500, 3000].map((ms) => new Date(ms).toISOString()));
  });
});
