// Every engine call of a run goes through the budget and the engine's adaptive limiter: task calls,
// llm-rubric judge calls and the generator's. These drive runVariant with scripted engines.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSuite } from '../../src/config/suite.js';
import { createAdaptiveConcurrency } from '../../src/engines/adaptive.js';
import type { Engine, EngineRequest, EngineResult } from '../../src/engines/types.js';
import { Budget } from '../../src/evaluation/budget.js';
import { usedInRun } from '../../src/evaluation/run-usage.js';
import { configureEngine, meterEngine } from '../../src/evaluation/metered.js';
import { runVariant } from '../../src/evaluation/run-variant.js';
import { tempDir, write } from '../support/cli.js';

const GRADE = JSON.stringify({ label: 'PASS', score: 1, reason: 'fine' });

function scripted(type: string, answer: (req: EngineRequest) => Partial<EngineResult>, concurrency?: Engine['concurrency']): Engine & { requests: EngineRequest[] } {
  const requests: EngineRequest[] = [];
  return {
    type,
    requests,
    identity: () => ({ type }),
    run: async (req) => {
      requests.push(req);
      return { ok: true, output: 'answer', usage: {}, duration_ms: 1, ...answer(req) };
    },
    ...(concurrency ? { concurrency } : {}),
  };
}

function setup(tasks = 2) {
  const dir = tempDir();
  const body = Array.from({ length: tasks }, (_, i) => `  - id: t${i}\n    prompt: question ${i}\n    judge: {type: llm-rubric, rubric: "answers the question"}\n`).join('');
  write(join(dir, 'tasks.yaml'), `skill_id: s\nversion: "1.0"\ntasks:\n${body}`);
  const suite = loadSuite(join(dir, 'tasks.yaml'), { defaultTimeoutMs: 5000 });
  const runDir = join(dir, 'run');
  return { suite, runDir, resultsFile: join(runDir, 'results', 'baseline.jsonl') };
}

const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('judge calls under the run budget', () => {
  it('max_engine_calls counts llm-rubric calls; their cost and tokens reach the results lines and usedInRun', async () => {
    const s = setup();
    const engine = scripted('command', () => ({ usage: { input_tokens: 10, output_tokens: 5, cost_usd: 0.01 } }));
    const judge = scripted('command', () => ({ output: GRADE, usage: { input_tokens: 100, output_tokens: 20, cost_usd: 0.02 } }));
    const budget = new Budget({ maxEngineCalls: 3 }, { calls: 0, cost: 0 });
    const out = await runVariant({ variant: 'baseline', suite: s.suite, engine, judgeEngine: judge, passK: 1, concurrency: 1, resultsFile: s.resultsFile, budget });
    expect(engine.requests).toHaveLength(2);
    expect(judge.requests).toHaveLength(1);
    expect(out.interrupted).toBe(true);
    expect(out.budgetExhausted).toMatch(/engine calls: 3 of max_engine_calls 3/);
    const [first, second] = lines(s.resultsFile);
    expect(first).toMatchObject({ status: 'pass', engine_calls: 2, judge_usage: { cost_usd: 0.02, input_tokens: 100 } });
    // The refused judge leaves an error line: it records the task call, and a resume redoes the attempt.
    expect(second).toMatchObject({ status: 'error', engine_calls: 1 });
    expect(usedInRun(s.runDir)).toEqual({ calls: 3, engine: 2, judge: 1, generator: 0, cost: 0.04, input_tokens: 120, output_tokens: 30 });
  });

  it('max_cost_usd sees judge cost: the second attempt never starts', async () => {
    const s = setup();
    const engine = scripted('command', () => ({ usage: { cost_usd: 0.01 } }));
    const judge = scripted('command', () => ({ output: GRADE, usage: { cost_usd: 0.02 } }));
    const budget = new Budget({ maxCostUsd: 0.025 }, { calls: 0, cost: 0 });
    const out = await runVariant({ variant: 'baseline', suite: s.suite, engine, judgeEngine: judge, passK: 1, concurrency: 1, resultsFile: s.resultsFile, budget });
    expect(engine.requests).toHaveLength(1);
    expect(out.budgetExhausted).toMatch(/cost: \$0\.0300/);
  });
});

