import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { createProgress, formatBar } from '../../src/evaluation/progress.js';
import { copyExample, tempDir, whet } from '../support/cli.js';

describe('progress bar', () => {
  it('shows done/total, counts and an ETA from the rate so far', () => {
    expect(formatBar('baseline', { done: 25, total: 100, pass: 20, fail: 4, error: 1, elapsedMs: 5000 }, 8)).toBe('baseline [##......] 25/100 pass 20 fail 4 error 1 ETA 15s');
    expect(formatBar('x', { done: 0, total: 10, pass: 0, fail: 0, error: 0, elapsedMs: 0 }, 4)).toBe('x [....] 0/10 pass 0 fail 0 error 0 ETA --');
  });

  it('throttles redraws and always draws the last one', () => {
    let t = 0;
    const out: string[] = [];
    const p = createProgress('v', 5, (s) => out.push(s), () => t, 100);
    for (let i = 0; i < 5; i++) {
      t += 10;
      p.tick(i === 4 ? 'error' : 'pass');
    }
    p.done();
    expect(out.filter((s) => s.startsWith('\r')).length).toBe(3); // first tick, last tick, done
    expect(out[out.length - 2]).toContain('5/5 pass 4 fail 0 error 1');
    expect(out[out.length - 1]).toBe('\n');
  });

  it('is drawn on a terminal and absent otherwise', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    const args = ['evaluate', '--standalone', '--mock', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--force'];
    const tty = await whet(args, { cwd: dir, tty: true });
    expect(tty.stderr).toMatch(/baseline \[#+\] 10\/10 pass 7 fail 3 error 0/);
    const pipe = await whet(args, { cwd: dir });
    expect(pipe.stderr).not.toMatch(/\[#/);
    expect(pipe.stderr).toMatch(/baseline: 10 engine calls for 10 task attempts/);
  });
});
