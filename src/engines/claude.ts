// The `claude` engine: a preset of the command engine that runs Claude Code headless (DESIGN.md "Engines").
//
//   <bin> -p --output-format json [--model M] [--max-turns N] [...extra_args]
//
// started through runProcess in a fresh, empty temporary directory per call (removed afterwards, also on
// failure), with the prompt on stdin and the skill prepended to it exactly as the command engine does
// (composePrompt: SKILL.md text, SKILL_SEPARATOR, prompt; a judge's `system` text first). `CLAUDECODE` is
// removed from the child's environment: Claude Code ≥ 2.1.39 refuses to start when it finds it ("cannot
// be launched inside another Claude Code session"), which is exactly the case when whetstone itself runs
// from a Claude Code session; the evaluated run is a separate session, not a nested one.
//
// stdout is the CLI's result envelope (`--output-format json`), the same shape as the Agent SDK's
// ResultMessage — see test/fixtures/bin/claude for the field list and sources:
//   {"type":"result","subtype":"success","is_error":false,"duration_ms":…,"duration_api_ms":…,
//    "num_turns":…,"result":"…","session_id":"…","total_cost_usd":…,"usage":{"input_tokens":…,
//    "cache_creation_input_tokens":…,"cache_read_input_tokens":…,"output_tokens":…}, …}
// Some setups (`--verbose` in extra_args, hooks) print the whole message list as a JSON array instead;
// the last element with `type: "result"` is then the envelope.
//
// Mapping: output = `result`; usage.input_tokens = input_tokens + cache_creation_input_tokens +
// cache_read_input_tokens (Claude Code's `input_tokens` counts only the uncached tail of the prompt —
// often single digits — so the sum is the prompt the model actually read); usage.output_tokens =
// output_tokens; usage.cost_usd = total_cost_usd. An envelope with `is_error: true` (API errors arrive as
// `subtype: "success"` + `is_error: true`, sometimes with exit code 0) or any subtype other than
// `success` (`error_max_turns`, `error_during_execution`, `error_max_budget_usd`, …) is an `exit` error
// whose message carries the subtype, `api_error_status` and the error text; its usage is still reported,
// because the tokens were spent. Non-JSON stdout after exit 0 is a `parse` error; a non-zero exit is an
// `exit` error, with the envelope's explanation when stdout has one and the stderr tail otherwise.
import type { ClaudeEngineConfig } from '../config/engine-schema.js';
import {
  childEnv,
  composePrompt,
  executeInvocation,
  extractUsage,
  parseJsonStdout,
  SKILL_SEPARATOR,
  type StdoutVerdict,
} from './command.js';
import type { Engine, EngineRequest, EngineResult, Usage } from './types.js';
import { withWorkspace } from './workspace.js';

/** Environment variables never passed to the Claude Code child (see the header). */
export const CLAUDE_DROPPED_ENV = ['CLAUDECODE'] as const;

