// Every night measures: `whet nightly` calls the engine for every task of every target each time (counted
// by the agent program itself, not by whetstone), never serves a night from the baseline cache or from an
// unfinished earlier run, still refreshes that cache for the loop, and says plainly when the results moved
// while the skill, the suite and the config did not.
import { describe, expect, it } from 'vitest';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, whet, write } from '../support/cli.js';

// A real agent program: echoes what it is sent (skill + prompt), logs one line per call, and — while the
// file `model` beside it says "v2" — answers the tasks listed there without the skill's guidance. Its
// path and arguments never change, so the engine's configuration (and its hash) stays the same.
const AGENT = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const task = process.env.WHET_TASK_ID || '';
  fs.appendFileSync(path.join(__dirname, 'calls.log'), task + '\\n');
  let model = '';
  try { model = fs.readFileSync(path.join(__dirname, 'model'), 'utf8').trim(); } catch {}
  const [version, list] = model.split(':');
  const listed = (list || '').split(',').includes(task);
  if (version === 'down' && listed) process.exit(1);
  if (version === 'v2' && listed) process.stdout.write('I cannot help with that.');
  else process.stdout.write(input);
});
`;

function project(): { dir: string; calls: () => string[]; model: (m: string) => void } {
  const dir = tempDir();
  const agent = write(join(dir, 'agent/agent.cjs'), AGENT);
  chmodSync(agent, 0o755);
  write(join(dir, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = Array.from({ length: 8 }, (_, i) => `  - {id: n${i}, category: ${i % 2 ? 'a' : 'b'}, prompt: "note ${i}", judge: {type: contains, expected: ["ticket number"]}}`);
  write(join(dir, 'skills/notes/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${agent}"]}\ntargets: [{skill: skills/notes}]\n`);
  const log = join(dir, 'agent/calls.log');
  return {
    dir,
    calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean) : []),
    model: (m: string) => writeFileSync(join(dir, 'agent/model'), m),
  };
}

const night = (d: number) => () => new Date(2026, 10, d, 3);

describe('whet nightly measures every night', () => {
  it('calls the engine for every task on two consecutive nights, and the loop still gets the cache', async () => {
    const p = project();
    const n1 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(1) });
    expect(n1.code, n1.stderr).toBe(0);
    expect(p.calls()).toHaveLength(8);
    const n2 = await whet(['nightly'], { cwd: p.dir, now: night(2) });
    expect(n2.code, n2.stderr).toBe(0);
    // The agent itself saw every task again: nothing was served from the cache.
    expect(p.calls()).toHaveLength(16);
    expect([...new Set(p.calls().slice(8))].sort()).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7']);
    expect(n2.stdout).toMatch(/^Engine calls tonight: 8 for 8 task\(s\) over 1 target\(s\); every task is measured each night/m);
    expect(n2.stdout).toMatch(/- engine calls tonight: 8; run /);
    expect(n2.stdout).not.toMatch(/baseline cache: nothing changed/);
    const day = JSON.parse(readFileSync(join(p.dir, 'state/nightly/2026-11-02.json'), 'utf8'));
    expect(day.engine_calls).toBe(8);
    const run = JSON.parse(readFileSync(join(p.dir, 'state/runs', day.targets[0].run_id, 'evaluation.json'), 'utf8'));
    expect(run.evaluation.cache).toMatchObject({ hit: false, why: 'not read: nightly measures every task', stored: true });
    // The nightly refreshed the cache: the loop's baseline (here a standalone evaluation) makes no call.
    const ev = await whet(['evaluate', '--standalone', '--task-suite', 'skills/notes/tasks.yaml', '--skill-path', 'skills/notes', '--json'], { cwd: p.dir, now: night(2) });
    expect(ev.code, ev.stderr).toBe(0);
    expect(JSON.parse(ev.stdout).evaluation.cache.hit).toBe(true);
    expect(p.calls()).toHaveLength(16);
  });

  it('never resumes an earlier unfinished run: a night after an incomplete one calls for every task', async () => {
    const p = project();
    // Night 1's engine fails two tasks, so its run stays "incomplete" (what whet evaluate would resume).
    p.model('down:n1,n2');
    const n1 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(1) });
    const run1 = JSON.parse(n1.stdout).targets[0].run_id;
    expect(JSON.parse(readFileSync(join(p.dir, 'state/runs', run1, 'run.json'), 'utf8')).status).toBe('incomplete');
    p.model('');
    const before = p.calls().length;
    const n2 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(2) });
    expect(n2.code, n2.stderr).toBe(0);
    expect(p.calls().length - before).toBe(8);
    expect(JSON.parse(n2.stdout).targets[0].run_id).not.toBe(run1);
    const n3 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(3) });
    expect(JSON.parse(n3.stdout).targets[0].run_id).not.toBe(JSON.parse(n2.stdout).targets[0].run_id);
    expect(p.calls().length - before).toBe(16);
  });

  it('says plainly that the model or endpoint changed when results move and no hash did', async () => {
    const p = project();
    expect((await whet(['nightly'], { cwd: p.dir, now: night(1) })).code).toBe(0);
    // The same program, arguments and config; the "model" behind it now fails one task.
    p.model('v2:n3');
    const n2 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(2) });
    const t = JSON.parse(n2.stdout).targets[0];
    expect(t.drift).toMatchObject({ regressions: ['n3'], engine_behaviour_changed: true });
    expect(t.drift.cause).toBe('results changed while skill, suite and config did not (same content hashes): the model or endpoint behind the engine changed');
    const md = readFileSync(join(p.dir, 'state/nightly/2026-11-02.md'), 'utf8');
    expect(md).toMatch(/## Results changed, nothing else did\n\n- \*\*.*notes\*\*: results changed while skill, suite and config did not .* \(since 2026-11-01 .*: fixed 0, regressed 1\)\./);
    // A change of config is named as the cause instead.
    p.model('');
    write(join(p.dir, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number, and the owner.\n');
    const n3 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(3) });
    const t3 = JSON.parse(n3.stdout).targets[0];
    expect(t3.drift.engine_behaviour_changed).toBe(false);
    expect(t3.drift.cause).toMatch(/^skill changed/);
  });
});
