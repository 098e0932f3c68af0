// With the skill against without it (issue 40, item 2): `whet evaluate --standalone --without-skill` on
// the starter measures the same suite with no skill, states the skill's own effect with its interval and
// paired test, shows it in the report, and exports as skill-creator's with_skill / without_skill, which
// skill-creator's own viewer and aggregator read (run unchanged, python3).
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readJson, tempDir, whet } from '../support/cli.js';
import { readBySkillCreator } from '../support/skill-creator.js';
import { readResults, type ResultLine } from '../../src/state/results-log.js';

const noAgents = { ...process.env, PATH: '/nonexistent' };
const runsIn = (dir: string) => readdirSync(join(dir, 'state/runs')).sort();

describe('whet evaluate --standalone --without-skill', () => {
  it('the starter: the skill\'s effect with its interval, in the summary, the report and skill-creator\'s with_skill/without_skill', async () => {
    const dir = tempDir('whet-noskill-');
    expect((await whet(['init'], { cwd: dir, env: noAgents })).code).toBe(0);
    const args = ['evaluate', '--standalone', '--task-suite', 'skills/meeting-notes/tasks.yaml', '--skill-path', 'skills/meeting-notes', '--mock', '--without-skill', '--pass-k', '2'];
    const r = await whet(args, { cwd: dir, env: noAgents });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/without the skill 0\.0000 \(0\/6 judged\) 95% CI \[0\.00, 0\.39\]/);
    expect(r.stdout).toMatch(/the skill's own effect: \+\d+\.\d points, 95% CI \[[+-]\d+\.\d, [+-]\d+\.\d\] points, over 6 task\(s\); pass rate 0\.\d{4} with the skill, 0\.0000 without; \d task\(s\) pass only with it, 0 only without \(exact McNemar p = [\d.]+\); 12 more call\(s\) without the skill/);
    const runId = readJson(join(dir, 'state/runs', (await import('node:fs')).readdirSync(join(dir, 'state/runs'))[0]!, 'run.json')).run_id as string;
    const ev = readJson(join(dir, 'state/runs', runId, 'evaluation.json'));
    const w = ev.without_skill;
    // Computed from what was recorded: the no-skill log holds the answers of an agent given no skill.
    const lines: ResultLine[] = [];
    await readResults(join(dir, 'state/runs', runId, 'results/no-skill.jsonl'), (l) => lines.push(l));
    expect(lines).toHaveLength(12);
    expect(lines.every((l) => l.output === 'I could not find guidance for this request in the skill.')).toBe(true);
    const passedWith = ev.task_results.filter((t: any) => t.status === 'pass').map((t: any) => t.task_id);
    expect(w.paired).toMatchObject({ tasks_compared: 6, fixed: passedWith.length, regressed: 0, both_pass: 0 });
    expect(w.summary).toMatchObject({ passed: 0, failed: 6, pass_rate: 0 });
    // Every attempt agreed on the mock, so the mean per-task difference is the difference of the rates.
    expect(w.effect.effect).toBeCloseTo(ev.evaluation.pass_rate, 4);
    expect(w.effect.low).toBeLessThan(w.effect.effect);
    expect(w.effect.high).toBeGreaterThan(w.effect.effect);
    expect(w.effect.tasks).toBe(6);

    const md = await whet(['report', runId], { cwd: dir });
    expect(md.stdout).toMatch(/## With the skill against without it/);
    expect(md.stdout).toMatch(/\*\*The skill's own effect: \+\d+\.\d points\*\* \(95% CI \[/);
    const html = (await whet(['report', runId, '--format', 'html'], { cwd: dir })).stdout;
    expect(html).toContain(`data-testid="skill-effect-line" data-effect="${w.effect.effect}"`);
    const json = JSON.parse((await whet(['report', runId, '--format', 'json'], { cwd: dir })).stdout);
    expect(json.skill_effect).toMatchObject({ effect: w.effect.effect, low: w.effect.low, high: w.effect.high, paired: { fixed: passedWith.length } });

    expect((await whet(['report', runId, '--format', 'skill-creator', '-o', 'ws'], { cwd: dir })).code).toBe(0);
    const { bench, viewer } = readBySkillCreator(join(dir, 'ws'));
    expect(Object.keys(bench.run_summary).sort()).toEqual(['delta', 'with_skill', 'without_skill']);
    expect(viewer).toHaveLength(24);
    expect(bench.whetstone.skill_effect).toMatchObject({ effect: w.effect.effect });
    expect(bench.run_summary.without_skill.pass_rate.mean).toBe(0);
  }, 120_000);

  it('a skill already in the cache: --without-skill measures it again beside no skill, and a loop run\'s cached baseline exports from the run that measured it', async () => {
    const dir = tempDir('whet-noskill-cache-');
    expect((await whet(['init'], { cwd: dir, env: noAgents })).code).toBe(0);
    const base = ['evaluate', '--standalone', '--task-suite', 'skills/meeting-notes/tasks.yaml', '--skill-path', 'skills/meeting-notes', '--mock'];
    expect((await whet(base, { cwd: dir, env: noAgents })).code).toBe(0);
    const first = (await import('node:fs')).readdirSync(join(dir, 'state/runs'))[0]!;
    // The pair is measured together: the skill's side is not taken from the cache the first run filled.
    const r = await whet([...base, '--without-skill'], { cwd: dir, env: noAgents });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^baseline: 6 engine calls for 6 task attempts/m);
    const runs = () => runsIn(dir);
    const second = runs().find((x) => x !== first)!;
    expect((await whet(['report', second, '--format', 'skill-creator', '-o', 'ws'], { cwd: dir })).code).toBe(0);
    expect(Object.keys(readBySkillCreator(join(dir, 'ws')).bench.run_summary).sort()).toEqual(['delta', 'with_skill', 'without_skill']);
    // A loop run whose first baseline is the cached one: old_skill's runs are the first run's, said so.
    expect((await whet(['run', '--mock'], { cwd: dir, env: noAgents })).code).toBe(0);
    const loop = runs().find((x) => !x.includes('standalone'))!;
    const rep = await whet(['report', loop, '--format', 'skill-creator', '-o', 'loop-ws', '--iteration', '1'], { cwd: dir });
    expect(rep.code, rep.stderr).toBe(0);
    // The newest run whose baseline log has the recorded figures (on the mock both standalone runs' have).
    const source = /old_skill's runs are those of run (\S+), which measured the baseline this run took from the cache/.exec(rep.stderr)?.[1];
    expect(runsIn(dir).filter((x) => x.includes('standalone'))).toContain(source);
    const { bench } = readBySkillCreator(join(dir, 'loop-ws'));
    expect(Object.keys(bench.run_summary).sort()).toEqual(['delta', 'new_skill', 'old_skill']);
    expect(bench.run_summary.old_skill.pass_rate.mean).toBe(readJson(join(dir, 'state/runs', first, 'evaluation.json')).evaluation.pass_rate);
  }, 120_000);

  it('is refused outside a standalone run, before anything runs', async () => {
    const dir = tempDir('whet-noskill-refuse-');
    expect((await whet(['init'], { cwd: dir, env: noAgents })).code).toBe(0);
    const pipeline = await whet(['evaluate', '--task-suite', 'skills/meeting-notes/tasks.yaml', '--without-skill', '--mock'], { cwd: dir });
    expect(pipeline.code).toBe(2);
    expect(pipeline.stderr).toMatch(/--without-skill .* give --standalone/);
  });
});
