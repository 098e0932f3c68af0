// SIGTERM on the real CLI as `timeout 15 whet evaluate …` sends it: the agents in flight (a hanging fake
// claude and its `sleep 300` children) must die with whet, the run must be recorded as interrupted, and
// whet must exit 143. Before SIGTERM was handled, Node died at once and the agent trees ran on.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

import { describe, expect, it } from 'vitest';

import { fixturesBin, repoRoot, tempDir, write } from '../support/cli.js';
import { isAlive, waitAllDead } from '../support/process.js';

const cli = join(repoRoot, 'dist/src/cli.js');

function loggedPids(log: string): number[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter(Boolean)
    .flatMap((l) => (JSON.parse(l) as { pids?: number[] }).pids ?? []);
}

describe('whet CLI and SIGTERM', () => {
  it('kills the agent process trees, records the run as interrupted, and exits 143', async () => {
    const dir = tempDir();
    write(join(dir, 'skill/SKILL.md'), '# Notes skill\n');
    write(join(dir, 'tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - {id: a, prompt: hi, timeout_seconds: 120, judge: {type: contains, expected: ["x"]}}\n  - {id: b, prompt: yo, timeout_seconds: 120, judge: {type: contains, expected: ["x"]}}\n');
    write(join(dir, 'pipeline.yaml'), 'engine: {type: claude}\nevaluate: {concurrency: 2}\n');
    const log = join(dir, 'claude.log');
    const env = { ...process.env, PATH: `${fixturesBin}:${process.env['PATH'] ?? ''}`, HOME: dir, FAKE_CLAUDE_MODE: 'hang', FAKE_CLAUDE_LOG: log };
    const child = spawn(process.execPath, [cli, 'evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state'], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // Both tasks' fakes have started their children and grandchildren (3 PIDs each).
    for (let i = 0; i < 300 && loggedPids(log).length < 6; i++) await sleep(25);
    const pids = loggedPids(log);
    expect(pids).toHaveLength(6);
    expect(pids.every(isAlive)).toBe(true);

    try {
      child.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(10_000).then(() => 'still running')]);
      expect(code, output).toBe(143);
      expect(await waitAllDead(pids)).toEqual([]);
      expect(output).toMatch(/interrupted; run the same command again to resume/);
    } finally {
      // When this test fails, leave no orphan behind on a shared machine.
      for (const pid of [child.pid ?? 0, ...pids].filter((p) => p > 0 && isAlive(p))) process.kill(pid, 'SIGKILL');
    }
  }, 20_000);
});
