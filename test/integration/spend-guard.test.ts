// Stop spending when the answer cannot change (issue 28, src/evaluation/spend-guard.ts), with real
// executables: a judge program whose replies are never JSON stops the run within its first judge calls,
// not after all of them, says what to fix, and the same command finishes the run once the judge is fixed;
// an engine failing on enough tasks that evaluate.max_error_share is out of reach stops there.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SAME_FAILURE_CALLS } from '../../src/evaluation/spend-guard.js';
import { findFiles, fixturesBin, readJson, tempDir, whet, write } from '../support/cli.js';

// Counts its calls in calls.log; answers in prose until `fixed` exists, then with the verdict JSON.
const JUDGE = `import fs from 'node:fs';
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  fs.appendFileSync(process.env.CALLS, 'j\\n');
  process.stdout.write(fs.existsSync(process.env.FIXED) ? '{"label": "PASS", "reason": "it answers"}' : 'Looks good to me, the answer is fine.');
});
`;

function project(tasks: number, pipeline: string, judge: string): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '---\nname: s\ndescription: d\n---\n# S\n');
  const list = Array.from({ length: tasks }, (_, i) => `  - id: t${i + 1}\n    prompt: say hello ${i + 1}\n    judge: ${judge}\n`).join('');
  write(join(dir, 'tasks.yaml'), `skill_id: s\nversion: "1.0"\ntasks:\n${list}`);
  write(join(dir, 'judge.mjs'), JUDGE);
  write(join(dir, 'pipeline.yaml'), pipeline);
  return dir;
}

const evaluate = (dir: string, env: NodeJS.ProcessEnv = {}) =>
  whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state'], { cwd: dir, env: { ...process.env, ...env } });
const lines = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);

