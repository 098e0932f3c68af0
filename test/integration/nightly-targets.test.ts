// `whet nightly` beyond the basic drift bar: targets identified by skill + suite + engine, engine failures,
// changed settings named as the cause, the trend table, the exported schemas, the local date, progress.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { fixturesBin, readJson, tempDir, whet, write } from '../support/cli.js';

const echo = join(fixturesBin, 'echo-agent');
// Local 03:00 on day d of November 2026: the nightly file is named for the local date on any machine.
const night = (d: number) => () => new Date(2026, 10, d, 3);

function project(pipeline = `targets: [{skill: skills/notes}]`, engine = `{type: command, command: ["${echo}"]}`): string {
  const dir = tempDir();
  write(join(dir, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `  - {id: ${prefix}${i}, category: ${i % 2 ? 'a' : 'b'}, prompt: "note ${i}", judge: {type: contains, expected: ["ticket number"]}}`).join('\n');
  write(join(dir, 'skills/notes/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks('n', 4)}\n`);
  write(join(dir, 'skills/notes/tasks-b.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks('b', 3)}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: ${engine}\n${pipeline}\n`);
  return dir;
}

const nightly = async (dir: string, d: number, extra: { tty?: boolean } = {}) => {
  const r = await whet(['nightly', '--json'], { cwd: dir, now: night(d), ...extra });
  return { ...r, json: r.stdout.trim().startsWith('{') ? JSON.parse(r.stdout) : undefined };
};

describe('whet nightly targets and history', () => {
  it('evaluates the same skill with two suites as two targets, each compared with its own history', async () => {
    const dir = project('targets: [{skill: skills/notes}, {skill: skills/notes, suite: skills/notes/tasks-b.yaml}]');
    const n1 = await nightly(dir, 1);
    expect(n1.code, n1.stderr).toBe(0);
    expect(n1.json.targets).toHaveLength(2);
    expect(n1.json.targets.map((t: any) => t.label)).toEqual([expect.stringMatching(/\[suite tasks\.yaml, target \w{8}\]$/), expect.stringMatching(/\[suite tasks-b\.yaml, target \w{8}\]$/)]);
    const n2 = await nightly(dir, 2);
    expect(n2.json.targets.map((t: any) => t.drift.tasks_compared)).toEqual([4, 3]);
    const keys = readFileSync(join(dir, 'state/nightly/history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).target_key);
    expect(keys[0]).toBe(keys[2]);
    expect(keys[1]).toBe(keys[3]);
    expect(keys[0]).not.toBe(keys[1]);
  });

  it('reports a night where every task errored as an engine failure (exit 3), and the next night skips it', async () => {
    const dir = project();
    expect((await nightly(dir, 1)).code).toBe(0);
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(dir, 'no-such-agent')}"]}\ntargets: [{skill: skills/notes}]\n`);
    const dead = await whet(['nightly'], { cwd: dir, now: night(2) });
    expect(dead.code).toBe(3);
    expect(dead.stdout).toMatch(/## ⚠ Engine failed\n\n- \*\*.*notes\*\*: engine failed: nothing was judged \(4 of 4 task\(s\) errored\)/);
    expect(dead.stdout).not.toMatch(/Drift alert|significant drop/);
    expect(dead.stdout).toMatch(/pass rate — \(0\/0 judged\), 95% CI —/);
    expect(dead.stdout).toMatch(/on 0 task\(s\) judged both nights: .*; pass rate change —/);
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${echo}"]}\ntargets: [{skill: skills/notes}]\n`);
    const back = await nightly(dir, 3);
    expect(back.code).toBe(0);
    expect(back.json.targets[0].drift).toMatchObject({ compared_with: expect.stringMatching(/^2026-11-01 /), tasks_compared: 4, engine_failed: false });
  });

  it('names a changed pass_k or task timeout as the cause instead of the model', async () => {
    const dir = project();
    await nightly(dir, 1);
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${echo}"]}\ntargets: [{skill: skills/notes}]\nevaluate: {pass_k: 2, task_timeout: 5m}\n`);
    const n2 = await nightly(dir, 2);
    expect(n2.json.targets[0].drift.cause).toMatch(/^evaluation settings \(pass_k 1 → 2, task timeout \d+s → 300s\) changed, skill, suite and engine unchanged$/);
  });

  it('adds a trend of the last nights to the dated report', async () => {
    const dir = project();
    for (const d of [1, 2, 3]) await nightly(dir, d);
    const md = readFileSync(join(dir, 'state/nightly/2026-11-03.md'), 'utf8');
    expect(md).toContain('| night | pass rate | judged | errors |\n|---|---:|---:|---:|\n| 2026-11-03 | 1.0000 | 4/4 | 0 |\n| 2026-11-02 | 1.0000 | 4/4 | 0 |\n| 2026-11-01 | 1.0000 | 4/4 | 0 |\n');
  });

  it('writes a day file and history lines that validate against the exported schemas', async () => {
    const dir = project();
    await nightly(dir, 1);
    await nightly(dir, 2);
    const out = join(dir, 'schemas');
    expect((await whet(['schemas', '--out', out], { cwd: dir })).code).toBe(0);
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const day = ajv.compile(readJson(join(out, 'nightly.schema.json')));
    const line = ajv.compile(readJson(join(out, 'nightly-history.schema.json')));
    const file = readJson(join(dir, 'state/nightly/2026-11-02.json'));
    expect(day(file), JSON.stringify(day.errors?.[0])).toBe(true);
    for (const l of readFileSync(join(dir, 'state/nightly/history.jsonl'), 'utf8').trim().split('\n')) expect(line(JSON.parse(l)), JSON.stringify(line.errors?.[0])).toBe(true);
    expect(day({ ...file, targets: [{ ...file.targets[0], drift: { ...file.targets[0].drift, engine_failed: 'no' } }] })).toBe(false);
  });

  it('names the nightly file for the local date, not the UTC one', async () => {
    const dir = project();
    const tz = process.env.TZ;
    process.env.TZ = 'Pacific/Auckland'; // UTC+13 in November: 12:00Z on the 1st is 01:00 on the 2nd there
    try {
      const late = await whet(['nightly', '--json'], { cwd: dir, now: () => new Date('2026-11-01T12:00:00Z') });
      expect(late.code, late.stderr).toBe(0);
      expect(JSON.parse(late.stdout).date).toBe('2026-11-02');
      expect(readJson(join(dir, 'state/nightly/2026-11-02.json')).date).toBe('2026-11-02');
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });

  it('draws the progress bar on a terminal only', async () => {
    const dir = project();
    const tty = await whet(['baseline', '--force'], { cwd: dir, tty: true });
    expect(tty.stderr).toMatch(/\r\x1b\[2Kbaseline \[#+\] 4\/4 pass 4 fail 0 error 0/);
    const pipe = await whet(['baseline', '--force'], { cwd: dir });
    expect(pipe.stderr).not.toContain('\r\x1b[2K');
  });
});
