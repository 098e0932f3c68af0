// The loop on a noisy model (issue 27): `whet run` against the project's simulated model on a loopback
// OpenAI-compatible endpoint (scripts/noisy-model.ts), where every task has its own chance of being
// answered right and any edit of the skill moves every chance by a true effect the test sets. The loop's
// own generator proposes the edit; the evaluate stage runs rounds of attempts on the held-out tasks until
// the sequential test is decided, and the gate keeps or rejects on it. A run stopped in the middle of a
// round resumes that round (its attempts are read back, not bought again) and decides.
import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { startNoisyModel, type NoisyModel } from '../../scripts/noisy-model.js';
import { replay, settingsOfRecord } from '../../src/evaluation/sequential.js';
import { tempDir, whet, write } from '../support/cli.js';

const SKILL = `---
name: answerer
description: Answers short factual questions for the support team.
---
# Answerer

Answer the question the user asks.

## Tone
Be brief.
`;

let model: NoisyModel | undefined;
afterEach(async () => {
  await model?.close();
  model = undefined;
});

function project(url: string, extra = ''): string {
  const dir = tempDir('whet-noisy-');
  write(join(dir, 'answerer/SKILL.md'), SKILL);
  const tasks = Array.from({ length: 40 }, (_, i) => `  - id: q-${String(i).padStart(2, '0')}\n    prompt: "Question number ${i}: what is the answer?"\n    category: ${i % 2 ? 'facts' : 'howto'}\n    split: ${i < 20 ? 'holdout' : 'train'}\n    judge: {type: contains, expected: ["ANSWER-OK"]}\n`);
  write(join(dir, 'answerer/tasks.yaml'), `skill_id: answerer\nversion: "1.0"\ntasks:\n${tasks.join('')}`);
  write(
    join(dir, 'pipeline.yaml'),
    `engine: {type: openai, model: sim, base_url: "${url}/v1", api_key_env: SIM_KEY}\nstate_dir: state\ntargets:\n  - skill: answerer\n    suite: answerer/tasks.yaml\nloop:\n  max_iterations: 1\n${extra}`,
  );
  return dir;
}

const env = { ...process.env, SIM_KEY: 'sk-loopback-sim' };
const runDirOf = (dir: string) => join(dir, 'state/runs', readdirSync(join(dir, 'state/runs'))[0]!);
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** A whole `whet run` of a fresh project against a noisy model started with `opts`: its first iteration and evaluation. */
async function runAgainst(opts: Parameters<typeof startNoisyModel>[0]) {
  const m = await startNoisyModel(opts);
  model = m;
  const dir = project(m.url);
  const r = await whet(['run'], { cwd: dir, env });
  expect(r.code, r.stderr + r.stdout).toBe(0);
  const iter = join(runDirOf(dir), 'iter-001');
  return { model: m, dir, r, iter, e: json(join(iter, 'evaluation.json')) };
}

