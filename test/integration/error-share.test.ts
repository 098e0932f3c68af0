// The maximum error share (evaluate.max_error_share, default 0.1): an evaluation where a third of the
// tasks errored is `error` (exit 3) with how much of the suite was judged — standalone, pipeline (either
// variant), the gate (never keeps it) and the nightly. The errors come from a real agent program that
// fails on chosen tasks, spread between successes: at one task at a time, the third errored task of 20
// puts the share out of reach and the run stops there (issue 28, src/evaluation/spend-guard.ts).
import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide } from '../../stages/gate/decide.js';
import type { PipelineEvaluation } from '../../src/artifacts/evaluation.js';
import { THRESHOLD_DEFAULTS } from '../../src/config/thresholds.js';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

const echo = join(fixturesBin, 'echo-agent');
const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);
/** n failing tasks, each after a succeeding one: never the same failure on the engine's first calls. */
const spread = (n: number) => Array.from({ length: n }, (_, i) => `t${2 * i + 1}`);
const STOPPED = /stopped early: 3 of 20 tasks errored \(15%\), more than evaluate\.max_error_share 10% allows, so the verdict could only be error \(last error: engine exit: .*\); fix the engine/;

function project(extra = ''): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = ids(20).map((id) => `  - {id: ${id}, prompt: "note ${id}", judge: {type: contains, expected: ["ticket number"]}}`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${echo}"]}\ntargets: [{skill: skill}]\n${extra || 'evaluate: {concurrency: 1}\n'}`);
  return dir;
}

const standalone = (dir: string, fail: string[], json = false) =>
  whet(['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--force', ...(json ? ['--json'] : [])], { cwd: dir, env: { ...process.env, AGENT_FAIL: fail.join(',') } });