describe('spending stops when the answer cannot change', () => {
  it('stops a judge that never replies with JSON within its first calls, and resumes once it is fixed', async () => {
    // max_error_share 0.9: only the same-failure rule can stop this run early.
    const dir = project(20, `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {concurrency: 1, max_error_share: 0.9}\n`, '{type: llm-rubric, rubric: "greets"}');
    write(join(dir, 'pipeline.yaml'), `${readFileSync(join(dir, 'pipeline.yaml'), 'utf8')}judge_engine: {type: command, command: ["${process.execPath}", "${join(dir, 'judge.mjs')}"]}\n`);
    const env = { CALLS: join(dir, 'calls.log'), FIXED: join(dir, 'fixed') };
    const r = await evaluate(dir, env);
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toMatch(/stopped early: the judge failed the same way on its first 3 calls \(judge reply invalid twice; last one: it did not contain a JSON object\); fix the judge/);
    expect(r.stdout).toContain('run the same command again');
    // Each judgement is a reply and one retry: 3 judgements, 6 judge CLI calls, of the 40 a full run makes.
    expect(SAME_FAILURE_CALLS).toBe(3);
    expect(lines(env.CALLS)).toHaveLength(2 * SAME_FAILURE_CALLS);
    const results = lines(findFiles(join(dir, 'state/runs'), 'baseline.jsonl')[0]!).map((l) => JSON.parse(l));
    expect(results.map((l) => [l.task_id, l.status])).toEqual([['t1', 'error'], ['t2', 'error'], ['t3', 'error']]);
    // Recorded in the artifact (an error verdict with why and what is left) and the run left resumable.
    const stopped = readJson(findFiles(join(dir, 'state/runs'), 'evaluation.json')[0]!);
    expect(stopped.verdict).toBe('error');
    expect(stopped.reason).toMatch(/^stopped early: the judge failed .*; 17 attempt\(s\) not run$/);
    expect(stopped.evaluation.stopped_early).toEqual({ reason: expect.stringMatching(/fix the judge/), attempts_not_run: 17 });
    expect(r.stdout).toMatch(/^verdict: error — stopped early: the judge failed/m);
    const manifestFile = findFiles(join(dir, 'state/runs'), 'run.json')[0]!;
    expect(readJson(manifestFile).status).toBe('incomplete');

    // The judge fixed: the same command resumes the run and judges all 20 (the 3 errors retried).
    write(env.FIXED, '');
    const again = await evaluate(dir, env);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stderr + again.stdout).toMatch(/^resuming run \S+-standalone-s$/m);
    expect(lines(env.CALLS)).toHaveLength(2 * SAME_FAILURE_CALLS + 20);
    const artifact = readJson(findFiles(join(dir, 'state/runs'), 'evaluation.json')[0]!);
    expect(artifact.evaluation).toMatchObject({ total_tasks: 20, passed: 20, errors: 0 });
    expect(artifact.evaluation.stopped_early).toBeUndefined();
    expect(readJson(manifestFile).status).toBe('completed');
  }, 120_000);

  it('inside `whet run`: stops the baseline within its first judge calls, status says so, and `whet resume` measures it again after the fix', async () => {
    const dir = project(20, `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\ntargets: [{skill: skill, suite: tasks.yaml}]\nevaluate: {concurrency: 1, max_error_share: 0.9}\nloop: {max_iterations: 1}\n`, '{type: llm-rubric, rubric: "greets"}');
    write(join(dir, 'pipeline.yaml'), `${readFileSync(join(dir, 'pipeline.yaml'), 'utf8')}judge_engine: {type: command, command: ["${process.execPath}", "${join(dir, 'judge.mjs')}"]}\n`);
    const env = { ...process.env, CALLS: join(dir, 'calls.log'), FIXED: join(dir, 'fixed') };
    const r = await whet(['run'], { cwd: dir, env });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^run stopped_early: baseline: stopped early: the judge failed the same way on its first 3 calls .*fix the judge.*whet resume \S+ measures it again after the fix$/m);
    expect(lines(env.CALLS)).toHaveLength(2 * SAME_FAILURE_CALLS);
    const status = await whet(['status'], { cwd: dir, env });
    expect(status.stdout).toMatch(/ incomplete .*\n.*next baseline \(iteration 1\) again on resume, after a fix — stopped early: the judge failed the same way/);
    // One count: 3 attempts, each judged by a reply and one retry.
    expect(status.stdout).toContain('9 call(s): engine 3 · judge 6 · generator 0');
    // The judge fixed, resume retries the stopped baseline (its 3 errored attempts and the 17 not run).
    write(env.FIXED, '');
    const again = await whet(['resume'], { cwd: dir, env });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stderr).toMatch(/retrying the baseline of iteration 1, which had stopped early \(stopped early: the judge failed/);
    const runDir = join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!);
    const baseline = readJson(join(runDir, 'iter-001', 'baseline.json'));
    expect(baseline.evaluation).toMatchObject({ total_tasks: 20, errors: 0 });
    // The stopped measurement is kept aside, not deleted; the events say what happened.
    expect(findFiles(join(runDir, 'iter-001', 'superseded'), 'baseline.json')).toHaveLength(1);
    const events = lines(join(runDir, 'events.jsonl')).map((l) => JSON.parse(l).event);
    expect(events).toEqual(expect.arrayContaining(['stopped_early', 'retry_stopped_early']));
    expect(readJson(join(runDir, 'run.json')).status).toBe('completed');
  }, 120_000);

  it('stops once the errors exceed evaluate.max_error_share, so the verdict could only be error', async () => {
    // Failures between successes: never the same failure first three times running, only the share stops it.
    const dir = project(10, `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {concurrency: 1, max_error_share: 0.2}\n`, '{type: contains, expected: ["hello"]}');
    const log = join(dir, 'agent.log');
    const r = await evaluate(dir, { AGENT_FAIL: 't2,t4,t6,t8', AGENT_LOG: log });
    expect(r.code, r.stdout + r.stderr).toBe(3);
    expect(r.stdout).toMatch(/stopped early: 3 of 10 tasks errored \(30%\), more than evaluate\.max_error_share 20% allows, so the verdict could only be error \(last error: engine exit: echo-agent exited with code 1; stderr: echo-agent: refusing task t6\); fix the engine/);
    const results = lines(findFiles(join(dir, 'state/runs'), 'baseline.jsonl')[0]!).map((l) => JSON.parse(l));
    expect(results.map((l) => l.task_id)).toEqual(['t1', 't2', 't3', 't4', 't5', 't6']);
    expect(readJson(findFiles(join(dir, 'state/runs'), 'evaluation.json')[0]!).evaluation.stopped_early.attempts_not_run).toBe(4);

    // The engine fixed, the same command runs what is left and retries the errors.
    const again = await evaluate(dir, { AGENT_LOG: log });
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(readJson(findFiles(join(dir, 'state/runs'), 'evaluation.json')[0]!).evaluation).toMatchObject({ total_tasks: 10, passed: 10, errors: 0 });
  }, 120_000);
});