describe('adaptive concurrency for judge engines', () => {
  it('a judge call holds a slot of the judge engine controller', async () => {
    const s = setup(1);
    const controller = createAdaptiveConcurrency({ max: 2 });
    const held: number[] = [];
    const judge = scripted('openai', () => {
      held.push(controller.inFlight);
      return { output: GRADE };
    }, controller);
    await runVariant({ variant: 'baseline', suite: s.suite, engine: scripted('command', () => ({})), judgeEngine: judge, passK: 1, concurrency: 1, resultsFile: s.resultsFile });
    expect(held).toEqual([1]);
    expect(controller.inFlight).toBe(0);
  });
});

describe('results lines', () => {
  it('keep every failed request with its cause, not only their count', async () => {
    const s = setup(1);
    const failed = [{ kind: 'http' as const, status: 429, message: 'HTTP 429 rate_limit_error: slow down', waited_ms: 1000 }];
    const engine = scripted('openai', () => ({ failed_attempts: failed }));
    const judge = scripted('command', () => ({ output: GRADE }));
    await runVariant({ variant: 'baseline', suite: s.suite, engine, judgeEngine: judge, passK: 1, concurrency: 1, resultsFile: s.resultsFile });
    expect(lines(s.resultsFile)[0].failed_attempts).toEqual(failed);
  });
});

describe('cost of engines that report none', () => {
  it('prices claude/codex calls from the config price table when only tokens are reported', async () => {
    const codex = scripted('codex', () => ({ usage: { input_tokens: 1_000_000, output_tokens: 500_000 } }));
    const priced = configureEngine(codex, { type: 'codex', price: { input_per_mtok: 2, output_per_mtok: 8 } });
    const r = await priced.run({ kind: 'task', prompt: 'p', timeoutMs: 1000 });
    expect(r.usage.cost_usd).toBe(6);
  });

  it('warns once per engine that the cost budget cannot be enforced', async () => {
    const warnings: string[] = [];
    const budget = new Budget({ maxCostUsd: 1 }, { calls: 0, cost: 0 }, Date.now, (l) => warnings.push(l));
    const codex = meterEngine(scripted('codex', () => ({ usage: { input_tokens: 5 } })), { budget });
    await codex.run({ kind: 'task', prompt: 'p', timeoutMs: 1000 });
    await codex.run({ kind: 'task', prompt: 'p', timeoutMs: 1000 });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/codex engine reported no cost.*max_cost_usd \(1\) cannot be enforced/);
  });

  it('gives a judge engine its own timeout_seconds', async () => {
    const judge = scripted('command', () => ({}));
    const timed = configureEngine(judge, { type: 'command', command: ['x'], timeout_seconds: 2 }, { overrideTimeout: true });
    await timed.run({ kind: 'judge', prompt: 'p', timeoutMs: 600_000 });
    expect(judge.requests[0]?.timeoutMs).toBe(2000);
  });
});

describe('a subscription rate limit stops the run, never records a result', () => {
  it('a judge call stopped by the limit leaves no line; the task calls still to start are refused by the gate', async () => {
    const { SubscriptionLimit } = await import('../../src/engines/subscription-limit.js');
    const gate = new SubscriptionLimit('claude');
    const { suite, resultsFile } = setup(3);
    const task = scripted('claude', () => ({ output: 'answer' }));
    // The judge's first call hits a limit whose reset is beyond the maximum wait: it stops the gate.
    const judge = scripted('claude', () => {
      gate.hit({ resetsAt: Date.now() + 3_600_000, maxWaitMs: 1000, detail: 'rate_limit_event status rejected' });
      return { ok: false, output: '', error: { kind: 'rate_limited', message: 'claude: limit reached' } };
    });
    const out = await runVariant({
      variant: 'baseline', suite, engine: { ...task, rateLimitGate: gate }, judgeEngine: { ...judge, rateLimitGate: gate },
      passK: 1, concurrency: 1, resultsFile,
    });
    expect(out.interrupted).toBe(true);
    expect(out.rateLimited).toBe('claude: limit reached');
    // One task call and one judge call were made; the other tasks never started a process.
    expect(task.requests).toHaveLength(1);
    expect(judge.requests).toHaveLength(1);
    expect(readFileSync(resultsFile, 'utf8').trim()).toBe('');
  });
});
