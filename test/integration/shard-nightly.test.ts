// `whet baseline|nightly --shard i/n` (issue 16): every target split across machines, then `whet merge`
// (per target) or `whet nightly --merge` (the night's report) gives what the unsharded command gives;
// a night whose shards leave out a target is refused before anything is written.
// long-running: spawns sharded nightly runs, ≈ 25 s
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

const echo = join(fixturesBin, 'echo-agent');
const night = () => new Date(2026, 10, 3, 3);

function project(): string {
  const dir = tempDir('whet-shard-night-');
  const tasks = (prefix: string, n: number, want: string) =>
    Array.from({ length: n }, (_, i) => `  - {id: ${prefix}${i}, category: ${i % 3 ? 'a' : 'b'}, prompt: "note ${i}", judge: {type: contains, expected: ["${i % 4 ? want : 'absent words'}"]}}`).join('\n');
  write(join(dir, 'skills/notes/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  write(join(dir, 'skills/notes/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks('n', 23, 'ticket number')}\n`);
  write(join(dir, 'skills/mail/SKILL.md'), '# Mail\nSign with the team name.\n');
  write(join(dir, 'skills/mail/tasks.yaml'), `skill_id: mail\nversion: "1.0"\ntasks:\n${tasks('m', 17, 'team name')}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${echo}"]}\nevaluate:\n  pass_k: 2\ntargets: [{skill: skills/notes}, {skill: skills/mail}]\n`);
  return dir;
}

/** A night's targets without what differs between runs (run ids, timings). */
const nightOf = (dir: string, file: string) =>
  (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { targets: Record<string, unknown>[] }).targets.map((t) => {
    const { run_id: _r, summary, ...rest } = t as { run_id: string; summary: Record<string, unknown> };
    const { run_id: _s, ...sum } = summary;
    return { ...rest, summary: sum };
  });

describe('whet baseline|nightly --shard i/n', () => {
  it('three shards of every target, merged by whet nightly --merge, make the unsharded night', async () => {
    const dir = project();
    const plain = await whet(['nightly', '--state-root', 'plain'], { cwd: dir, now: night });
    expect(plain.stderr).not.toMatch(/internal/);
    for (const i of [1, 2, 3]) {
      const r = await whet(['nightly', '--shard', `${i}/3`, '--state-root', `s${i}`], { cwd: dir, now: night });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.match(/^shard \d\/3:/gm)).toHaveLength(2);
      // No night is written by a shard: the report needs every shard.
      expect(existsSync(join(dir, `s${i}/nightly`))).toBe(false);
    }
    // A night from the shards of one target only is refused, naming the other, with nothing written.
    const partial = await whet(['nightly', '--merge', 's1', '--state-root', 'bad'], { cwd: dir, now: night });
    expect(partial.code).toBe(2);
    expect(partial.stderr).toMatch(/shards 2\/3, 3\/3 are missing/);
    expect(existsSync(join(dir, 'bad'))).toBe(false);
    const m = await whet(['nightly', '--merge', 's1', 's2', 's3', '--state-root', 'm'], { cwd: dir, now: night });
    expect(m.code, m.stderr).toBe(plain.code);
    const day = /written: (\S+)/.exec(plain.stdout)![1]!.replace(`${dir}/`, '');
    expect(nightOf(dir, day.replace(/^plain/, 'm'))).toEqual(nightOf(dir, day));
  }, 120_000);

  it('a shard fans out over the targets as whet baseline does: on a terminal each target draws its progress', async () => {
    // One fan-out (src/nightly/baseline.ts forEachTarget) for both: a shard once got no progress output.
    const dir = project();
    const bars = (stderr: string) => stderr.split('\r').filter((l) => l.startsWith('\x1b[2K')).length;
    const plain = await whet(['baseline', '--state-root', 'p'], { cwd: dir, tty: true });
    expect(plain.code, plain.stderr).toBe(0);
    const shard = await whet(['baseline', '--shard', '1/2', '--state-root', 's'], { cwd: dir, tty: true });
    expect(shard.code, shard.stderr).toBe(0);
    expect(bars(plain.stderr)).toBeGreaterThan(0);
    expect(bars(shard.stderr)).toBeGreaterThan(0);
    // Without a terminal, neither draws.
    expect(bars((await whet(['baseline', '--shard', '2/2', '--state-root', 's2'], { cwd: dir })).stderr)).toBe(0);
  }, 120_000);

  it('whet baseline --shard, then whet merge: one artifact per target, grouped by target', async () => {
    const dir = project();
    for (const i of [1, 2]) expect((await whet(['baseline', '--shard', `${i}/2`, '--state-root', `b${i}`], { cwd: dir })).code).toBe(0);
    const r = await whet(['merge', 'b1', 'b2', '--state-root', 'bm', '--json'], { cwd: dir });
    expect(r.stderr).not.toMatch(/refusing|internal/);
    const arts = JSON.parse(r.stdout) as { skill_id: string; evaluation: { total_tasks: number; attempts: { total: number } } }[];
    expect(arts.map((a) => [a.skill_id, a.evaluation.total_tasks, a.evaluation.attempts.total]).sort()).toEqual([['mail', 17, 34], ['notes', 23, 46]]);
    // A target's shards without the rest of that target are refused.
    const missing = await whet(['merge', 'b1', '--state-root', 'bx'], { cwd: dir });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/shard 2\/2 is missing/);
  }, 120_000);
});
