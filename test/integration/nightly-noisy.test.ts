// `whet nightly` on a real noisy agent (issue 27 item 7): a program that passes each task with a chance
// read from a file beside it, call by call. Whether the k-th call of a task passes is fixed by a hash of
// the task and k, so the test sees the same "noise" every run, but whetstone cannot tell it from a model's.
// The second night changes nothing and adds rounds until the drift test says no drift; the third, with the
// agent's chance cut from 0.6 to 0.1, is caught as drift within a few attempts, and both the printed
// summary and `whet report --nightly` say the test, the attempts per task, the effect and the decision.
import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, whet, write } from '../support/cli.js';

const AGENT = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const task = process.env.WHET_TASK_ID || '';
  const chance = Number(fs.readFileSync(path.join(__dirname, 'chance'), 'utf8'));
  // One call of a task at a time (a round is one attempt per task), so its own counter is race-free.
  const counter = path.join(__dirname, 'calls-' + task);
  const k = fs.existsSync(counter) ? Number(fs.readFileSync(counter, 'utf8')) + 1 : 1;
  fs.writeFileSync(counter, String(k));
  fs.appendFileSync(path.join(__dirname, 'calls.log'), task + '\\n');
  const u = crypto.createHash('sha256').update(task + ':' + k).digest().readUInt32BE(0) / 4294967296;
  process.stdout.write(u < chance ? 'the ticket number is cited' : 'no idea');
});
`;

const TASKS = 20;

function project(): { dir: string; chance: (p: number) => void; calls: () => number } {
  const dir = tempDir('whet-noisy-night-');
  const agent = write(join(dir, 'agent/agent.cjs'), AGENT);
  chmodSync(agent, 0o755);
  write(join(dir, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = Array.from({ length: TASKS }, (_, i) => `  - {id: n${i}, category: ${i % 2 ? 'a' : 'b'}, prompt: "note ${i}", judge: {type: contains, expected: ["ticket number"]}}`);
  write(join(dir, 'skills/notes/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  // A drop worth finding of 0.3 keeps the planned reference attempts (and the test's time) small.
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${agent}"]}\nevaluate: {concurrency: 4, max_attempts: 6}\nthresholds: {min_effect: 0.3}\ntargets: [{skill: skills/notes}]\n`);
  const chance = (p: number) => writeFileSync(join(dir, 'agent/chance'), String(p));
  const calls = () => readFileSync(join(dir, 'agent/calls.log'), 'utf8').trim().split('\n').length;
  return { dir, chance, calls };
}

const night = (d: number) => () => new Date(2026, 10, d, 3);

describe('whet nightly on a noisy agent', () => {
  it('adds rounds until the drift test decides: no alert when nothing changed, drift when the agent fell', async () => {
    const p = project();
    p.chance(0.6);
    const n1 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(1) });
    expect(n1.code, n1.stderr).toBe(0);
    const first = JSON.parse(n1.stdout).targets[0];
    // The first night has nothing to compare with: one attempt per task, its counts kept for tomorrow.
    expect(p.calls()).toBe(TASKS);
    expect(first.drift.sequential).toBeUndefined();
    const day1 = JSON.parse(readFileSync(join(p.dir, 'state/nightly/2026-11-01.json'), 'utf8'));
    expect(day1.targets[0].noise).toEqual({ deterministic: false, why: 'command answers may vary from call to call (evaluate.deterministic: auto)' });
    expect(day1.targets[0].tasks[0]).toMatchObject({ task_id: 'n0', attempts: 1, judged: 1 });

    const n2 = await whet(['nightly', '--json'], { cwd: p.dir, now: night(2) });
    expect(n2.code, n2.stderr).toBe(0);
    const second = JSON.parse(n2.stdout);
    const q2 = second.targets[0].drift.sequential;
    expect(second.alert).toBe(false);
    expect(q2).toMatchObject({ decision: 'no drift', previous_attempts: 1, tasks: TASKS });
    expect(q2.attempts).toBeGreaterThan(1);
    expect(q2.reference_attempts).toBeGreaterThan(1);
    expect(q2.looks[0].attempts).toBe(q2.reference_attempts);
    // Every attempt of every round was a real call of the agent, and tonight's engine calls count them.
    expect(p.calls()).toBe(TASKS * (1 + q2.attempts));
    expect(second.engine_calls).toBe(TASKS * q2.attempts);
    const day2 = JSON.parse(readFileSync(join(p.dir, 'state/nightly/2026-11-02.json'), 'utf8'));
    expect(day2.targets[0].tasks.every((t: { attempts: number }) => t.attempts === q2.attempts)).toBe(true);

    p.chance(0.1);
    const n3 = await whet(['nightly'], { cwd: p.dir, now: night(3) });
    expect(n3.code, n3.stderr).toBe(1);
    const day3 = JSON.parse(readFileSync(join(p.dir, 'state/nightly/2026-11-03.json'), 'utf8'));
    const q3 = day3.targets[0].drift.sequential;
    expect(q3).toMatchObject({ decision: 'drift', previous_attempts: q2.attempts });
    expect(q3.effect.effect).toBeLessThan(-0.3);
    expect(q3.effect.high).toBeLessThan(0);
    // A drop this large is decided at the first look, after the reference attempts the plan asked for.
    expect(q3.looks).toHaveLength(1);
    expect(q3.attempts).toBe(q3.reference_attempts);
    expect(q3.settings).toMatchObject({ min_effect: 0.3, max_attempts: 6, significance: 0.01 });
    // The printed summary: the alert with the test's words, and the target's line naming the test.
    expect(n3.stdout).toMatch(/## ⚠ Drift alert\n\n- \*\*.*notes\*\*: drift on a noisy engine: tonight − previous night −0\.\d\d \(95% CI −0\.\d\d to −0\.\d\d\) over 20 task\(s\), after \d+ attempt\(s\) per task tonight \(previous night \d+, max 6\)/);
    expect(n3.stdout).toMatch(/- drift test on a noisy engine \(command answers may vary .*\): Cochran–Mantel–Haenszel score for a drop/);

    const md = (await whet(['report', '--nightly'], { cwd: p.dir })).stdout;
    expect(md).toMatch(/## ⚠ Drift alert/);
    expect(md).toContain(`On this noisy engine the alert is decided by the Cochran–Mantel–Haenszel score for a drop`);
    expect(md).toMatch(new RegExp(`drift: tonight − previous night −0\\.\\d\\d \\(95% CI .*\\) over 20 task\\(s\\), after ${q3.attempts} attempt\\(s\\) per task tonight`));
    const html = (await whet(['report', '--nightly', '--format', 'html'], { cwd: p.dir })).stdout;
    expect(html).toContain(`data-testid="night-noisy" data-decision="drift" data-attempts="${q3.attempts}"`);
    // The night's run in JUnit: what CI dashboards list.
    const xml = (await whet(['report', day3.targets[0].run_id, '--format', 'junit'], { cwd: p.dir })).stdout;
    expect(xml).toContain('<property name="whetstone.nightly.decision" value="drift"/>');
    expect(xml).toContain(`<property name="whetstone.nightly.attempts_per_task" value="${q3.attempts}"/>`);
    expect(xml).toMatch(/<property name="whetstone.nightly.effect" value="-0\.\d+ \[-0\.\d+, -0\.\d+\]"\/>/);
  }, 180_000);
});
