// What the openai and anthropic engines share: the key, the retry policy and the concurrency controller
// built from config, the system text built from the skill, cost from the price table, and the shape of
// a finished call as an EngineResult.
//
// API keys only ever come from the environment variable the config names (`api_key_env`), never from
// the config file, and are kept out of everything whetstone writes: identities (which go into artifacts
// and cache keys) never hold them, and every message an HTTP engine produces passes through redact() —
// a proxy or provider that echoes the Authorization header back in an error body must not put the key
// into a results log.
import type { AnthropicEngineConfig, OpenAIEngineConfig, PriceTable } from '../config/engine-schema.js';
import { ConfigError } from '../core/errors.js';
import { createAdaptiveConcurrency, defaultCeiling, type AdaptiveConcurrencyController } from './adaptive.js';
import { SKILL_SEPARATOR } from './command.js';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry.js';
import type { EngineError, EngineRequest, EngineResult, FailedAttempt, ToolCall, Usage } from './types.js';
import { clip } from './values.js';

/** What one HTTP call came to after its retries (src/engines/http-call.ts). */
export type HttpCallOutcome<T> =
  | { ok: true; value: T; attempts: number; failed: FailedAttempt[] }
  | { ok: false; error: EngineError; attempts: number; failed: FailedAttempt[] };

/** Construction options of the HTTP engines; the hooks exist for tests (fake clock, fixed jitter). */
export interface HttpEngineOptions {
  /** Where the API key variable and the proxy variables (http-proxy-env.ts) are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  now?: () => number;
  /** Share one controller between engines that hit the same account. */
  concurrency?: AdaptiveConcurrencyController;
  /** The ceiling when the config sets no `max_concurrency`: the run's own concurrency (see defaultCeiling). */
  maxConcurrency?: number;
}

export { DEFAULT_MAX_CONCURRENCY, defaultCeiling } from './adaptive.js';

export const REDACTED = '[REDACTED]';

/** Reads the key from `env[name]`; a missing or empty variable is a ConfigError naming the variable only. */
export function readApiKey(name: string, env: NodeJS.ProcessEnv, engineType: string): string {
  const value = env[name];
  if (value === undefined || value.trim() === '') {
    throw new ConfigError(
      `the ${engineType} engine reads its API key from the environment variable ${name}, which is not set ` +
        `(set it, or name another variable with api_key_env; a keyless local server accepts any value)`,
      undefined,
      'engine.api_key_env',
    );
  }
  return value;
}

/**
 * Replaces every occurrence of each secret in `text`, also in its URL-encoded form (a key echoed back
 * through a query string). Secrets shorter than 4 characters are skipped: replacing them would shred
 * ordinary text without protecting anything.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) out = out.split(form).join(REDACTED);
  }
  return out;
}

export interface HttpRuntime {
  key: string;
  /** The environment variable the key came from, for "what to fix" messages. */
  keyEnv: string;
  policy: RetryPolicy;
  concurrency: AdaptiveConcurrencyController;
  /** The engine's environment: its proxy variables route every request (http-proxy-env.ts). */
  env: NodeJS.ProcessEnv;
  /** The largest answer body read, in bytes (`max_response_mib`). */
  maxResponseBytes: number;
}

/** `max_response_mib` when the config writes none: far above any chat answer, far below what hurts a run. */
export const DEFAULT_MAX_RESPONSE_MIB = 32;

export function httpRuntime(cfg: OpenAIEngineConfig | AnthropicEngineConfig, defaultKeyEnv: string, opts: HttpEngineOptions): HttpRuntime {
  const env = opts.env ?? process.env;
  const keyEnv = cfg.api_key_env ?? defaultKeyEnv;
  const key = readApiKey(keyEnv, env, cfg.type);
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    maxRetries: cfg.max_retries ?? DEFAULT_RETRY_POLICY.maxRetries,
    maxWaitMs: cfg.retry_max_wait_seconds !== undefined ? cfg.retry_max_wait_seconds * 1000 : DEFAULT_RETRY_POLICY.maxWaitMs,
  };
  const concurrency = opts.concurrency ?? createAdaptiveConcurrency({ max: defaultCeiling(cfg.max_concurrency, opts.maxConcurrency) });
  const maxResponseBytes = Math.floor((cfg.max_response_mib ?? DEFAULT_MAX_RESPONSE_MIB) * 1024 * 1024);
  return { key, keyEnv, policy, concurrency, env, maxResponseBytes };
}

/**
 * The system text of an HTTP call: the judge's `system` instructions, then the SKILL.md text exactly as
 * on disk, joined by SKILL_SEPARATOR; undefined when there is neither. The task prompt is the user turn.
 */
export function composeSystem(request: EngineRequest): string | undefined {
  const parts: string[] = [];
  if (request.system) parts.push(request.system);
  if (request.skill && request.skill.text.length > 0) parts.push(request.skill.text);
  return parts.length ? parts.join(SKILL_SEPARATOR) : undefined;
}

/** USD for the tokens of one call, when the config has a price table and the response counted tokens. */
export function costOf(usage: Usage, price: PriceTable | undefined): number | undefined {
  if (!price || (usage.input_tokens === undefined && usage.output_tokens === undefined)) return undefined;
  const usd = ((usage.input_tokens ?? 0) * price.input_per_mtok + (usage.output_tokens ?? 0) * price.output_per_mtok) / 1_000_000;
  return Math.round(usd * 1e9) / 1e9;
}

/** Reading a successful response: the answer, or why the body is not what the API promises. */
export type ResponseReading = { ok: true; output: string; tool_calls: ToolCall[]; usage: Usage } | { ok: false; message: string };

export { isRecord, num } from './values.js';

/** A short, single-line view of an unexpected body for parse errors. */
export function glimpse(value: unknown, max = 200): string {
  return clip(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), max);
}

/** The EngineResult of a finished HTTP call. */
export function finishHttpCall<T>(
  engine: string,
  outcome: HttpCallOutcome<T>,
  read: (value: T) => ResponseReading,
  price: PriceTable | undefined,
  startedAt: number,
  redactText: (s: string) => string,
): EngineResult {
  const base = {
    duration_ms: Math.max(0, Math.round(performance.now() - startedAt)),
    attempts: outcome.attempts,
    ...(outcome.failed.length ? { failed_attempts: outcome.failed } : {}),
  };
  if (!outcome.ok) return { ok: false, output: '', usage: {}, error: outcome.error, ...base };
  const reading = read(outcome.value);
  if (!reading.ok) return { ok: false, output: '', usage: {}, error: { kind: 'parse', message: redactText(`${engine}: ${reading.message}`) }, ...base };
  const usage: Usage = { ...reading.usage };
  const cost = costOf(usage, price);
  if (cost !== undefined) usage.cost_usd = cost;
  return { ok: true, output: reading.output, usage, ...base, ...(reading.tool_calls.length ? { tool_calls: reading.tool_calls } : {}) };
}
