// A progress bar on a terminal reports attempts as judged, so what it shows must be on disk first — but
// only what it shows: runVariant hands each attempt a `persist` the bar calls when it draws (throttled),
// instead of writing the results log once per line. Against the instant mock engine, whose attempts all
// finish without yielding, so nothing but `persist` and the log's own batching writes mid-run.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Suite, Task } from '../../src/config/suite-schema.js';
import { createMockEngine } from '../../src/engines/mock.js';
import { createProgress } from '../../src/evaluation/progress.js';
import { runVariant } from '../../src/evaluation/run-variant.js';
import { tempDir } from '../support/cli.js';

const task = (i: number): Task => ({ id: `t${i}`, prompt: `Question ${i}`, judges: [{ type: 'contains', expected: ['APPLE'] }], timeoutMs: 60_000, category: 'c', negative: false, critical: false, index: i });
const linesIn = (file: string) => readFileSync(file, 'utf8').split('\n').filter(Boolean).length;

describe('progress and the results log', () => {
  it('every count the bar draws is on disk when drawn; between draws, lines wait for the batch', async () => {
    const dir = tempDir();
    const file = join(dir, 'results/baseline.jsonl');
    const n = 200;
    let clock = 0;
    const draws: { shown: number; onDisk: number }[] = [];
    const bar = createProgress('baseline', n, (s) => {
      const shown = /\] (\d+)\//.exec(s)?.[1];
      if (shown !== undefined) draws.push({ shown: Number(shown), onDisk: linesIn(file) });
    }, () => clock, 100);
    let reported = 0;
    let pendingSeen = 0;
    const suite: Suite = { path: join(dir, 'tasks.yaml'), dir, skillId: 's', tasks: Array.from({ length: n }, (_, i) => task(i)), contentHash: 'sha256:0' };
    const o = await runVariant({
      variant: 'baseline',
      suite,
      skill: { name: 's', text: 'Say APPLE.' },
      engine: createMockEngine(),
      passK: 1,
      concurrency: 8,
      resultsFile: file,
      onAttempt: (line, persist) => {
        reported++;
        if (linesIn(file) < reported - 1) pendingSeen++;
        clock += 10;
        bar.tick(line.status, persist);
      },
    });
    expect(o.engineCalls).toBe(n);
    expect(draws.length).toBeGreaterThanOrEqual(n / 10);
    for (const d of draws) expect(d.onDisk).toBeGreaterThanOrEqual(d.shown);
    // Not a write per line: most attempts were reported (to the bar) while earlier lines still waited.
    expect(pendingSeen).toBeGreaterThan(n / 2);
    expect(linesIn(file)).toBe(n);
  });
});

describe('Progress.tick', () => {
  it('runs beforeDraw right before each redraw, and only then', () => {
    let t = 0;
    const events: string[] = [];
    const p = createProgress('v', 5, (s) => events.push(s.startsWith('\r') ? 'draw' : 'other'), () => t, 100);
    for (let i = 0; i < 5; i++) {
      t += 10;
      p.tick('pass', () => events.push('persist'));
    }
    expect(events).toEqual(['persist', 'draw', 'persist', 'draw']); // the first tick, and the last
  });
});
