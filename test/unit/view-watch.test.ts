// The viewer's watcher (src/view/watch.ts) as the runs list uses it (issue 41): its first look at every run
// yields between chunks, `known` answers a run's stamp and run.json head only while the watcher runs, a
// hold keeps it running with no page for as long as asked and no longer, and a change is reported.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readHead, watchState } from '../../src/view/watch.js';
import { tempDir } from '../support/cli.js';

function run(state: string, id: string, mode: string, status = 'completed'): string {
  const dir = join(state, 'runs', id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'run.json'), `${JSON.stringify({ schema: 'whetstone.run/1', run_id: id, mode, status }, null, 2)}\n`);
  writeFileSync(join(dir, 'events.jsonl'), '{"event":"started"}\n');
  return dir;
}

describe('watchState', () => {
  it('reads run.json heads: a loop, a standalone run, a running one, none', () => {
    const state = tempDir();
    expect(readHead(run(state, 'a-loop', 'loop'))).toEqual({ running: false, loop: true });
    expect(readHead(run(state, 'b-standalone', 'standalone'))).toEqual({ running: false, loop: false });
    expect(readHead(run(state, 'c-running', 'loop', 'running'))).toEqual({ running: true, loop: true });
    mkdirSync(join(state, 'runs', 'd-empty'));
    expect(readHead(join(state, 'runs', 'd-empty'))).toBeUndefined();
  });

  it('answers `known` while held, stops when the hold runs out, and reports a change made while held', async () => {
    const state = tempDir();
    // More runs than one chunk of the first look, so it yields at least once.
    for (let i = 0; i < 450; i++) run(state, `r-${String(i).padStart(4, '0')}`, i % 3 ? 'standalone' : 'loop');
    const w = watchState(state, 50, 2_000);
    const seen: string[] = [];
    w.observe((c) => seen.push(...c));
    let answered = false;
    const first = w.baseline().then(() => (answered = true));
    // The first look is not one synchronous sweep: the event loop runs before it is done.
    await Promise.resolve();
    expect(answered).toBe(false);
    await first;
    expect(w.known('r-0001')).toBeUndefined(); // not running yet: nothing is vouched for
    const heldAt = performance.now();
    w.hold(2_000);
    expect(w.known('r-0000')?.head).toEqual({ running: false, loop: true });
    expect(w.known('r-0001')?.head).toEqual({ running: false, loop: false });
    const before = w.known('r-0001')!.stamp;
    // A lock coming and going makes the next tick compare every run: the change is seen at once.
    writeFileSync(join(state, 'runs', 'r-0001', 'events.jsonl'), '{"event":"started"}\n{"event":"artifact_written"}\n');
    mkdirSync(join(state, '.lock-test'));
    await expect.poll(() => seen, { timeout: 5_000, interval: 50 }).toContain('r-0001');
    expect(w.known('r-0001')!.stamp).not.toBe(before);
    // Past the hold, with no page listening, the watcher stops and vouches for nothing.
    await expect.poll(() => w.known('r-0001'), { timeout: 10_000, interval: 100 }).toBeUndefined();
    expect(performance.now() - heldAt).toBeGreaterThanOrEqual(2_000);
    w.close();
  });
});
