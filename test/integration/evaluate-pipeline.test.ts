// long-running: spawned agents over several evaluations, ≈ 30 s
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixturesBin, readJson, tempDir, whet, write } from '../support/cli.js';

// Five tasks judged on what the echo agent sends back (the skill text + the prompt): two pass with any
// release-notes skill, two only with the candidate's added section, one never.
const SUITE = `skill_id: rn
version: "1.0"
tasks:
  - {id: common-1, category: basics, prompt: "notes please", judge: {type: contains, expected: ["Release notes"]}}
  - {id: common-2, category: basics, prompt: "more notes", judge: {type: regex, pattern: "group the commits", flags: i}}
  - {id: breaking-1, category: breaking, prompt: "a breaking change", judge: {type: contains, expected: ["Breaking changes"]}}
  - {id: breaking-2, category: breaking, prompt: "a removed API", judge: {type: contains, expected: ["migration step"]}}
  - {id: never, category: basics, prompt: "x", judge: {type: contains, expected: ["no skill says this"]}}
`;
const TARGET = '# Release notes\nGroup the commits by kind.\n';
const CANDIDATE = `${TARGET}\n## Breaking changes\nList breaking changes first, each with its migration step.\n`;

function project(): string {
  const dir = tempDir();
  write(join(dir, 'skill/SKILL.md'), TARGET);
  write(join(dir, 'tasks.yaml'), SUITE);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {measure_train: always}\n`);
  return dir;
}

function ranking(dir: string, candidates: object[], extra: object = {}): string {
  return write(join(dir, 'ranking.json'), JSON.stringify({ run_id: 'run-1', iteration: 1, target: { path: join(dir, 'skill') }, scored_candidates: candidates, ...extra }));
}

const evaluate = (dir: string, extra: string[] = [], env?: NodeJS.ProcessEnv) =>
  whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'cand-01', '--task-suite', 'tasks.yaml', '--state-root', 'state', '--json', ...extra], { cwd: dir, env });

describe('evaluate (pipeline mode)', () => {
  it('evaluates the candidate’s own files against the baseline, with the paired test', async () => {
    const dir = project();
    write(join(dir, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(dir, [{ id: 'cand-01', score: 7.5 }]);
    const r = await evaluate(dir);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout);
    expect(a).toMatchObject({ stage: 'evaluated', verdict: 'pass', next_step: 'gate_decision', next_owner: 'gate', candidate_id: 'cand-01', candidate_score: 7.5, iteration: 1, run_id: 'run-1' });
    expect(a.evaluation).toMatchObject({ execution_pass_rate: 0.8, baseline_pass_rate: 0.4, delta: 0.4, verdict: 'pass' });
    expect(a.evaluation.paired).toMatchObject({ tasks_compared: 5, both_pass: 2, both_fail: 1, fixed: 2, regressed: 0, p_value: 0.5, fixes: ['breaking-1', 'breaking-2'] });
    expect(a.evaluation.per_category.breaking).toMatchObject({ delta: 1, candidate: { passed: 2 }, baseline: { passed: 0 } });
    expect(a.candidate_results.map((t: any) => [t.task_id, t.passed, t.score])).toEqual([
      ['common-1', true, 1],
      ['common-2', true, 1],
      ['breaking-1', true, 1],
      ['breaking-2', true, 1],
      ['never', false, 0],
    ]);
    expect(a.inputs).toHaveProperty('ranking.json');
    expect(a.inputs.candidate).not.toBe(a.inputs.target);
    // What the engine received for the candidate is the candidate's text, not the original's.
    const lines = readFileSync(join(dir, 'state/runs/run-1/iter-001/results/cand-01.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(l.output.startsWith(CANDIDATE)).toBe(true);
    const base = readFileSync(join(dir, 'state/runs/run-1/iter-001/results/baseline.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    for (const l of base) expect(l.output.startsWith(`${TARGET}\n\n---\n\n`)).toBe(true);
    expect(existsSync(join(dir, 'state/runs/run-1/iter-001/evaluation.json'))).toBe(true);
  });

  it('reads a seed-style ranking with the candidate content inline, and writes --output', async () => {
    const dir = project();
    ranking(dir, [{ id: 'cand-01', score: 9, skill_content: CANDIDATE }]);
    const r = await evaluate(dir, ['--output', 'eval.json']);
    expect(r.code, r.stderr).toBe(0);
    expect(readJson(join(dir, 'eval.json')).evaluation).toMatchObject({ execution_pass_rate: 0.8, baseline_pass_rate: 0.4, delta: 0.4 });
  });

  it('refuses a candidate without content instead of evaluating the original twice', async () => {
    const dir = project();
    ranking(dir, [{ id: 'cand-01', score: 9 }]);
    const r = await evaluate(dir);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/candidate "cand-01" has no content.*refusing to evaluate the original in its place/);
    expect(existsSync(join(dir, 'state'))).toBe(false);
    const unknown = await whet(['evaluate', '--input', 'ranking.json', '--candidate-id', 'cand-99', '--task-suite', 'tasks.yaml', '--state-root', 'state'], { cwd: dir });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/candidate "cand-99" is not in ranking\.json; its candidates: cand-01/);
  });

  it('skips a candidate below the eval threshold without any engine call', async () => {
    const dir = project();
    write(join(dir, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(dir, [{ id: 'cand-01', score: 5.5 }]);
    const log = join(dir, 'calls.log');
    const r = await evaluate(dir, [], { ...process.env, AGENT_LOG: log });
    expect(r.code).toBe(0);
    const skipped = JSON.parse(r.stdout);
    expect(skipped).toMatchObject({ verdict: 'skipped', reason: 'score 5.5 < threshold 6 (evaluate.eval_threshold)', next_step: 'gate_decision' });
    // Nothing was measured, so no rate is reported: zeros would read as a measured 0% pass rate.
    expect(skipped.evaluation).toMatchObject({ execution_pass_rate: null, baseline_pass_rate: null, delta: null });
    expect(existsSync(log)).toBe(false);
    const schemas = await whet(['schemas'], { cwd: dir });
    const evalSchema = JSON.parse(schemas.stdout).evaluation;
    expect(JSON.stringify(evalSchema)).toContain('"execution_pass_rate":{"type":["number","null"]}');
    const lower = await evaluate(dir, ['--eval-threshold', '5'], { ...process.env, AGENT_LOG: log });
    expect(JSON.parse(lower.stdout).verdict).toBe('pass');
  });

  it('aborts with verdict error when the baseline is below the minimum, before running the candidate', async () => {
    const dir = project();
    write(join(dir, 'skill/SKILL.md'), '# Nothing useful\n');
    write(join(dir, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(dir, [{ id: 'cand-01', score: 8 }]);
    const r = await evaluate(dir);
    expect(r.code).toBe(1);
    const a = JSON.parse(r.stdout);
    expect(a).toMatchObject({ verdict: 'error', next_step: 'abort', next_owner: 'human' });
    expect(a.reason).toMatch(/baseline pass rate 0\.0000 < 0\.2: the task suite is probably broken/);
    expect(a.evaluation).toMatchObject({ baseline_pass_rate: 0, execution_pass_rate: null, delta: null });
    expect(existsSync(join(dir, 'state/runs/run-1/iter-001/results/cand-01.jsonl'))).toBe(false);
  });

  it('on a noisy engine runs the candidate on the held-out tasks only until they keep it, and checks the suite on the whole baseline', async () => {
    const dir = project();
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace('evaluate: {measure_train: always}\n', ''));
    write(join(dir, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(dir, [{ id: 'cand-01', score: 8 }]);
    const r = await evaluate(dir);
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout);
    const held = a.candidate_results.map((t: { task_id: string }) => t.task_id);
    // Two held-out tasks cannot show a gain at 0.01, so the candidate's three train tasks never ran.
    expect(a.evaluation.sequential.decision).toBe('stop');
    expect(held).toHaveLength(2);
    expect(a.candidate_results.every((t: { split: string }) => t.split === 'holdout')).toBe(true);
    expect(a.baseline_results.map((t: { task_id: string }) => t.task_id)).toEqual(held);
    expect(a.evaluation.train).toEqual({ measured: false, why: "not run: the held-out test did not keep the candidate, and train tasks decide nothing (3 task(s); evaluate.measure_train: always runs them); the baseline's measured (3 engine calls)" });
    const lines = readFileSync(join(dir, 'state/runs/run-1/iter-001/results/cand-01.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l).task_id);
    expect(new Set(lines)).toEqual(new Set(held));
  });

  it('takes the baseline from the cache a standalone run filled on a deterministic engine, never on a noisy one', async () => {
    // A noisy engine's baseline is measured beside the candidate, never read from another run's cache (issue
    // 38): a model that changed in between would be credited to the edit.
    const noisy = project();
    write(join(noisy, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(noisy, [{ id: 'cand-01', score: 8 }]);
    await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--json'], { cwd: noisy });
    const fresh = JSON.parse((await evaluate(noisy)).stdout);
    expect(fresh.evaluation.baseline_cache).toMatchObject({ hit: false });
    expect(fresh.evaluation.baseline.engine_calls).toBeGreaterThan(0);
    const dir = project();
    write(join(dir, 'pipeline.yaml'), readFileSync(join(dir, 'pipeline.yaml'), 'utf8').replace('evaluate: {', 'evaluate: {deterministic: true, '));
    write(join(dir, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(dir, [{ id: 'cand-01', score: 8 }]);
    const s = await whet(['evaluate', '--standalone', '--task-suite', 'tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--json'], { cwd: dir });
    expect(JSON.parse(s.stdout).evaluation.engine_calls).toBe(5);
    const a = JSON.parse((await evaluate(dir)).stdout);
    expect(a.evaluation.baseline_cache).toMatchObject({ hit: true });
    expect(a.evaluation.baseline.engine_calls).toBe(0);
    expect(a.evaluation.candidate.engine_calls).toBe(5);
    expect(a.evaluation.baseline_pass_rate).toBe(0.4);
  });

  it('moves results measured on other content to superseded/ instead of reusing them', async () => {
    const dir = project();
    write(join(dir, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(dir, [{ id: 'cand-01', score: 8 }]);
    await evaluate(dir, ['--force']);
    write(join(dir, 'variants/cand-01/SKILL.md'), `${CANDIDATE}\nMore.\n`);
    const a = JSON.parse((await evaluate(dir, ['--force'])).stdout);
    expect(a.evaluation.candidate.engine_calls).toBe(5);
    const superseded = join(dir, 'state/runs/run-1/iter-001/superseded');
    expect(existsSync(superseded)).toBe(true);
  });

  it('runs pass@k with every attempt recorded', async () => {
    const dir = project();
    write(join(dir, 'variants/cand-01/SKILL.md'), CANDIDATE);
    ranking(dir, [{ id: 'cand-01', score: 8 }]);
    const a = JSON.parse((await evaluate(dir, ['--pass-k', '3'])).stdout);
    expect(a.pass_k).toBe(3);
    expect(a.evaluation.candidate).toMatchObject({ pass_at_1: 0.8, pass_at_k: 0.8, pass_hat_k: 0.8, attempts: { total: 15, judged: 15 } });
    const lines = readFileSync(join(dir, 'state/runs/run-1/iter-001/results/cand-01.jsonl'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(15);
  });
});
