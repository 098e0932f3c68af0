// `--engine` / `--compare` values for intent evals:
//
//   floor                    the deterministic rule-based floor planner (floor.ts)
//   command:PROGRAM [ARGS]   any program speaking the JSON protocol in command-engine.ts; the rest of
//                            the value is split into arguments like a shell would, quotes included,
//                            but nothing is expanded and no shell runs
//   openai:MODEL             an OpenAI-compatible endpoint (OPENAI_BASE_URL, OPENAI_API_KEY)
//   anthropic:MODEL          the Anthropic Messages API (ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY)
//
// The two model engines are the engine family's openai / anthropic engines behind an adapter
// (model-engine.ts); floor and command speak intents' own protocols and live here.
import { UsageError } from '../core/errors.js';
import { createModelIntentEngine } from './model-engine.js';
import { createCommandIntentEngine } from './command-engine.js';
import { createFloorEngine } from './floor.js';
import type { IntentEngine } from '../config/intent-types.js';

export type EngineSpec =
  | { type: 'floor' }
  | { type: 'command'; commandLine: string }
  | { type: 'openai'; model: string }
  | { type: 'anthropic'; model: string };

export const ENGINE_SPEC_HELP = 'floor, command:PROGRAM [ARGS], openai:MODEL or anthropic:MODEL';

export function parseEngineSpec(value: string): EngineSpec {
  const v = value.trim();
  if (v === 'floor') return { type: 'floor' };
  const m = /^(command|openai|anthropic):([\s\S]*)$/.exec(v);
  if (!m) throw new UsageError(`unknown intent engine "${value}"; expected ${ENGINE_SPEC_HELP}`);
  const rest = m[2]!.trim();
  if (rest === '') throw new UsageError(`--engine ${m[1]}: needs ${m[1] === 'command' ? 'a program' : 'a model name'} after the colon`);
  if (m[1] === 'command') return { type: 'command', commandLine: rest };
  return { type: m[1] as 'openai' | 'anthropic', model: rest };
}

export interface EngineDeps {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** HTTP retries of the model engines (`--retries`). */
  maxRetries?: number;
  /** Cases decided at once (`--concurrency`); the model engines' adaptive-concurrency ceiling. */
  concurrency?: number;
}

export function createIntentEngine(value: string, deps: EngineDeps): IntentEngine {
  const spec = parseEngineSpec(value);
  switch (spec.type) {
    case 'floor':
      return createFloorEngine();
    case 'command':
      return createCommandIntentEngine(value.trim(), spec.commandLine, deps);
    case 'openai':
    case 'anthropic':
      return createModelIntentEngine(value.trim(), spec.type, spec.model, deps);
  }
}
