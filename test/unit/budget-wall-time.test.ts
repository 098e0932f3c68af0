// max_wall_time limits a run's active time: the running time of its sessions, kept in the run directory,
// never the idle time between an interruption and the resume.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { activeTimeFile, Budget, readActiveMs } from '../../src/evaluation/budget.js';
import { tempDir } from '../support/cli.js';

describe('max_wall_time', () => {
  it('counts the sessions running time, so a run resumed after a long pause still has its remaining time', () => {
    const runDir = join(tempDir(), 'run');
    mkdirSync(runDir, { recursive: true });
    let clock = 1_000_000;
    const now = () => clock;
    const first = Budget.forRun({ maxWallTimeMs: 1000 }, runDir, now);
    expect(first.tryStart()).toBe(true);
    clock += 600;
    first.record(0);
    expect(readActiveMs(activeTimeFile(runDir))).toBe(600);

    clock += 24 * 3600_000; // a day idle between sessions
    const resumed = Budget.forRun({ maxWallTimeMs: 1000 }, runDir, now);
    expect(resumed.activeMs).toBe(600);
    expect(resumed.tryStart()).toBe(true);
    clock += 500;
    expect(resumed.tryStart()).toBe(false);
    expect(resumed.exhausted).toMatch(/max_wall_time 1000 ms of active time reached/);
    expect(readActiveMs(activeTimeFile(runDir))).toBe(1100);
  });
});
