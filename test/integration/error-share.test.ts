// The maximum error share (evaluate.max_error_share, default 0.1): an evaluation where a third of the
// tasks errored is `error` (exit 3) with how much of the suite was judged — standalone, pipeline (either
// variant), the gate (never keeps it) and the nightly. The errors come from a real agent program that
// fails on chosen tasks.
import { describe, expect, it } from 'vitest';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide } from '../../stages/gate/decide.js';
import type { PipelineEvaluation } from '../../src/artifacts/evaluation.js';
import { THRESHOLD_DEFAULTS } from '../../src/config/thresholds.js';
import { fixturesBin, tempDir, whet, write } from '../support/cli.js';

const echo = join(fixturesBin, 'echo-agent');
const ids = (n: number) => Array.from({ length: n }, (_, i) => `t${i}`);

function project(extra = ''): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), '# Notes\nAlways cite the ticket number.\n');
  const tasks = ids(20).map((id) => `  - {id: ${id}, prompt: "note ${id}", judge: {type: contains, expected: ["ticket number"]}}`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: notes\nversion: "1.0"\ntasks:\n${tasks.join('\n')}\n`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${echo}"]}\ntargets: [{skill: skill}]\n${extra}`);
  return dir;
}

const standalone = (dir: string, fail: string[], json = false) =>
  whet(['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--force', ...(json ? ['--json'] : [])], { cwd: dir, env: { ...process.env, AGENT_FAIL: fail.join(',') } });

describe('maximum error share', () => {
  it('makes a standalone evaluation with 6 of 20 tasks errored an error (exit 3), recorded in the artifact', async () => {
    const dir = project();
    const r = await standalone(dir, ids(6));
    expect(r.code, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/verdict: error — judged 14 of 20 tasks \(70%\); 6 errored task\(s\) \(engine or judge\) exceed the maximum error share 10% \(evaluate\.max_error_share\)/);
    const a = JSON.parse((await standalone(dir, ids(6), true)).stdout);
    expect(a.verdict).toBe('error');
    expect(a.evaluation).toMatchObject({ passed: 14, errors: 6, error_share: 0.3, max_error_share: 0.1 });
    // At the limit (2 of 20 = 10%) the judged tasks still carry the verdict.
    const within = await standalone(dir, ids(2), true);
    expect(within.code, within.stderr).toBe(0);
    expect(JSON.parse(within.stdout)).toMatchObject({ verdict: 'pass', evaluation: { error_share: 0.1 } });
  });

  it('takes its limit from pipeline.yaml and registers it in a loop run', async () => {
    const dir = project('evaluate: {max_error_share: 0.4}\n');
    const r = await standalone(dir, ids(6), true);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).evaluation).toMatchObject({ error_share: 0.3, max_error_share: 0.4 });
    const { registeredSettings } = await import('../../src/config/registered.js');
    const { loadPipeline } = await import('../../src/config/pipeline.js');
    expect(registeredSettings(await loadPipeline(undefined, dir), []).max_error_share).toBe(0.4);
  });

  it('in pipeline mode stops at a baseline over the limit, and errors on a candidate over it', async () => {
    const dir = project();
    write(join(dir, 'variants/cand/SKILL.md'), '# Notes\nAlways cite the ticket number. CANDIDATE\n');
    write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-1', iteration: 1, target: { path: join(dir, 'skill') }, scored_candidates: [{ id: 'cand', score: 9 }] }));
    const evaluate = (env: NodeJS.ProcessEnv) => whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'cand', '--task-suite', 'skill/tasks.yaml', '--force', '--json'], { cwd: dir, env: { ...process.env, ...env } });
    const base = await evaluate({ AGENT_FAIL: ids(6).join(','), AGENT_LOG: join(dir, 'calls-1.log') });
    expect(base.code).toBe(3);
    const a = JSON.parse(base.stdout);
    expect(a.reason).toMatch(/^baseline judged 14 of 20 tasks \(70%\); 6 errored task\(s\) .* the candidate was not run/);
    expect(a.evaluation).toMatchObject({ baseline_error_share: 0.3, max_error_share: 0.1 });
    // Only the baseline's 14 judged calls were made: no candidate call was spent.
    expect(readFileSync(join(dir, 'calls-1.log'), 'utf8').trim().split('\n')).toHaveLength(14);
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
    write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${agent}"]}\n`);
    const cand = await evaluate({});
    expect(cand.code, cand.stderr).toBe(3);
    const c = JSON.parse(cand.stdout);
    expect(c.verdict).toBe('error');
    expect(c.reason).toMatch(/^candidate judged 12 of 20 tasks \(60%\); 8 errored task\(s\)/);
    expect(c.evaluation).toMatchObject({ baseline_error_share: 0, candidate_error_share: 0.4 });
  });

  it('the gate never keeps a candidate judged on too little of the suite, whatever evaluation.json says', () => {
    const result = (i: number, status: 'pass' | 'fail' | 'error', split: 'train' | 'holdout') => ({ task_id: `t${i}`, passed: status === 'pass', score: status === 'pass' ? 1 : 0, status, category: 'c', split, attempts: 1, passes: status === 'pass' ? 1 : 0, errors: status === 'error' ? 1 : 0, reason: '' });
    // Errors only on train tasks, so the held-out checks alone would keep it.
    const cand = Array.from({ length: 10 }, (_, i) => result(i, i < 3 ? 'error' : 'pass', i < 7 ? 'train' : 'holdout'));
    const base = Array.from({ length: 10 }, (_, i) => result(i, i < 7 ? 'pass' : 'fail', i < 7 ? 'train' : 'holdout'));
    const evaluation = { verdict: 'pass', reason: 'said pass', evaluation: { per_category: {}, paired: { regressions: [] } }, candidate_results: cand, baseline_results: base } as unknown as PipelineEvaluation;
    const facts = { evaluation, thresholds: THRESHOLD_DEFAULTS, category: 'content', risk: 'low' as const, integrity: [] };
    expect(decide(facts).decision).toBe('keep');
    const d = decide({ ...facts, maxErrorShare: 0.1 });
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'error_share')).toMatchObject({ passed: false, detail: expect.stringMatching(/^candidate judged 7 of 10 tasks \(70%\); 3 errored/) });
    expect(decide({ ...facts, maxErrorShare: 0.3 }).decision).toBe('keep');
  });

  it('makes a night with too many errors an engine failure (exit 3)', async () => {
    const dir = project();
    const n = await whet(['nightly'], { cwd: dir, now: () => new Date(2026, 10, 1, 3), env: { ...process.env, AGENT_FAIL: ids(6).join(',') } });
    expect(n.code, n.stderr).toBe(3);
    expect(n.stdout).toMatch(/## ⚠ Engine failed\n\n- \*\*.*skill\*\*: engine failed on part of the suite: judged 14 of 20 tasks \(70%\); 6 errored task\(s\)/);
  });
});
