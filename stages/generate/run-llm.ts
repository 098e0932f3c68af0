// The llm proposer wired to the run, apart from its prompt logic (propose-llm.ts): which engine writes
// the proposals (or why none can), the train failures with their requests, and the calls it cost. A task
// counts as train only when both baseline.json and the suite (split as the evaluator splits it) say so.
import type { EngineConfig } from '../../src/config/engine-schema.js';
import { createEngine, type Engine } from '../../src/engines/index.js';
import { configureEngine, engineTimeoutMs, meterEngine } from '../../src/evaluation/metered.js';
import type { LoopContext } from '../../src/loop/context.js';
import type { StandaloneEvaluation } from '../../src/artifacts/evaluation.js';
import type { Lesson } from '../../src/artifacts/learning.js';
import { proposeLlm, type LlmFeedback } from './propose-llm.js';
import { trainFailuresWithPrompts } from '../../src/loop/train-failures.js';
import type { Proposal, ProposerError } from './proposal.js';

/** The generator engine's config, or why the llm proposer cannot run. */
export function generatorEngineConfig(ctx: Pick<LoopContext, 'manifest' | 'config'>): { cfg: EngineConfig } | { skip: string } {
  if (ctx.manifest.mock) return { skip: 'skipped: the run uses the mock engine, which answers by quoting the skill and cannot write JSON proposals' };
  const cfg = ctx.config.loop.generatorEngine ?? ctx.config.engine;
  if (!cfg) return { skip: 'skipped: no engine configured for it (set loop.generator_engine or engine in pipeline.yaml)' };
  if (cfg.type === 'mock') return { skip: 'skipped: the generator engine is the mock engine, which cannot write JSON proposals' };
  return { cfg };
}

export interface GenerateDeps {
  /** The engine the llm proposer asks (tests pass a scripted one); default: built from the config. */
  generatorEngine?: Engine;
}

export interface LlmRun {
  proposals: Proposal[];
  errors: ProposerError[];
  calls: number;
  costUsd: number;
}

export async function runLlmProposer(ctx: LoopContext, text: string, baseline: StandaloneEvaluation, lessons: Lesson[], deps: GenerateDeps, feedback: readonly LlmFeedback[] = []): Promise<LlmRun> {
  let engine = deps.generatorEngine;
  let timeoutMs = ctx.config.taskTimeoutMs;
  if (!engine) {
    const choice = generatorEngineConfig(ctx);
    if ('skip' in choice) return { proposals: [], errors: [{ proposer: 'llm', message: choice.skip }], calls: 0, costUsd: 0 };
    engine = configureEngine(createEngine(choice.cfg, { env: ctx.env }), choice.cfg);
    timeoutMs = engineTimeoutMs(choice.cfg) ?? timeoutMs;
  }
  // The generator's calls count against the run's budget and hold the engine's rate-limit slots like any other.
  const counted = meterEngine(engine, { budget: ctx.budget });
  const { suite } = await ctx.opened();
  const input = { skillText: text, failures: trainFailuresWithPrompts(suite.tasks, baseline.task_results), lessons, max: ctx.config.loop.candidatesPerIteration, feedback };
  const r = await proposeLlm(counted, input, { timeoutMs, signal: ctx.signal });
  return { proposals: r.proposals, errors: r.errors, calls: counted.calls(), costUsd: r.costUsd };
}
