// Adaptive concurrency end to end: a loopback server that serves at most K requests at once and answers
// 429 (retry-after 0.1 s) beyond that, the openai engine reporting every 429 and success to its
// controller, and a pool of workers that holds one controller slot per engine call — the way the
// evaluator's worker pool is meant to use Engine.concurrency.
import { describe, expect, it } from 'vitest';

import { createOpenAIEngine } from '../../src/engines/openai.js';
import type { Engine, EngineResult } from '../../src/engines/types.js';
import type { LoopbackServer } from '../support/http/server.js';
import { useLoopbackServer } from '../support/http/use-server.js';
import { openaiCompletion, openaiError } from '../support/http/wire.js';

const K = 4;

const server = useLoopbackServer((rq) =>
  rq.inFlight > K
    ? { status: 429, headers: { 'retry-after': '0.1' }, body: openaiError('Too many concurrent requests', 'requests', 'rate_limit_exceeded') }
    : { delayMs: 40, body: openaiCompletion({ content: 'ok' }) },
);

/** 429s among the requests that arrived in the second half of the run (after the start-up burst). */
function secondHalf(s: LoopbackServer): { refused: number; total: number } {
  const end = Math.max(...s.requests.map((r) => r.at));
  const start = Math.min(...s.requests.map((r) => r.at));
  const late = s.requests.filter((r) => r.at >= (start + end) / 2);
  return { refused: late.filter((r) => r.inFlight > K).length, total: late.length };
}

/** Runs `calls` engine calls with `workers` workers, each call inside a controller slot; samples the limit. */
async function pool(engine: Engine, workers: number, calls: number): Promise<{ results: EngineResult[]; limits: number[]; peakHeld: number }> {
  const c = engine.concurrency;
  if (!c) throw new Error('the openai engine exposes no concurrency controller');
  const results: EngineResult[] = [];
  const limits: number[] = [];
  let next = 0;
  let peakHeld = 0;
  const sampler = setInterval(() => limits.push(c.limit), 20);
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < calls) {
        next++;
        const release = await c.acquire();
        peakHeld = Math.max(peakHeld, c.inFlight);
        try {
          results.push(await engine.run({ kind: 'task', prompt: 'hi', timeoutMs: 5000 }));
        } finally {
          release();
        }
      }
    }),
  );
  clearInterval(sampler);
  return { results, limits, peakHeld };
}

describe('adaptive concurrency against a server that allows K = 4 at once', () => {
  it('settles near K: every call succeeds, few requests are refused, the limit never returns to 32', async () => {
    server.requests.length = 0;
    const engine = createOpenAIEngine(
      { type: 'openai', model: 'm', base_url: `${server.url}/v1`, api_key_env: 'K', max_concurrency: 32, max_retries: 40 },
      { env: { K: 'sk-loopback-0000' } },
    );
    const { results, limits } = await pool(engine, 32, 240);
    expect(results.every((r) => r.ok)).toBe(true);
    const steady = secondHalf(server);
    const late = limits.slice(Math.floor(limits.length / 2));
    const mean = late.reduce((a, b) => a + b, 0) / late.length;
    expect(mean).toBeGreaterThanOrEqual(K / 2);
    expect(mean).toBeLessThanOrEqual(K + 2);
    expect(Math.max(...late)).toBeLessThanOrEqual(K + 4);
    // Without the controller all 32 workers hit the server at once and most requests are refused (next
    // test); with it, once the limit is learned, refusals are a small share of the traffic.
    expect(steady.refused / steady.total).toBeLessThan(0.2);
    expect(server.maxInFlight()).toBeGreaterThan(K); // the first burst did overshoot: the limit was learned, not given
  });

  it('without acquiring slots, the same load is refused far more often (the baseline the controller beats)', async () => {
    server.requests.length = 0;
    const engine = createOpenAIEngine(
      { type: 'openai', model: 'm', base_url: `${server.url}/v1`, api_key_env: 'K', max_concurrency: 32, max_retries: 20, retry_max_wait_seconds: 5 },
      { env: { K: 'sk-loopback-0000' } },
    );
    let next = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (next < 240) {
          next++;
          await engine.run({ kind: 'task', prompt: 'hi', timeoutMs: 5000 });
        }
      }),
    );
    const steady = secondHalf(server);
    expect(steady.refused / steady.total).toBeGreaterThan(0.5);
  });
});
