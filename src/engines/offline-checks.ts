// The engine checks that need no engine call: the key variable set (openai, anthropic), the agent CLI on
// PATH and knowing every flag whetstone passes (claude, codex). `whet doctor` reports them; every command
// that starts a run (`whet run`, `whet evaluate`, `whet baseline|nightly`) refuses on them before a run
// folder exists (issue 41), in the same words — so a missing key or CLI is exit 2 with the fix, never a
// run left "running" or six failed spawns. A malformed base_url is refused earlier still, by the config
// schema (config/engine-schema.ts). A `command` engine is left to its first call (and to `whet doctor`):
// its program may be a path its own working directory resolves.
import type { ClaudeEngineConfig, CodexEngineConfig, EngineConfig } from '../config/engine-schema.js';
import { UsageError } from '../core/errors.js';
import { findProgram } from '../core/find-program.js';
import { checkFlags } from './cli-flags.js';

export const DEFAULT_KEY_ENV: Record<string, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

export interface EngineCheck {
  check: 'key' | 'program' | 'flags';
  ok: boolean;
  detail: string;
}

/** The key variable of an HTTP engine, set or not (its value is never read into the detail). */
export function keyCheck(cfg: { type: string; api_key_env?: string }, env: NodeJS.ProcessEnv): EngineCheck {
  const keyVar = cfg.api_key_env ?? DEFAULT_KEY_ENV[cfg.type] ?? 'API_KEY';
  const set = (env[keyVar] ?? '').trim() !== '';
  return { check: 'key', ok: set, detail: set ? `${keyVar} is set` : `${keyVar} is not set in the environment (whetstone reads keys only from there)` };
}

/** `program` on PATH (or at the path the config gives), and where. */
export function programCheck(program: string, env: NodeJS.ProcessEnv, cwd: string): EngineCheck & { path?: string } {
  const path = findProgram(program, env, cwd);
  if (!path) return { check: 'program', ok: false, detail: `${program} is not on PATH (install it, or set the full path in pipeline.yaml)` };
  return { check: 'program', ok: true, detail: path, path };
}

/** Every check of one engine that needs no call; a spawn of the CLI's own `--help` is not a call. */
export async function offlineChecks(cfg: EngineConfig, env: NodeJS.ProcessEnv, cwd: string): Promise<EngineCheck[]> {
  switch (cfg.type) {
    case 'openai':
    case 'anthropic':
      return [keyCheck(cfg, env)];
    case 'claude':
    case 'codex': {
      const found = programCheck(cfg.bin ?? cfg.type, env, cwd);
      if (!found.path) return [found];
      return [found, { check: 'flags', ...(await checkFlags(found.path, cfg as ClaudeEngineConfig | CodexEngineConfig, env, cwd)) }];
    }
    default:
      return [];
  }
}

/**
 * Refuses (exit 2) when any engine fails a check, naming each failure as `whet doctor` does. `engines`
 * pairs where the config names an engine (`engine`, `judge_engine`, …) with it; one config object named
 * twice is checked once.
 */
export async function refuseUnusableEngines(engines: readonly { where: string; cfg: EngineConfig | undefined }[], env: NodeJS.ProcessEnv, cwd: string): Promise<void> {
  const seen = new Set<EngineConfig>();
  const failed: string[] = [];
  for (const { where, cfg } of engines) {
    if (!cfg || seen.has(cfg)) continue;
    seen.add(cfg);
    for (const c of await offlineChecks(cfg, env, cwd)) if (!c.ok) failed.push(`[MISSING] ${where} (${cfg.type}) ${c.check}: ${c.detail}`);
  }
  if (failed.length === 0) return;
  throw new UsageError(`not starting: an engine cannot run (nothing was created; "whet doctor" checks every engine)\n${failed.join('\n')}`);
}
