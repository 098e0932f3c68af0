// Adaptive concurrency through the evaluator itself (`whet evaluate --standalone`, run in process): the
// openai engine points at a loopback server that, in phase 1, serves at most K requests at once and
// answers 429 (retry-after-ms, as OpenAI sends it) beyond that, and in phase 2 lifts the limit. The
// evaluator's 16 workers take one controller slot per attempt (run-variant.ts → metered.ts), so what the
// server sees is what the controller admits. Everything is judged on the server's own record — requests
// in flight at each arrival, refused or served, which phase — never on wall-clock time, so a slow machine
// only makes the run longer. engines-adaptive-http.test.ts covers the engine with its own worker pool;
// this covers the evaluator's path and the recovery the unit test only simulates.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';

import { useLoopbackServer } from '../support/http/use-server.js';
import { openaiCompletion, openaiError } from '../support/http/wire.js';
import { tempDir, whet, write } from '../support/cli.js';

const K = 4;
const TASKS = 300;
/** Served requests before the server lifts its limit: half the run, so phase 2 has room to recover. */
const PHASE1_SERVED = 150;

interface Seen {
  phase: 1 | 2;
  /** Requests in flight at the server when this one arrived, itself included. */
  inFlight: number;
  refused: boolean;
}

const seen: Seen[] = [];
/** 429s per task prompt: how close a task came to running out of retries (max_retries 20). */
const refusals = new Map<string, number>();
let served = 0;

const server = useLoopbackServer((rq) => {
  const phase = served < PHASE1_SERVED ? 1 : 2;
  const refused = phase === 1 && rq.inFlight > K;
  seen.push({ phase, inFlight: rq.inFlight, refused });
  const prompt = JSON.stringify(rq.body);
  if (refused) {
    refusals.set(prompt, (refusals.get(prompt) ?? 0) + 1);
    // The refusal takes 5 ms, so refused requests overlap at the server as they do at a real provider
    // (an instant 429 leaves before the next request arrives, and the record would hide an overshoot).
    // retry-after-ms is longer than a served request takes: by the retry the requests being served
    // have left, so a refused request gets in within a few rounds and never runs out of retries.
    return { delayMs: 5, status: 429, headers: { 'retry-after-ms': '40' }, body: openaiError('Too many concurrent requests', 'requests', 'rate_limit_exceeded') };
  }
  served++;
  // The delay keeps requests overlapping at the server, so "in flight" measures the client's concurrency
  // rather than how fast loopback answers. Even tasks pass, odd ones fail: both are judged outcomes.
  const n = Number(/task (\d+)/.exec(prompt)?.[1]);
  return { delayMs: 30, body: openaiCompletion({ content: n % 2 === 0 ? 'PASSWORD ok' : 'nothing' }) };
});

function project(): string {
  const dir = tempDir('whet-adaptive-');
  write(join(dir, 'skill/SKILL.md'), '---\nname: echo\ndescription: Answers the task.\n---\n# Echo\nAnswer.\n');
  const tasks = Array.from({ length: TASKS }, (_, i) => `  - id: t-${i}\n    prompt: "task ${i}"\n    judge: {type: contains, expected: ["PASSWORD"]}\n`);
  write(join(dir, 'skill/tasks.yaml'), `skill_id: echo\nversion: "1.0"\ntasks:\n${tasks.join('')}`);
  const engine = `{type: openai, model: m, base_url: "${server.url}/v1", api_key_env: WHET_ADAPTIVE_KEY, max_concurrency: 16, max_retries: 20}`;
  write(join(dir, 'pipeline.yaml'), `engine: ${engine}\nevaluate: {concurrency: 16}\n`);
  return dir;
}

const share = (xs: Seen[]): number => xs.filter((s) => s.refused).length / Math.max(1, xs.length);
const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const peak = (xs: Seen[]): number => Math.max(0, ...xs.map((s) => s.inFlight));

describe('evaluate: adaptive concurrency against a server that allows K at once, then lifts the limit', () => {
  it('settles near K while the limit holds, grows back above K once it is lifted, and counts no 429 as an error', async () => {
    const dir = project();
    const r = await whet(['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill', '--state-root', 'state', '--json'], {
      cwd: dir,
      env: { ...process.env, WHET_ADAPTIVE_KEY: 'sk-loopback-0000' },
    });
    expect(r.code, r.stderr).toBe(0);
    const a = JSON.parse(r.stdout);
    // Every 429 was retried to an answer: each task is judged pass or fail, none is an error.
    expect(a.evaluation).toMatchObject({ total_tasks: TASKS, errors: 0, passed: TASKS / 2, failed: TASKS / 2 });
    expect(a.task_results.filter((t: { status: string }) => t.status !== 'pass' && t.status !== 'fail')).toEqual([]);

    const p1 = seen.filter((s) => s.phase === 1);
    const p2 = seen.filter((s) => s.phase === 2);
    const first = p1.slice(0, Math.floor(p1.length / 2));
    const second = p1.slice(Math.floor(p1.length / 2));
    const third = Math.floor(p2.length / 3);
    const figures = {
      phase1Requests: p1.length,
      phase2Requests: p2.length,
      refusedFirstHalf: share(first),
      refusedSecondHalf: share(second),
      peakFirstHalf: peak(first),
      peakSecondHalf: peak(second),
      meanInFlightPhase2Start: mean(p2.slice(0, third).map((s) => s.inFlight)),
      meanInFlightPhase2End: mean(p2.slice(-third).map((s) => s.inFlight)),
      peakPhase2: peak(p2),
      mostRefusalsOfOneTask: Math.max(0, ...refusals.values()),
    };
    console.log(`evaluate-adaptive figures: ${JSON.stringify(figures)}`);

    // Phase 1: the start-up burst of 16 overshoots K (the limit is learned, not given); once learned, the
    // evaluator stays near K — probing K + 1 now and then, which is how AIMD finds the ceiling — and
    // refusals become rare.
    expect(figures.peakFirstHalf).toBeGreaterThan(K + 2);
    expect(figures.refusedSecondHalf).toBeLessThan(0.2);
    expect(figures.refusedSecondHalf).toBeLessThan(figures.refusedFirstHalf / 2);
    expect(figures.peakSecondHalf).toBeGreaterThanOrEqual(K);
    expect(figures.peakSecondHalf).toBeLessThanOrEqual(K + 2);
    // Phase 2: no 429s, so the limit grows back step by step: phase 2 starts from the learned limit and
    // climbs well above K, to at least twice it (the ceiling is max_concurrency 16).
    expect(p2.length).toBeGreaterThanOrEqual(TASKS - PHASE1_SERVED);
    expect(p2.some((s) => s.refused)).toBe(false);
    expect(p2[0]?.inFlight).toBeLessThanOrEqual(K + 2);
    expect(figures.meanInFlightPhase2End).toBeGreaterThan(figures.meanInFlightPhase2Start);
    expect(figures.meanInFlightPhase2End).toBeGreaterThan(K);
    expect(figures.peakPhase2).toBeGreaterThanOrEqual(2 * K);
    // ~4 s alone; the margin is for a loaded 2-core machine running the whole suite, where only time stretches.
  }, 90_000);
});
