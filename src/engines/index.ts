// Builds the engine a config names. There is no fallback: an engine that cannot be built is an error,
// and the mock engine is only ever used when the config or the --mock flag says so.
//
// The HTTP engines (openai, anthropic) read their API key when they are built, so a missing key is a
// ConfigError before any state is touched; `env` is where it is looked up.
import type { EngineConfig } from '../config/engine-schema.js';
import { createAnthropicEngine } from './anthropic.js';
import { createClaudeEngine } from './claude.js';
import { createCodexEngine } from './codex.js';
import { createCommandEngine } from './command.js';
import type { HttpEngineOptions } from './http-common.js';
import { createMockEngine } from './mock.js';
import { createOpenAIEngine } from './openai.js';
import { redactDeep } from '../core/redact.js';
import type { Engine, EngineRequest, EngineResult } from './types.js';

export type { AdaptiveConcurrency, Engine, EngineRequest, EngineResult, ToolCall, ToolSpec } from './types.js';
export { AdaptiveConcurrencyController, createAdaptiveConcurrency } from './adaptive.js';

export interface CreateEngineOptions {
  suiteDir?: string;
  /** The environment engine programs start from, API keys and HTTP proxy variables are read from (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Test hooks and a shared concurrency controller for the HTTP engines. */
  http?: Omit<HttpEngineOptions, 'env'>;
  /**
   * The concurrency the run asked for (`--concurrency`, `evaluate.concurrency`): the adaptive ceiling of
   * HTTP and agent-CLI engines whose config sets no `max_concurrency`.
   */
  maxConcurrency?: number;
}

export function createEngine(cfg: EngineConfig, opts: CreateEngineOptions = {}): Engine {
  return redacted(buildEngine(cfg, opts));
}

/**
 * Identities and error messages are recorded in every artifact and printed: a key in a base_url's
 * userinfo or in a command's argv must not travel with them (src/core/redact.ts). Answers are left alone.
 */
function redacted(engine: Engine): Engine {
  return {
    type: engine.type,
    identity: () => redactDeep(engine.identity()),
    async run(req: EngineRequest, opts?: { signal?: AbortSignal }): Promise<EngineResult> {
      const res = await engine.run(req, opts);
      if (!res.error && !res.failed_attempts) return res;
      return { ...res, ...(res.error ? { error: redactDeep(res.error) } : {}), ...(res.failed_attempts ? { failed_attempts: redactDeep(res.failed_attempts) } : {}) };
    },
    ...(engine.concurrency ? { concurrency: engine.concurrency } : {}),
    // The subscription-limit gate: without it the metering would start calls the limit has already stopped.
    ...(engine.rateLimitGate ? { rateLimitGate: engine.rateLimitGate } : {}),
    ...(engine.prepare ? { prepare: engine.prepare } : {}),
  };
}

function buildEngine(cfg: EngineConfig, opts: CreateEngineOptions): Engine {
  switch (cfg.type) {
    case 'mock':
      return createMockEngine(cfg);
    case 'command':
      return createCommandEngine(cfg, opts);
    case 'claude':
      return createClaudeEngine(cfg, opts);
    case 'codex':
      return createCodexEngine(cfg, opts);
    case 'openai':
      return createOpenAIEngine(cfg, { ...httpOptions(opts) });
    case 'anthropic':
      return createAnthropicEngine(cfg, { ...httpOptions(opts) });
  }
}

function httpOptions(opts: CreateEngineOptions): HttpEngineOptions {
  return { ...opts.http, ...(opts.env ? { env: opts.env } : {}), ...(opts.maxConcurrency !== undefined ? { maxConcurrency: opts.maxConcurrency } : {}) };
}

/** Wraps an engine so the caller can tell exactly how many calls reached it. */
export function countCalls(engine: Engine): Engine & { calls(): number } {
  let calls = 0;
  return {
    type: engine.type,
    identity: () => engine.identity(),
    run(req: EngineRequest, opts?: { signal?: AbortSignal }): Promise<EngineResult> {
      calls++;
      return engine.run(req, opts);
    },
    calls: () => calls,
    ...(engine.concurrency ? { concurrency: engine.concurrency } : {}),
    ...(engine.rateLimitGate ? { rateLimitGate: engine.rateLimitGate } : {}),
    ...(engine.prepare ? { prepare: engine.prepare } : {}),
  };
}
