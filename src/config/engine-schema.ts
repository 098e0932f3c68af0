// Engine configuration as written in pipeline.yaml (`engine:` and `judge_engine:`).
import { z } from 'zod';

export const mockEngineConfig = z.strictObject({
  type: z.literal('mock'),
  /** Simulated latency per call, for benchmarks of concurrency. */
  latency_ms: z.number().int().min(0).max(600_000).optional(),
});

/** How the skill reaches a command engine. */
export const skillDelivery = z.enum(['prepend', 'env', 'none']);

export const commandEngineConfig = z.strictObject({
  type: z.literal('command'),
  /** Program and arguments; never run through a shell with user data spliced in. */
  command: z.array(z.string().min(1)).min(1),
  /** `text`: stdout is the answer; `json`: stdout is JSON and `json_path` picks the answer. */
  output: z.enum(['text', 'json']).optional(),
  /** Dotted path into the JSON output, e.g. `result` or `choices.0.message.content`. */
  json_path: z.string().min(1).optional(),
  skill_delivery: skillDelivery.optional(),
  /** Extra environment variables for the program. */
  env: z.record(z.string(), z.string()).optional(),
  /** `temp`: a fresh empty directory per task (default); `suite`: the suite's folder. */
  workdir: z.enum(['temp', 'suite']).optional(),
  timeout_seconds: z.number().positive().optional(),
});

export const claudeEngineConfig = z.strictObject({
  type: z.literal('claude'),
  /** The executable (default `claude`, looked up on PATH). */
  bin: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  max_turns: z.number().int().positive().optional(),
  extra_args: z.array(z.string()).optional(),
  timeout_seconds: z.number().positive().optional(),
});

export const engineConfig = z.discriminatedUnion('type', [mockEngineConfig, commandEngineConfig, claudeEngineConfig]);
export type EngineConfig = z.infer<typeof engineConfig>;
export type MockEngineConfig = z.infer<typeof mockEngineConfig>;
export type CommandEngineConfig = z.infer<typeof commandEngineConfig>;
export type ClaudeEngineConfig = z.infer<typeof claudeEngineConfig>;
