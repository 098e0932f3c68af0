// The one interface every engine implements (docs/reference/engines.md). Expected failures — timeout,
// non-zero exit, unparseable output, HTTP error after retries — are values (`ok: false`), never
// exceptions, so the evaluator can count them as errors and not as task failures.

import type { SkillInput } from '../skill/read.js';

export interface EngineRequest {
  /** What the request is for: a task answer, or a judge's grading call. */
  kind: 'task' | 'judge';
  prompt: string;
  /** The skill under test; absent for judge calls and for "no skill" runs. */
  skill?: SkillInput;
  /** Extra system text (judges use it for their instructions). */
  system?: string;
  /** The caller expects a JSON object back (judges). */
  expectJson?: boolean;
  /**
   * For judge calls: the rubric and the output being graded, as given to the grader. Real engines only
   * read `prompt`; the mock grades from these so its verdicts are predictable.
   */
  grading?: {
    rubric: string;
    output: string;
    /** The reply the caller parses: `score` {score 0–1, reason} (default, judges) or `rating` {rating 0–10,
     * reason} (the discriminator's llm judge). */
    reply?: 'score' | 'rating';
  };
  /** For logs and for engines that name their workspace after the task. */
  taskId?: string;
  /**
   * Files the task needs (skill-creator evals' `files`), copied into the call's temporary workspace at
   * `path` before the agent starts (workspace.ts placeFiles); engines without a workspace ignore them.
   */
  files?: { source: string; path: string }[];
  timeoutMs: number;
  /** Sampling temperature for this call; overrides the engine config (HTTP engines only). */
  temperature?: number;
  /** Output token cap for this call; overrides the engine config (HTTP engines only). */
  maxTokens?: number;
  /**
   * Tools the model may call natively (HTTP engines only), e.g. for intent evals. Calls come back in
   * EngineResult.tool_calls; the engine never executes them.
   */
  tools?: ToolSpec[];
  /** `auto` (default), `none`, `required` (some tool), or one named tool. */
  toolChoice?: ToolChoice;
  /**
   * Earlier turns of the conversation, sent before `prompt` as real chat turns (HTTP engines only), so a
   * multi-turn intent case reaches the model the way a runtime would send it.
   */
  history?: ChatTurn[];
}

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

/** A provider-neutral tool definition; `input_schema` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description?: string;
  input_schema: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

export interface Usage {
  input_tokens?: number;
  output_tokens?: number;
  cost_usd?: number;
}

export interface ToolCall {
  name: string;
  input?: unknown;
  /** The provider's call id, when it gives one. */
  id?: string;
}

/** `rate_limited`: a subscription limit stopped the call (subscription-limit.ts); the run stops, resumable. */
export type EngineErrorKind = 'timeout' | 'exit' | 'spawn' | 'parse' | 'http' | 'aborted' | 'rate_limited';

/** A subscription rate limit an agent CLI reported (Claude Code's rate_limit_event, Codex's usage limit). */
export interface RateLimitInfo {
  /** Epoch milliseconds of the reset, when the CLI said. */
  resets_at?: number;
  /** The limit's type as named by the CLI (`five_hour`, `seven_day`, …). */
  type?: string;
  /** What the CLI said, for messages. */
  detail: string;
}

export interface EngineError {
  kind: EngineErrorKind;
  message: string;
  /** HTTP status of the last failed request (kind `http`). */
  status?: number;
  /** The provider's error type/code from the response body (`rate_limit_error`, `invalid_api_key`, …). */
  provider_type?: string;
  provider_code?: string;
  /**
   * Set when the endpoint cannot work as configured (a refused key, a wrong URL: src/engines/unusable.ts):
   * what to fix. The run stops at once instead of counting it as one more task error.
   */
  stop?: string;
}

/** One failed HTTP attempt, kept even when a later retry succeeded. */
export interface FailedAttempt {
  kind: EngineErrorKind | 'connection';
  message: string;
  status?: number;
  /** How long the engine waited before the next attempt (absent on the last one). */
  waited_ms?: number;
}

export interface EngineResult {
  ok: boolean;
  output: string;
  tool_calls?: ToolCall[];
  usage: Usage;
  duration_ms: number;
  error?: EngineError;
  /**
   * Agent engines with an installed skill: whether the agent invoked it (Claude Code's Skill tool naming
   * the skill; Codex reading the installed SKILL.md). Absent when no skill was installed or the engine
   * cannot tell.
   */
  skill_triggered?: boolean;
  /** Agent CLIs: the subscription rate limit this call ran into, when it failed on one. */
  rate_limit?: RateLimitInfo;
  /** HTTP engines: every failed request of this call, in order (retried or final). */
  failed_attempts?: FailedAttempt[];
  /** HTTP engines: how many requests this call sent. */
  attempts?: number;
}

export interface Engine {
  /** Engine type as written in config (`mock`, `command`, `claude`, …). */
  readonly type: string;
  /**
   * Everything that changes what this engine answers (program, model, flags, temperature), as plain
   * JSON. It is part of the baseline cache key, so two configs that answer differently must differ here.
   */
  identity(): Record<string, unknown>;
  run(request: EngineRequest, opts?: { signal?: AbortSignal }): Promise<EngineResult>;
  /**
   * HTTP engines: the adaptive concurrency controller the engine reports rate limits to. The caller (the
   * worker pool) acquires a slot around each run(); the engine itself never acquires one.
   */
  readonly concurrency?: AdaptiveConcurrency;
  /**
   * Agent CLIs: the subscription rate-limit gate (subscription-limit.ts). The caller waits in ready()
   * before each run() — nothing new starts while it is paused — and makes no call once it says why not.
   */
  readonly rateLimitGate?: { ready(signal?: AbortSignal): Promise<string | undefined> };
  /**
   * HTTP engines: load what the first call would otherwise load (node:http, or node:https and TLS), so the
   * task phase times calls, not imports. Never rejects: a failure to load surfaces on the first call.
   */
  prepare?(): Promise<void>;
}

/** See src/engines/adaptive.ts. */
export interface AdaptiveConcurrency {
  acquire(signal?: AbortSignal): Promise<() => void>;
  onRateLimited(): void;
  onSuccess(): void;
  readonly limit: number;
  readonly max: number;
  readonly inFlight: number;
  /** The lowest limit 429s drove it to so far (what the run's summary reports as the adaptive limit). */
  stats?(): { minLimit: number; decreases: number };
}
