// Reading Claude Code's result envelope — the `type: "result"` message that ends every headless run:
// the whole stdout of `--output-format json`, and the last line of `--output-format stream-json`. The
// shape is the Agent SDK's ResultMessage; test/fixtures/bin/claude lists the fields and sources.
//
// Mapping: output = `result`; usage via extractUsage (input_tokens + cache_creation_input_tokens +
// cache_read_input_tokens, output_tokens, total_cost_usd). An envelope with `is_error: true` (API errors
// arrive as `subtype: "success"` + `is_error: true`, sometimes with exit code 0) or any subtype other than
// `success` (`error_max_turns`, `error_during_execution`, `error_max_budget_usd`, …) is an `exit` error
// whose message carries the subtype, `api_error_status` and the error text, with the spent usage.
import { claudeRateLimit } from './claude-rate-limit.js';
import { extractUsage } from './command.js';
import { parseJsonStdout, type RunExtras, type StdoutVerdict } from './invocation.js';
import type { Usage } from './types.js';
import { isRecord, clip } from './values.js';


/** The result envelope in parsed stdout: the object itself, or the last `type: "result"` of an array. */
function findEnvelope(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value)) {
    for (let i = value.length - 1; i >= 0; i--) {
      const item: unknown = value[i];
      if (isRecord(item) && item['type'] === 'result') return item;
    }
    return undefined;
  }
  return isRecord(value) && (value['type'] === 'result' || 'result' in value || 'subtype' in value) ? value : undefined;
}


export function withStatus(env: Record<string, unknown>): { status?: number } {
  const status = apiErrorStatus(env);
  return status === undefined ? {} : { status };
}

/** Why an envelope is an error, or undefined when it is a success. */
export function envelopeError(env: Record<string, unknown>): string | undefined {
  const subtype = typeof env['subtype'] === 'string' ? env['subtype'] : undefined;
  const isError = env['is_error'] === true;
  if (!isError && (subtype === undefined || subtype === 'success')) return undefined;
  const bits = [`claude reported ${isError ? 'is_error' : 'an error'} (subtype ${subtype ?? 'missing'}`];
  if (typeof env['api_error_status'] === 'number') bits.push(`, api_error_status ${env['api_error_status']}`);
  if (typeof env['num_turns'] === 'number') bits.push(`, num_turns ${env['num_turns']}`);
  bits.push(')');
  const details: string[] = [];
  if (typeof env['result'] === 'string' && env['result'].trim()) details.push(clip(env['result'], 400));
  if (Array.isArray(env['errors'])) {
    const errs = env['errors'].filter((e): e is string => typeof e === 'string' && e.trim().length > 0);
    if (errs.length) details.push(clip(errs.join(' | '), 400));
  }
  return details.length ? `${bits.join('')}: ${details.join(' — ')}` : bits.join('');
}

/** The provider's HTTP status behind an `is_error` envelope (`api_error_status`), when it names one. */
export function apiErrorStatus(env: Record<string, unknown>): number | undefined {
  const s = env['api_error_status'];
  return env['is_error'] === true && typeof s === 'number' && Number.isInteger(s) ? s : undefined;
}

/** Reads Claude Code's `--output-format json` stdout from a run that exited 0. Pure; unit-tested. */
export function parseClaudeStdout(stdout: string): StdoutVerdict {
  const parsed = parseJsonStdout(stdout);
  if (!parsed.ok) return { ok: false, kind: 'parse', message: parsed.message };
  const env = findEnvelope(parsed.value);
  if (!env) return { ok: false, kind: 'parse', message: `stdout is JSON but not a Claude Code result (no "type": "result" object): "${clip(stdout, 200)}"` };
  const usage: Usage = extractUsage(env);
  const why = envelopeError(env);
  if (why) return { ok: false, kind: 'exit', message: why, usage, ...withStatus(env), ...limitExtras(env) };
  if (typeof env['result'] !== 'string') {
    return { ok: false, kind: 'parse', message: 'Claude Code result has no "result" string', usage };
  }
  return { ok: true, output: env['result'], usage };
}

/** The subscription limit an error envelope names ("Claude AI usage limit reached|<reset>"), as extras. */
function limitExtras(env: Record<string, unknown>): { extras?: RunExtras } {
  const limit = claudeRateLimit([], false, env);
  return limit ? { extras: { rate_limit: limit } } : {};
}

/** For a non-zero exit: the envelope's own account of the failure, when stdout carries one. */
export function explainClaudeExit(stdout: string): { message: string; usage?: Usage; extras?: RunExtras; status?: number } | undefined {
  const parsed = parseJsonStdout(stdout);
  if (!parsed.ok) return undefined;
  const env = findEnvelope(parsed.value);
  if (!env) return undefined;
  const usage = extractUsage(env);
  const why = envelopeError(env);
  if (why) return { message: why, usage, ...withStatus(env), ...limitExtras(env) };
  const subtype = typeof env['subtype'] === 'string' ? env['subtype'] : 'missing';
  return { message: `claude printed a result with subtype ${subtype} but exited non-zero`, usage };
}

