import { describe, expect, it } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { copyExample, findFiles, fixturesBin, readJson, tempDir, whet, write } from '../support/cli.js';

const calls = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).task as string) : []);

describe('budgets', () => {
  it('a budget of N engine calls stops a standalone run after exactly N calls; it resumes once raised', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'skill'));
    const log = join(dir, 'calls.log');
    const cfg = (n: number) => write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nbudgets: {max_engine_calls: ${n}}\nevaluate: {concurrency: 3}\n`);
    const env = { ...process.env, AGENT_LOG: log };
    const args = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill'];
    cfg(4);
    const first = await whet(args, { cwd: dir, env });
    expect(first.code).toBe(1);
    expect(first.stdout).toMatch(/budget exhausted \(engine calls: 4 of max_engine_calls 4 used\)/);
    expect(calls(log)).toHaveLength(4);
    expect(readJson(findFiles(join(dir, 'state/runs'), 'run.json')[0]!).status).toBe('budget_exhausted');
    const again = await whet(args, { cwd: dir, env });
    expect(again.code).toBe(1);
    expect(calls(log)).toHaveLength(4);
    cfg(100);
    const raised = await whet([...args, '--json'], { cwd: dir, env });
    expect(raised.code, raised.stderr).toBe(0);
    expect(calls(log)).toHaveLength(10);
    expect(new Set(calls(log)).size).toBe(10);
    expect(JSON.parse(raised.stdout).evaluation).toMatchObject({ engine_calls: 6, resumed_attempts: 4, total_tasks: 10 });
    const status = await whet(['status'], { cwd: dir });
    expect(status.stdout).toMatch(/10 call\(s\): engine 10 · judge 0 · generator 0/);
  });

  it('stops a loop run at the budget and continues it with whet resume after raising it', async () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'release-notes'));
    const cfg = (n: number) =>
      write(
        join(dir, 'pipeline.yaml'),
        `engine: {type: mock}\ntargets: [{skill: release-notes, suite: release-notes/tasks.yaml}]\nloop: {max_iterations: 3, proposers: [feedback, structural]}\nbudgets: {max_engine_calls: ${n}}\n`,
      );
    cfg(15);
    const r = await whet(['run'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/run budget_exhausted: budget exhausted \(engine calls: 15 of max_engine_calls 15 used\)/);
    const runId = r.stdout.match(/^run (\S+)/m)![1]!;
    expect(readJson(join(dir, 'state/runs', runId, 'run.json')).status).toBe('budget_exhausted');
    cfg(1000);
    const resumed = await whet(['resume', runId], { cwd: dir });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/gate: KEEP/);
  });
});
