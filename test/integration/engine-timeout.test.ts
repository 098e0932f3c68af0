// An engine's `timeout_seconds` is the default limit of the tasks it runs (a task's own timeout_seconds
// still wins) and the limit of judge calls on a judge engine; evaluate.task_timeout applies otherwise.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { prepare } from '../../src/measure/setup.js';
import { findFiles, fixturesBin, tempDir, whet, write } from '../support/cli.js';
import { readFileSync } from 'node:fs';

const HANG = `["${process.execPath}", "-e", "setTimeout(() => {}, 120000)"]`;
const SUITE = 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: plain\n    prompt: hi\n    judge: {type: contains, expected: ["x"]}\n  - id: own\n    prompt: hi\n    timeout_seconds: 7\n    judge: {type: contains, expected: ["x"]}\n';

function project(pipeline: string) {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '---\nname: s\ndescription: d\n---\n# S\n');
  write(join(dir, 'tasks.yaml'), SUITE);
  write(join(dir, 'pipeline.yaml'), pipeline);
  return dir;
}

describe('engine timeout_seconds', () => {
  it('is the default per-task limit, under a task that sets its own', async () => {
    const dir = project(`engine: {type: command, command: ["echo"], timeout_seconds: 3}\nevaluate: {task_timeout: 10m}\n`);
    const p = await prepare({ cwd: dir, env: process.env, now: () => new Date(), log: () => {}, source: { taskSuite: 'tasks.yaml' } });
    expect(p.suite.tasks.map((t) => [t.id, t.timeoutMs])).toEqual([['plain', 3000], ['own', 7000]]);
  });

  it('stops a hanging command engine at its own limit, not at evaluate.task_timeout', async () => {
    const dir = project(`engine: {type: command, command: ${HANG}, timeout_seconds: 0.5}\nevaluate: {task_timeout: 10m}\n`);
    write(join(dir, 'tasks.yaml'), SUITE.split('  - id: own')[0]!);
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill'], { cwd: dir });
    expect(r.code).toBe(3);
    const [file] = findFiles(join(dir, 'state/runs'), 'baseline.jsonl');
    const line = JSON.parse(readFileSync(file!, 'utf8').trim().split('\n')[0]!);
    expect(line).toMatchObject({ status: 'error', error: { kind: 'timeout' } });
  }, 20_000);

  it('limits judge calls on a hanging judge engine', async () => {
    const dir = project(`engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\njudge_engine: {type: command, command: ${HANG}, timeout_seconds: 0.5}\nevaluate: {task_timeout: 10m}\n`);
    write(join(dir, 'tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: graded\n    prompt: hi\n    judge: {type: llm-rubric, rubric: "says hi"}\n');
    await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill'], { cwd: dir });
    const [file] = findFiles(join(dir, 'state/runs'), 'baseline.jsonl');
    const line = JSON.parse(readFileSync(file!, 'utf8').trim().split('\n')[0]!);
    expect(line.status).toBe('error');
    expect(line.reason).toMatch(/judge engine failed \(timeout\)/);
  }, 20_000);
});