describe('maximum error share', () => {
  it('makes a standalone evaluation with 6 of 20 tasks erroring an error (exit 3), stopped at the third, recorded in the artifact', async () => {
    const dir = project();
    const r = await standalone(dir, spread(6));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(new RegExp(`verdict: error — ${STOPPED.source}.*; 14 attempt\\(s\\) not run`));
    const a = JSON.parse((await standalone(dir, spread(6), true)).stdout);
    expect(a.verdict).toBe('error');
    // The 14 tasks not run count as errors: a verdict over the 3 judged would be no verdict.
    expect(a.evaluation).toMatchObject({ passed: 3, errors: 17, max_error_share: 0.1, stopped_early: { attempts_not_run: 14 } });
    // At the limit (2 of 20 = 10%) the judged tasks still carry the verdict.
    // (A new project: the same command here would resume the stopped run, keeping its judged tasks.)
    const within = await standalone(project(), ids(2), true);
    expect(within.code, within.stderr).toBe(0);
    expect(JSON.parse(within.stdout)).toMatchObject({ verdict: 'pass', evaluation: { error_share: 0.1 } });
  });

  it('takes its limit from pipeline.yaml and registers it in a loop run', async () => {
    const dir = project('evaluate: {max_error_share: 0.4, concurrency: 1}\n');
    const r = await standalone(dir, spread(6), true);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).evaluation).toMatchObject({ error_share: 0.3, max_error_share: 0.4 });
    const { registeredSettings } = await import('../../src/config/registered.js');
    const { loadPipeline } = await import('../../src/config/pipeline.js');
    expect(registeredSettings(await loadPipeline(undefined, dir), []).max_error_share).toBe(0.4);
  });

  it('in pipeline mode stops at a baseline over the limit, and errors on a candidate over it', async () => {
    // Both variants on every task (by default a noisy engine's train tasks wait for a keep): the counts below are the whole suite's.
    const dir = project('evaluate: {concurrency: 1, measure_train: always}\n');
    write(join(dir, 'variants/cand/SKILL.md'), '# Notes\nAlways cite the ticket number. CANDIDATE\n');
    write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-1', iteration: 1, target: { path: join(dir, 'skill') }, scored_candidates: [{ id: 'cand', score: 9 }] }));
    const evaluate = (env: NodeJS.ProcessEnv) => whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'cand', '--task-suite', 'skill/tasks.yaml', '--force', '--json'], { cwd: dir, env: { ...process.env, ...env } });
    const base = await evaluate({ AGENT_FAIL: spread(6).join(','), AGENT_LOG: join(dir, 'calls-1.log') });
    expect(base.code).toBe(3);
    const a = JSON.parse(base.stdout);
    expect(a.reason).toMatch(new RegExp(`^baseline ${STOPPED.source}`));
    expect(a.evaluation).toMatchObject({ baseline_error_share: 0.85, max_error_share: 0.1 });
    // Only the baseline's 3 judged calls before the stop were made: no candidate call was spent.
    expect(readFileSync(join(dir, 'calls-1.log'), 'utf8').trim().split('\n')).toHaveLength(3);
    // A program that fails only when it is sent the candidate's text.
    const agent = write(join(dir, 'cand-fails.cjs'), `#!/usr/bin/env node
let input = '';
process.stdin.on('data', (d) => (input += d));
process.stdin.on('end', () => {
  const n = Number((process.env.WHET_TASK_ID || 't0').slice(1));
  if (input.includes('CANDIDATE') && n < 8) { process.stderr.write('overloaded'); process.exit(1); }
  process.stdout.write(input);
});
`);
    chmodSync(agent, 0o755);
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${agent}"]}\nevaluate: {concurrency: 1, measure_train: always}\n`);
    const cand = await evaluate({});
    expect(cand.code, cand.stderr).toBe(3);
    const c = JSON.parse(cand.stdout);
    expect(c.verdict).toBe('error');
    // Its first three calls failed alike ("overloaded"): the rest of the candidate was not spent.
    expect(c.reason).toMatch(/^candidate stopped early: the engine failed the same way on its first 3 calls \(engine exit: .*overloaded\); fix the engine.*; 17 attempt\(s\) not run$/);
    expect(c.evaluation).toMatchObject({ baseline_error_share: 0, candidate_error_share: 1 });
  });

  it('in pipeline mode on the default noisy path still checks the whole baseline before any candidate call', async () => {
    // The candidate's train tasks wait for a keep, the baseline's are measured first (no cache here): a
    // baseline over the limit stops the evaluation there, whichever split its errors fall in.
    const dir = project();
    write(join(dir, 'variants/cand/SKILL.md'), '# Notes\nAlways cite the ticket number. CANDIDATE\n');
    write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-1', iteration: 1, target: { path: join(dir, 'skill') }, scored_candidates: [{ id: 'cand', score: 9 }] }));
    const r = await whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'cand', '--task-suite', 'skill/tasks.yaml', '--force', '--json'], { cwd: dir, env: { ...process.env, AGENT_FAIL: ids(20).join(',') } });
    expect(r.code).toBe(3);
    const a = JSON.parse(r.stdout);
    expect(a.verdict).toBe('error');
    expect(a.reason).toMatch(/^baseline stopped early: /);
    expect(a.candidate_results).toEqual([]);
    expect(r.stderr).not.toMatch(/^cand: /m);
  });

  it('the gate never keeps a candidate judged on too little of the suite, whatever evaluation.json says', () => {
    const result = (i: number, status: 'pass' | 'fail' | 'error', split: 'train' | 'holdout') => ({ task_id: `t${i}`, passed: status === 'pass', score: status === 'pass' ? 1 : 0, status, category: 'c', split, attempts: 1, passes: status === 'pass' ? 1 : 0, errors: status === 'error' ? 1 : 0, reason: '' });
    // Errors only on train tasks, so the held-out checks alone would keep it.
    const cand = Array.from({ length: 10 }, (_, i) => result(i, i < 3 ? 'error' : 'pass', i < 7 ? 'train' : 'holdout'));
    const base = Array.from({ length: 10 }, (_, i) => result(i, i < 7 ? 'pass' : 'fail', i < 7 ? 'train' : 'holdout'));
    // On the mock engine, whose sign test is shown, not enforced (issue 38): three fixed tasks could not pass it.
    const evaluation = { verdict: 'pass', reason: 'said pass', engine: { type: 'mock', identity: {}, mock: true }, evaluation: { per_category: {}, paired: { regressions: [] } }, candidate_results: cand, baseline_results: base } as unknown as PipelineEvaluation;
    const facts = { evaluation, thresholds: THRESHOLD_DEFAULTS, category: 'content', risk: 'low' as const, integrity: [] };
    expect(decide(facts).decision).toBe('keep');
    const d = decide({ ...facts, maxErrorShare: 0.1 });
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'error_share')).toMatchObject({ passed: false, detail: expect.stringMatching(/^candidate judged 7 of 10 tasks \(70%\); 3 errored/) });
    expect(decide({ ...facts, maxErrorShare: 0.3 }).decision).toBe('keep');
  });

  it('makes a night with too many errors an engine failure (exit 3)', async () => {
    const dir = project();
    const n = await whet(['nightly'], { cwd: dir, now: () => new Date(2026, 10, 1, 3), env: { ...process.env, AGENT_FAIL: spread(6).join(',') } });
    expect(n.code, n.stderr).toBe(3);
    expect(n.stdout).toMatch(/## ⚠ Engine failed\n\n- \*\*.*skill\*\*: engine failed on part of the suite: judged 3 of 20 tasks \(15%\); 17 errored task\(s\)/);
  });
});