/** The argv for one call; pure, so identity and tests can see exactly what runs. */
export function claudeArgv(cfg: ClaudeEngineConfig): string[] {
  const argv = [cfg.bin ?? 'claude', '-p', '--output-format', 'json'];
  if (cfg.model !== undefined) argv.push('--model', cfg.model);
  if (cfg.max_turns !== undefined) argv.push('--max-turns', String(cfg.max_turns));
  argv.push(...(cfg.extra_args ?? []));
  return argv;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

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

function clip(s: string, max = 400): string {
  const one = s.trim().replace(/\s+/g, ' ');
  return one.length > max ? `${one.slice(0, max)}…` : one;
}

/** Why an envelope is an error, or undefined when it is a success. */
function envelopeError(env: Record<string, unknown>): string | undefined {
  const subtype = typeof env['subtype'] === 'string' ? env['subtype'] : undefined;
  const isError = env['is_error'] === true;
  if (!isError && (subtype === undefined || subtype === 'success')) return undefined;
  const bits = [`claude reported ${isError ? 'is_error' : 'an error'} (subtype ${subtype ?? 'missing'}`];
  if (typeof env['api_error_status'] === 'number') bits.push(`, api_error_status ${env['api_error_status']}`);
  if (typeof env['num_turns'] === 'number') bits.push(`, num_turns ${env['num_turns']}`);
  bits.push(')');
  const details: string[] = [];
  if (typeof env['result'] === 'string' && env['result'].trim()) details.push(clip(env['result']));
  if (Array.isArray(env['errors'])) {
    const errs = env['errors'].filter((e): e is string => typeof e === 'string' && e.trim().length > 0);
    if (errs.length) details.push(clip(errs.join(' | ')));
  }
  return details.length ? `${bits.join('')}: ${details.join(' — ')}` : bits.join('');
}

/** Reads Claude Code's `--output-format json` stdout from a run that exited 0. Pure; unit-tested. */
export function parseClaudeStdout(stdout: string): StdoutVerdict {
  const parsed = parseJsonStdout(stdout);
  if (!parsed.ok) return { ok: false, kind: 'parse', message: parsed.message };
  const env = findEnvelope(parsed.value);
  if (!env) return { ok: false, kind: 'parse', message: `stdout is JSON but not a Claude Code result (no "type": "result" object): "${clip(stdout, 200)}"` };
  const usage: Usage = extractUsage(env);
  const why = envelopeError(env);
  if (why) return { ok: false, kind: 'exit', message: why, usage };
  if (typeof env['result'] !== 'string') {
    return { ok: false, kind: 'parse', message: 'Claude Code result has no "result" string', usage };
  }
  return { ok: true, output: env['result'], usage };
}

/** For a non-zero exit: the envelope's own account of the failure, when stdout carries one. */
export function explainClaudeExit(stdout: string): { message: string; usage?: Usage } | undefined {
  const parsed = parseJsonStdout(stdout);
  if (!parsed.ok) return undefined;
  const env = findEnvelope(parsed.value);
  if (!env) return undefined;
  const usage = extractUsage(env);
  const why = envelopeError(env);
  if (why) return { message: why, usage };
  const subtype = typeof env['subtype'] === 'string' ? env['subtype'] : 'missing';
  return { message: `claude printed a result with subtype ${subtype} but exited non-zero`, usage };
}

export function createClaudeEngine(cfg: ClaudeEngineConfig, opts: { env?: NodeJS.ProcessEnv } = {}): Engine {
  const argv = claudeArgv(cfg);
  const identity = {
    type: 'claude',
    bin: cfg.bin ?? 'claude',
    model: cfg.model ?? null,
    max_turns: cfg.max_turns ?? null,
    extra_args: [...(cfg.extra_args ?? [])],
    output_format: 'json',
    skill_delivery: 'prepend',
    skill_separator: SKILL_SEPARATOR,
    workdir: 'temp',
  };
  return {
    type: 'claude',
    identity: () => structuredClone(identity),
    async run(request: EngineRequest, runOpts?: { signal?: AbortSignal }): Promise<EngineResult> {
      const started = performance.now();
      try {
        return await withWorkspace(async (ws) =>
          executeInvocation({
            argv,
            input: composePrompt(request, 'prepend'),
            env: childEnv(request, undefined, CLAUDE_DROPPED_ENV, opts.env),
            cwd: await ws.tempDir('whet-claude-'),
            timeoutMs: request.timeoutMs,
            ...(runOpts?.signal ? { signal: runOpts.signal } : {}),
            parseStdout: parseClaudeStdout,
            explainExit: explainClaudeExit,
          }),
        );
      } catch (err) {
        return {
          ok: false,
          output: '',
          usage: {},
          duration_ms: Math.round(performance.now() - started),
          error: { kind: 'spawn', message: `cannot prepare a claude run: ${err instanceof Error ? err.message : String(err)}` },
        };
      }
    },
  };
}
