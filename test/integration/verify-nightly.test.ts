// `whet verify` checks what `whet nightly` keeps (src/inspect/verify-nightly.ts): nightly/history.jsonl line
// by line and every day file whole, each parsed and held to its schema, a damage named at file:line(:col);
// `whet verify --repair` moves the bad lines and files to nightly/superseded/, after which the state is
// clean and the next night runs against the nights that remain.
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readJson, tempDir, whet, write } from '../support/cli.js';

function project(): string {
  const dir = tempDir('whet-verify-nightly-');
  write(join(dir, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = Array.from({ length: 4 }, (_, i) => `  - {id: n${i}, prompt: "note ${i}", judge: {type: contains, expected: ["ticket number"]}}`);
  write(join(dir, 'skills/notes/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  // The mock engine: nights in-process, quickly; what is checked is the files they leave.
  write(join(dir, 'pipeline.yaml'), 'engine: {type: mock}\ntargets: [{skill: skills/notes}]\n');
  return dir;
}

const night = (dir: string, day: number) => whet(['nightly'], { cwd: dir, now: () => new Date(2026, 10, day, 3) });

describe('whet verify: the nightly records', () => {
  it('names a bad history line at its line and a damaged day file at file:line:col; --repair moves them aside and the next night runs', { timeout: 120_000 }, async () => {
    const dir = project();
    for (const day of [1, 2, 3]) expect((await night(dir, day)).code).toBe(0);
    const nightly = join(dir, 'state/nightly');
    const clean = await whet(['verify'], { cwd: dir });
    expect(clean.code, clean.stdout).toBe(0);
    expect(clean.stdout).toMatch(/clean: 3 run\(s\) and the shared files verified/);

    // A line that is not JSON between two good ones, and one that parses but is no history line.
    const history = join(nightly, 'history.jsonl');
    const lines = readFileSync(history, 'utf8').trim().split('\n');
    const broken = { ...JSON.parse(lines[2]!), pass_rate: 'high' };
    writeFileSync(history, `${lines[0]}\nnot json\n${lines[1]}\n${JSON.stringify(broken)}\n${lines[2]}\n`);
    // Day 2 cut short; day 3 with a task status no night records.
    const day2 = join(nightly, '2026-11-02.json');
    writeFileSync(day2, readFileSync(day2, 'utf8').slice(0, 400));
    const day3 = join(nightly, '2026-11-03.json');
    const d3 = readJson(day3);
    d3.targets[0].tasks[1].status = 'maybe';
    writeFileSync(day3, `${JSON.stringify(d3, null, 2)}\n`);
    appendFileSync(join(nightly, 'cron.log'), 'a log is not a record\n');

    const r = await whet(['verify'], { cwd: dir });
    expect(r.code, r.stdout).toBe(1);
    expect(r.stdout).toMatch(/^DAMAGED \S*nightly\/history\.jsonl:2:1: garbage: nightly\/history\.jsonl line 2 is not JSON/m);
    expect(r.stdout).toMatch(/^DAMAGED \S*nightly\/history\.jsonl:4:1: garbage: nightly\/history\.jsonl line 4 does not match its schema: pass_rate: /m);
    expect(r.stdout).toMatch(/^DAMAGED \S*nightly\/2026-11-02\.json:\d+:\d+: unparsable: the night record nightly\/2026-11-02\.json is not valid JSON \(it ends early: cut short\)/m);
    // The schema's complaint placed at the field itself.
    const at = /^DAMAGED \S*nightly\/2026-11-03\.json:(\d+):(\d+): schema: .*targets\[0\]\.tasks\[1\]\.status/m.exec(r.stdout);
    expect(at, r.stdout).not.toBeNull();
    expect(readFileSync(day3, 'utf8').split('\n')[Number(at![1]) - 1]).toMatch(/"status": "maybe"/);
    expect(r.stdout).not.toMatch(/cron\.log|2026-11-01\.json/);
    expect(r.stdout).toMatch(/4 problem\(s\) in 0 of 3 run\(s\) and 4 in shared files/);
    expect(r.stdout).toMatch(/→ "whet verify --repair" moves the bad lines to nightly\/superseded\//);

    const repaired = await whet(['verify', '--repair'], { cwd: dir });
    expect(repaired.code, repaired.stdout).toBe(0);
    expect(repaired.stdout).toMatch(/repaired moved 2 bad line\(s\) of nightly\/history\.jsonl to nightly\/superseded\//);
    expect(repaired.stdout).toMatch(/repaired moved nightly\/2026-11-02\.json to nightly\/superseded\//);
    expect(repaired.stdout).toMatch(/after repair: clean/);
    // Nothing a resume measures again: the nightly records belong to no run.
    expect(repaired.stdout).not.toMatch(/whet resume/);
    expect(readFileSync(history, 'utf8').trim().split('\n')).toEqual(lines);
    expect(readdirSync(join(nightly, 'superseded'))).toHaveLength(3);
    expect(existsSync(day2) || existsSync(day3)).toBe(false);

    // The next night compares with the one night left whole.
    const next = await night(dir, 4);
    expect(next.code, next.stderr).toBe(0);
    expect(readJson(join(nightly, '2026-11-04.json')).targets[0].drift.compared_with).toMatch(/^2026-11-01/);
    expect((await whet(['verify'], { cwd: dir })).code).toBe(0);
  });
});
