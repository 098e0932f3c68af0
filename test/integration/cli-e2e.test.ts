// End-to-end: the real CLI as a separate process, as a user (or a killer) meets it.
import { describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { copyExample, findFiles, fixturesBin, repoRoot, tempDir, whetBin, write } from '../support/cli.js';

// The shipped bin (the bundle), so what users run is what these tests kill, resume and read.
const cli = whetBin;

function tasks(n: number): string {
  const lines = ['skill_id: slow', 'version: "1.0"', 'tasks:'];
  for (let i = 0; i < n; i++) lines.push(`  - {id: t${String(i).padStart(3, '0')}, prompt: "task ${i}", judge: {type: contains, expected: ["${i % 3 === 0 ? 'nowhere' : 'Slow skill'}"]}}`);
  return `${lines.join('\n')}\n`;
}

function slowProject(n: number, sleepMs: number): { dir: string; env: NodeJS.ProcessEnv; log: string } {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '# Slow skill\nAnswer slowly.\n');
  write(join(dir, 'tasks.yaml'), tasks(n));
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {concurrency: 4}\n`);
  const log = join(dir, 'calls.log');
  return { dir, log, env: { ...process.env, AGENT_SLEEP_MS: String(sleepMs), AGENT_LOG: log } };
}

const ARGS = ['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state'];

function resultLines(dir: string): { task_id: string; attempt: number; status: string }[] {
  if (!existsSync(join(dir, 'state/runs'))) return [];
  const files = findFiles(join(dir, 'state/runs'), 'baseline.jsonl');
  return files.flatMap((f) => readFileSync(f, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)));
}

const callLog = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l).task as string) : []);

describe('whet CLI (spawned)', () => {
  it('runs the README demo command and the stage program on its own', () => {
    const dir = tempDir();
    copyExample('release-notes', join(dir, 'examples/release-notes'));
    write(join(dir, 'pipeline.yaml'), readFileSync(join(repoRoot, 'pipeline.yaml'), 'utf8'));
    const r = spawnSync(process.execPath, [cli, 'evaluate', '--standalone', '--task-suite', 'examples/release-notes/tasks.yaml', '--skill-path', 'examples/release-notes'], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/pass rate 0\.7000 \(7\/10 judged\)/);
    expect(r.stdout).toMatch(/artifact: state\/runs\/.*\/evaluation\.json/);
    const stage = spawnSync(process.execPath, [join(repoRoot, 'dist/stages/evaluate/main.js'), '--standalone', '--task-suite', 'examples/release-notes/tasks.yaml', '--skill-path', 'examples/release-notes', '--json'], { cwd: dir, encoding: 'utf8' });
    expect(stage.status, stage.stderr).toBe(0);
    expect(JSON.parse(stage.stdout).evaluation).toMatchObject({ engine_calls: 0, cache: { hit: true } });
  });

  it('exits 2 with file:line:col on bad input', () => {
    const dir = tempDir();
    write(join(dir, 'skill/SKILL.md'), '# S\n');
    write(join(dir, 'tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - id: a\n    prompt: p\n    judge: {type: contains, expected: "x"}\n');
    const r = spawnSync(process.execPath, [cli, ...ARGS, '--mock'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^whet: tasks\.yaml:6:39 tasks\[0\]\.judge\.expected: .*expected array/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
  });

  it('finishes after kill -9 without running any finished task again, and every artifact parses', async () => {
    const { dir, env, log } = slowProject(40, 60);
    const first = spawn(process.execPath, [cli, ...ARGS], { cwd: dir, env, stdio: 'ignore' });
    for (let i = 0; i < 200 && resultLines(dir).length < 12; i++) await sleep(25);
    first.kill('SIGKILL');
    await new Promise((r) => first.on('exit', r));
    // Agents already running finish as orphans; their calls are in the log, not in results. Wait until
    // the log stops growing, so the count below holds on a loaded machine too.
    // An orphan can start late on a busy machine, so the log must hold still for 1.5 s, not one poll.
    for (let seen = -1, still = 0, i = 0; i < 200 && still < 5; i++) {
      const now = callLog(log).length;
      still = now === seen ? still + 1 : 0;
      seen = now;
      await sleep(300);
    }
    const doneBefore = new Set(resultLines(dir).map((l) => l.task_id));
    expect(doneBefore.size).toBeGreaterThanOrEqual(12);
    expect(doneBefore.size).toBeLessThan(40);
    const callsBefore = callLog(log).length;

    const second = spawnSync(process.execPath, [cli, ...ARGS], { cwd: dir, env, encoding: 'utf8' });
    expect(second.status, second.stderr).toBe(0);
    const rerun = callLog(log).slice(callsBefore);
    for (const t of rerun) expect(doneBefore.has(t), `finished task ${t} ran again`).toBe(false);
    expect(new Set([...doneBefore, ...rerun]).size).toBe(40);
    const lines = resultLines(dir);
    expect(lines).toHaveLength(40);
    expect(new Set(lines.map((l) => `${l.task_id}#${l.attempt}`)).size).toBe(40);
    for (const f of [...findFiles(join(dir, 'state'), 'evaluation.json'), ...findFiles(join(dir, 'state'), 'run.json')]) expect(() => JSON.parse(readFileSync(f, 'utf8'))).not.toThrow();
    const evaluation = JSON.parse(readFileSync(findFiles(join(dir, 'state'), 'evaluation.json')[0]!, 'utf8'));
    expect(evaluation.evaluation).toMatchObject({ total_tasks: 40, passed: 26, failed: 14, errors: 0 });
    expect(evaluation.evaluation.resumed_attempts).toBe(doneBefore.size);

    // The interrupted-and-resumed run ends where an uninterrupted one does, task by task, and its
    // engine calls add up to one per task plus only the attempts that were in flight at the kill.
    const clean = slowProject(40, 0);
    const straight = spawnSync(process.execPath, [cli, ...ARGS], { cwd: clean.dir, env: clean.env, encoding: 'utf8' });
    expect(straight.status, straight.stderr).toBe(0);
    const reference = JSON.parse(readFileSync(findFiles(join(clean.dir, 'state'), 'evaluation.json')[0]!, 'utf8'));
    const verdicts = (e: { task_results: { task_id: string; status: string; score: number }[] }) => e.task_results.map((t) => `${t.task_id}:${t.status}:${t.score}`).sort();
    expect(verdicts(evaluation)).toEqual(verdicts(reference));
    expect(evaluation.evaluation).toMatchObject({ passed: reference.evaluation.passed, failed: reference.evaluation.failed, pass_rate: reference.evaluation.pass_rate });
    expect(callLog(log).length - 40).toBe(callsBefore - doneBefore.size);
  });

  it('refuses a second process on the same state directory with a clear message', async () => {
    // 20 calls of 1 s, four at a time: the first holds the lock for 5 s at least, time for a second to start.
    const { dir, env } = slowProject(20, 1000);
    const first = spawn(process.execPath, [cli, ...ARGS], { cwd: dir, env, stdio: 'ignore' });
    for (let i = 0; i < 200 && !existsSync(join(dir, 'state/lock/owner.json')); i++) await sleep(20);
    const second = spawnSync(process.execPath, [cli, ...ARGS], { cwd: dir, env, encoding: 'utf8' });
    expect(second.status).toBe(3);
    expect(second.stderr).toMatch(new RegExp(`state directory .*state is in use by pid ${first.pid} .*whet evaluate --standalone`));
    const code = await new Promise((r) => first.on('exit', r));
    expect(code).toBe(0);
    expect(readdirSync(join(dir, 'state'))).not.toContain('lock');
  });

  it('runs the claude preset against a fake claude on PATH, counting its failures as errors', () => {
    const dir = tempDir();
    write(join(dir, 'skill/SKILL.md'), '# Notes skill\n');
    write(join(dir, 'tasks.yaml'), 'skill_id: s\nversion: "1.0"\ntasks:\n  - {id: a, prompt: hi, judge: {type: contains, expected: ["fake answer"]}}\n  - {id: b, prompt: yo, judge: {type: contains, expected: ["other"]}}\n');
    write(join(dir, 'pipeline.yaml'), 'engine: {type: claude, model: sonnet, max_turns: 2}\n');
    const log = join(dir, 'claude.log');
    const env = { ...process.env, PATH: `${fixturesBin}:${process.env.PATH}`, FAKE_CLAUDE_LOG: log };
    const ok = spawnSync(process.execPath, [cli, ...ARGS, '--json'], { cwd: dir, env, encoding: 'utf8' });
    expect(ok.status, ok.stderr).toBe(0);
    const a = JSON.parse(ok.stdout);
    expect(a.evaluation).toMatchObject({ passed: 1, failed: 1, errors: 0, engine_calls: 2 });
    expect(a.evaluation.usage.cost_usd).toBeGreaterThan(0);
    const call = JSON.parse(readFileSync(log, 'utf8').split('\n')[0]!);
    expect(call.argv).toEqual(expect.arrayContaining(['-p', '--output-format', 'json', '--model', 'sonnet', '--max-turns', '2']));
    expect(call.stdin.startsWith('# Notes skill\n')).toBe(true);
    expect(call.cwd).not.toBe(dir);
    const bad = spawnSync(process.execPath, [cli, ...ARGS, '--force'], { cwd: dir, env: { ...env, FAKE_CLAUDE_MODE: 'exit1' }, encoding: 'utf8' });
    expect(bad.status).toBe(3);
    expect(bad.stdout).toMatch(/verdict: error — no task could be judged: 2 error\(s\)/);
  });
});
