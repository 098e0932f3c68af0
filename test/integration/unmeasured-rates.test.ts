// Issue 28 §2: a rate over nothing judged was not measured. It is stored as null (evaluation.json, the
// run manifest's summary) and shown as "—" (the evaluate summary, status, show, every report format),
// never as 0.0000 with an interval of [0, 1].
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, whet, write } from '../support/cli.js';

function project(): string {
  const dir = tempDir();
  // An agent that always fails: every attempt is an engine error, so nothing is judged.
  const agent = write(join(dir, 'agent.cjs'), 'process.stderr.write("no model here\\n");\nprocess.exit(1);\n');
  write(join(dir, 'pipeline.yaml'), `state_dir: state\nengine: {type: command, command: ["${process.execPath}", "${agent}"]}\n`);
  write(join(dir, 'skill/SKILL.md'), '---\nname: notes\ndescription: Writes notes.\n---\n# Notes\n\nWrite notes.\n');
  write(join(dir, 'skill/tasks.yaml'), 'skill_id: notes\nversion: "1.0"\ntasks:\n  - {id: a, prompt: "write notes", judge: {type: contains, expected: [notes]}}\n  - {id: b, prompt: "more notes", judge: {type: contains, expected: [notes]}}\n');
  return dir;
}

describe('rates over nothing judged', () => {
  it('are null in the artifact and the run manifest, and "—" in the summary, status, show and reports', async () => {
    const dir = project();
    const args = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill'];
    const r = await whet(args, { cwd: dir });
    expect(r.code).toBe(3);
    const all = r.stdout + r.stderr;
    expect(all).toMatch(/pass rate — \(0\/0 judged\) 95% CI —/);
    expect(all).not.toMatch(/0\.0000 \(0\/0/);
    const runs = join(dir, 'state/runs');
    const runId = readdirSync(runs)[0]!;
    const ev = JSON.parse(readFileSync(join(runs, runId, 'evaluation.json'), 'utf8'));
    expect(ev.evaluation).toMatchObject({ pass_rate: null, pass_rate_ci95: null, passed: 0, failed: 0, errors: 2 });
    const manifest = JSON.parse(readFileSync(join(runs, runId, 'run.json'), 'utf8'));
    expect(manifest.summary.pass_rate ?? null).toBeNull();
    // One count of calls: the summary names engine and judge calls and their sum, which status repeats.
    const calls = /(\d+) call\(s\): engine (\d+) · judge (\d+) · generator 0/.exec(all);
    expect(calls && Number(calls[2]) + Number(calls[3])).toBe(Number(calls?.[1]));
    expect(ev.evaluation.engine_calls + ev.evaluation.judge_calls).toBe(Number(calls?.[1]));
    expect((await whet(['status'], { cwd: dir })).stdout).toContain(calls![0]);
    for (const cmd of [['status'], ['show', runId]]) {
      const out = (await whet(cmd, { cwd: dir })).stdout;
      expect(out, cmd.join(' ')).not.toMatch(/0\.0000/);
    }
    const md = (await whet(['report', runId], { cwd: dir })).stdout;
    expect(md).toMatch(/\| skill notes \| 0 \| 0 \| 2 \| — \| — \|/);
    expect(md).not.toMatch(/0\.0000/);
    const junit = (await whet(['report', runId, '--format', 'junit'], { cwd: dir })).stdout;
    expect(junit).toContain('<property name="whetstone.pass_rate" value="—"/>');
  });
});
