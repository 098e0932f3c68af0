// Builds the engine a config names. There is no fallback: an engine that cannot be built is an error,
// and the mock engine is only ever used when the config or the --mock flag says so.
import type { EngineConfig } from '../config/engine-schema.js';
import { createClaudeEngine } from './claude.js';
import { createCommandEngine } from './command.js';
import { createMockEngine } from './mock.js';
import type { Engine, EngineRequest, EngineResult } from './types.js';

export type { Engine, EngineRequest, EngineResult, SkillInput } from './types.js';

/** `env` is the environment engine programs start from (the CLI passes its own; default process.env). */
export function createEngine(cfg: EngineConfig, opts: { suiteDir?: string; env?: NodeJS.ProcessEnv } = {}): Engine {
  switch (cfg.type) {
    case 'mock':
      return createMockEngine(cfg);
    case 'command':
      return createCommandEngine(cfg, opts);
    case 'claude':
      return createClaudeEngine(cfg, opts);
  }
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
  };
}