describe('the loop on a noisy model', () => {
  it('keeps an edit worth +25 points after a few attempts per held-out task, and says how sure it is', async () => {
    const { dir, iter, e } = await runAgainst({ seed: 11, baseline: SKILL, effect: 0.25 });
    const seq = e.evaluation.sequential;
    expect(e.evaluation.engine_noise.deterministic).toBe(false);
    expect(seq.decision).toBe('keep');
    // A keep needs the task-level t test too (issue 38): a round or so more than the CMH score alone.
    expect(seq.attempts).toBeLessThanOrEqual(6);
    expect(seq.tasks).toHaveLength(20);
    expect(seq.settings).toMatchObject({ significance: 0.05, run_significance: 0.05, max_iterations: 1, task_level: true });
    expect(replay(seq.looks, settingsOfRecord(seq.settings)).ok).toBe(true);
    expect(seq.effect.low).toBeGreaterThan(0);
    const g = json(join(iter, 'gate.json'));
    expect(g.decision).toBe('keep');
    expect(g.sequential.calls_saved).toBeGreaterThan(0);
    expect(g.reason).toMatch(/^kept: better at significance 0\.05 \(one-sided; 0\.05 over the run's 1 candidate\(s\)\): held-out effect \+0\.\d\d \(95% CI/);
    // The rounds' attempts are measurements of their own, with their results logs; the baseline's are made
    // beside this candidate's, in this run (issue 38), and the gate's baseline never came from the cache.
    expect(existsSync(join(iter, 'results', `baseline.${e.candidate_id}.round-2.jsonl`))).toBe(true);
    expect(e.evaluation.baseline_cache?.hit ?? false).toBe(false);
    expect(g.run_level).toEqual({ significance: 0.05, max_iterations: 1, per_candidate: 0.05, enforced: true });
    // Kept, so its train tasks were measured afterwards (they decide nothing), and its whole first
    // measurement became the cache entry the next iteration's baseline stage reads.
    expect(e.evaluation.train).toMatchObject({ measured: true });
    expect(e.evaluation.train.why).toMatch(/the baseline's read from the cache; stored as the next baseline/);
    expect(e.candidate_results).toHaveLength(40);
    expect(e.baseline_results).toHaveLength(40);
    expect(existsSync(join(dir, 'state/cache/baselines', `${e.evaluation.candidate_cache.key}.json`))).toBe(true);
  }, 120_000);

  it('rejects an edit that does nothing, with the evidence and what would decide it', async () => {
    const { model, dir, r, iter, e } = await runAgainst({ seed: 12, baseline: SKILL, effect: 0 });
    const seq = e.evaluation.sequential;
    expect(seq.decision).toBe('stop');
    expect(seq.attempts).toBeLessThanOrEqual(10);
    const g = json(join(iter, 'gate.json'));
    expect(g.decision).toBe('reject');
    expect(g.checks.find((c: { id: string }) => c.id === 'holdout_gain').detail).toMatch(/sequential test: not better — (no evidence of|the evidence is against) a \+10-point gain/);
    expect(g.sequential.rounds).toBe(seq.rounds);
    // Rejected on the held-out tasks, so its train tasks never ran: the run paid for what decided, and says so.
    expect(e.evaluation.train).toMatchObject({ measured: false });
    expect(e.evaluation.train.why).toMatch(/^not run: the held-out test did not keep the candidate, and train tasks decide nothing \(20 task\(s\); evaluate.measure_train: always runs them\); the baseline's read from the cache$/);
    expect(e.candidate_results).toHaveLength(20);
    expect(e.candidate_results.every((t: { split: string }) => t.split === 'holdout')).toBe(true);
    expect(readFileSync(join(iter, 'results', `${e.candidate_id}.jsonl`), 'utf8').trim().split('\n')).toHaveLength(20);
    // The iteration's baseline (40, whose held-out attempts the evaluation resumes), the candidate's 20
    // held-out tasks, then the rounds: nothing else was asked.
    expect(model.requests()).toBe(40 + 20 + seq.calls.engine);
    expect(r.stdout + r.stderr).toMatch(/train tasks not run \(they wait for a keep\)/);
    expect(readFileSync(join(runDirOf(dir), 'report.md'), 'utf8')).toContain("the candidate's train tasks: not run: the held-out test did not keep the candidate");
  }, 120_000);

  it('resumes a run stopped in the middle of a round: the round goes on from the attempts it had', async () => {
    model = await startNoisyModel({ seed: 11, baseline: SKILL, effect: 0.25, latencyMs: 25 });
    const dir = project(model.url, 'evaluate:\n  concurrency: 4\n');
    const stop = new AbortController();
    const m = model;
    // The iteration's baseline (40 calls), the candidate's held-out tasks (20: its train tasks wait for a
    // keep), then round 2 (20 + 20): stop half-way through it.
    const timer = setInterval(() => {
      if (m.requests() >= 80) stop.abort();
    }, 5);
    const first = await whet(['run'], { cwd: dir, env, signal: stop.signal });
    clearInterval(timer);
    expect(first.code, first.stderr).toBe(130);
    const iter = join(runDirOf(dir), 'iter-001');
    expect(existsSync(join(iter, 'evaluation.json'))).toBe(false);
    const round2 = join(iter, 'results', readdirSync(join(iter, 'results')).find((f) => /^baseline\..+\.round-2\.jsonl$/.test(f))!);
    const before = readFileSync(round2, 'utf8').trim().split('\n').length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(20);
    const requestsBefore = model.requests();
    const second = await whet(['resume'], { cwd: dir, env });
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(new RegExp(`baseline\\.\\S+\\.round-2: \\d+ engine calls for 20 task attempts in [\\d.]+s, ${before} resumed`));
    const seq = json(join(iter, 'evaluation.json')).evaluation.sequential;
    expect(seq.looks.map((l: { round: number }) => l.round)).toEqual(Array.from({ length: seq.rounds }, (_, i) => i + 1));
    // Round 1 came back from its results files and the cache: only what was missing was asked again.
    const resumedCalls = model.requests() - requestsBefore;
    const trainAfterKeep = json(join(iter, 'evaluation.json')).evaluation.train.measured ? 20 : 0;
    expect(resumedCalls).toBeLessThanOrEqual(40 - before + (seq.rounds - 2) * 40 + trainAfterKeep + (seq.guard?.calls.engine ?? 0));
    expect(json(join(iter, 'gate.json')).decision).toMatch(/^(keep|reject)$/);
  }, 120_000);

  // One held-out task the edit breaks (0.95 → 0.10) while every other gains +25: the test keeps early, so
  // the regression guard follows that task past the decision (src/measure/rounds.ts guardRounds) — the
  // candidate's attempt first, the baseline's beside it — and the gate names it and rejects.
  const FALL = { seed: 14, baseline: SKILL, effect: 0.25, fixedChance: { 'Question number 0:': 0.95 }, effectFor: { 'Question number 0:': -0.85 } };

  it('follows a held-out task that fell after the test kept the edit, names it and rejects', async () => {
    const { model, r, iter, e } = await runAgainst(FALL);
    const seq = e.evaluation.sequential;
    expect(seq.decision).toBe('keep');
    expect(seq.guard.tasks.map((t: { task_id: string }) => t.task_id)).toEqual(['q-00']);
    const rounds = Array.from({ length: seq.guard.rounds }, (_, k) => seq.rounds + 1 + k);
    // Each guard round is a measurement of its own, one variant at a time, of the followed task alone.
    for (const n of rounds) {
      const lines = readFileSync(join(iter, 'results', `${e.candidate_id}.round-${n}.jsonl`), 'utf8').trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).task_id)).toEqual(['q-00']);
    }
    expect(existsSync(join(iter, 'results', `baseline.${e.candidate_id}.round-${rounds[0]}.jsonl`))).toBe(true);
    const g = json(join(iter, 'gate.json'));
    expect(g.decision).toBe('reject');
    expect(g.holdout.regressions).toEqual(['q-00']);
    expect(g.checks.find((c: { id: string }) => c.id === 'new_failures').detail).toMatch(/^1 held-out task\(s\) whose own attempts show the candidate worse \(one-sided Boschloo exact per task at 0\.05, 20 tasks\): q-00 p [\d.e-]+; 1 task\(s\) that looked worse when the test stopped at \d+ were followed toward 10 attempts/);
    // The iteration's baseline, the held-out first measurement, the rounds and the guard's — and not the
    // candidate's 20 train tasks: the guard will have the gate reject the keep (src/measure/guard-verdict.ts).
    expect(e.evaluation.train.measured).toBe(false);
    expect(e.evaluation.train.why).toMatch(/^not run: the held-out test kept the candidate, but the regression guard names 1 held-out task\(s\) that got worse \(q-00\), more than thresholds\.max_new_failures 0, so the gate will reject it/);
    expect(model.requests()).toBe(40 + 20 + seq.calls.engine);
    expect(r.stdout + r.stderr).toMatch(/guard round \d+: 1 held-out task\(s\) that looked worse/);
    expect(r.stdout + r.stderr).toMatch(/train tasks not run \(the regression guard will undo the keep\)/);
  }, 120_000);

  it("resumes a run stopped in the guard's rounds and ends where the run that was not stopped ended", async () => {
    // The run above, stopped two calls into the guard's rounds and resumed: the same coins, the same record.
    model = await startNoisyModel(FALL);
    const whole = project(model.url);
    expect((await whet(['run'], { cwd: whole, env })).code).toBe(0);
    const want = json(join(runDirOf(whole), 'iter-001', 'evaluation.json')).evaluation.sequential;
    const upTo = 40 + 20 + want.calls.engine - want.guard.calls.engine + 3;
    await model.close();
    model = await startNoisyModel({ ...FALL, latencyMs: 25 });
    const m = model;
    const dir = project(model.url);
    const stop = new AbortController();
    const timer = setInterval(() => {
      if (m.requests() >= upTo) stop.abort();
    }, 2);
    const first = await whet(['run'], { cwd: dir, env, signal: stop.signal });
    clearInterval(timer);
    expect(first.code, first.stderr).toBe(130);
    const iter = join(runDirOf(dir), 'iter-001');
    expect(existsSync(join(iter, 'evaluation.json'))).toBe(false);
    expect(model.requests()).toBeLessThan(40 + 20 + want.calls.engine);
    expect(readdirSync(join(iter, 'results')).some((f) => f === `baseline.${json(join(runDirOf(whole), 'iter-001', 'evaluation.json')).candidate_id}.round-${want.rounds + 1}.jsonl`)).toBe(true);
    const second = await whet(['resume'], { cwd: dir, env });
    expect(second.code, second.stderr).toBe(0);
    const got = json(join(iter, 'evaluation.json')).evaluation.sequential;
    // The same decision and the same task followed to max_attempts. A call in flight when the run stopped
    // is asked again and draws the model's next coin, so the counts may differ by that attempt; the calls
    // the record counts are the ones this process made (a round read back costs none).
    expect(got.looks).toEqual(want.looks);
    expect(got.guard.tasks.map((t: { task_id: string }) => t.task_id)).toEqual(['q-00']);
    const g0 = got.guard.tasks[0];
    expect([g0.candidate.judged, g0.baseline.judged]).toEqual([10 - got.attempts, 10 - got.attempts]);
    expect(got.guard.calls.engine).toBeLessThan(want.guard.calls.engine);
    expect(json(join(iter, 'gate.json')).holdout.regressions).toEqual(['q-00']);
    // Nothing measured twice: the stopped run and the resumed one asked for what the whole run asked, and
    // at most the calls in flight when it stopped again.
    expect(model.requests()).toBeLessThanOrEqual(40 + 20 + want.calls.engine + 20 + 2);
  }, 180_000);
});
