// The llm judge wired to the run, apart from its prompt logic (judge.ts): which engine rates (or why
// none can), the train failures each candidate answers, and the calls it cost. Train failures come from
// the generator's own reader (baseline.json and the suite's frozen splits must both say train).
import type { EngineConfig } from '../../src/config/engine-schema.js';
import { countCalls, createEngine, type Engine } from '../../src/engines/index.js';
import { ConfigError } from '../../src/core/errors.js';
import type { LoopContext } from '../../src/loop/context.js';
import type { StandaloneEvaluation } from '../../src/artifacts/evaluation.js';
import { trainFailuresWithPrompts } from '../../src/loop/train-failures.js';
import type { Candidate } from '../../src/artifacts/candidates.js';
import { judgeCandidate, type JudgeFailure, type Judgement } from './judge.js';

export interface DiscriminateDeps {
  /** The engine the llm judge asks (tests pass a scripted one); default: built from the config. */
  judgeEngine?: Engine;
}

/**
 * loop.discriminate.judge_engine, else judge_engine, else the task engine. A mock run stays offline: its
 * judge is the mock, as the evaluator's judges are with --mock.
 */
export function llmJudgeEngineConfig(ctx: Pick<LoopContext, 'manifest' | 'config'>): EngineConfig {
  if (ctx.manifest.mock) return { type: 'mock' };
  const cfg = ctx.config.loop.llmJudgeEngine ?? ctx.config.judgeEngine ?? ctx.config.engine;
  if (!cfg) throw new ConfigError(`loop.discriminate.llm_judge is on but no engine is configured for it: set loop.discriminate.judge_engine, judge_engine or engine in ${ctx.config.path ?? 'pipeline.yaml'}`);
  return cfg;
}

export interface JudgeRun {
  /** Per candidate id; candidates not judged (a broken variant) are absent. */
  judgements: Map<string, Judgement>;
  calls: number;
  costUsd: number;
  engine: string;
  /** Ctrl-C stopped the calls: nothing may be written from a partial set. */
  interrupted: boolean;
}

export async function runLlmJudge(ctx: LoopContext, baseline: StandaloneEvaluation, candidates: readonly Candidate[], deps: DiscriminateDeps): Promise<JudgeRun> {
  const engine = countCalls(deps.judgeEngine ?? createEngine(llmJudgeEngineConfig(ctx), { env: ctx.env }));
  const failures = new Map<string, JudgeFailure>(trainFailuresWithPrompts((await ctx.opened()).suite.tasks, baseline.task_results).map((f) => [f.task_id, { task_id: f.task_id, category: f.category, split: f.split, reason: f.reason }]));
  const out: JudgeRun = { judgements: new Map(), calls: 0, costUsd: 0, engine: engine.type, interrupted: false };
  for (const c of candidates) {
    // Only failures the run itself recorded as train ones are shown, whatever the candidate claims.
    const answered = (c.answers.tasks ?? []).flatMap((id) => failures.get(id) ?? []);
    const j = await judgeCandidate(engine, c, answered, { timeoutMs: ctx.config.taskTimeoutMs, ...(ctx.signal ? { signal: ctx.signal } : {}) });
    out.costUsd += j.costUsd;
    if (ctx.signal?.aborted) {
      out.interrupted = true;
      break;
    }
    out.judgements.set(c.id, j);
  }
  out.calls = engine.calls();
  return out;
}
