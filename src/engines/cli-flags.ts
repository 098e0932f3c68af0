// The agent CLIs' flag check (`whet doctor`, and every run before it starts: engines/offline-checks.ts): every option whetstone itself passes (claudeArgv,
// codexArgv — extra_args are the user's own and not checked) must appear in the CLI's own help, so a
// release too old to know one (`--no-session-persistence`, `--setting-sources`, codex's `--ephemeral`) is
// caught before a run, not after every task failed with "unknown option". The help is `claude --help`
// and `codex exec --help` (clap lists each long option as `--name`; Commander as `--name <value>`).
import type { ClaudeEngineConfig, CodexEngineConfig } from '../config/engine-schema.js';
import { claudeArgv } from './claude.js';
import { codexArgv } from './codex.js';
import { runProcess } from '../core/proc.js';

/** The long options whetstone passes for this config, without the user's extra_args. */
export function passedFlags(cfg: ClaudeEngineConfig | CodexEngineConfig): string[] {
  const own = cfg.type === 'claude' ? claudeArgv({ ...cfg, extra_args: [] }) : codexArgv({ ...cfg, extra_args: [] });
  return [...new Set(own.filter((a) => a.startsWith('--')))];
}

/** The passed flags the help text does not list. */
export function missingFlags(help: string, flags: string[]): string[] {
  return flags.filter((f) => !new RegExp(`(^|[\\s,])${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'm').test(help));
}

/** Runs the CLI's help and says whether it knows every flag; `detail` names what is missing and the way out. */
export async function checkFlags(path: string, cfg: ClaudeEngineConfig | CodexEngineConfig, env: NodeJS.ProcessEnv, cwd: string): Promise<{ ok: boolean; detail: string }> {
  const argv = cfg.type === 'claude' ? [path, '--help'] : [path, 'exec', '--help'];
  const shown = cfg.type === 'claude' ? `${cfg.bin ?? 'claude'} --help` : `${cfg.bin ?? 'codex'} exec --help`;
  const r = await runProcess({ argv, env, cwd, timeoutMs: 10_000 });
  const help = `${r.stdout}\n${r.stderr}`;
  if (r.exitCode !== 0 || !help.trim()) return { ok: false, detail: `${shown} failed (${r.spawnError ?? `exit ${r.exitCode}`}): cannot tell which flags it supports` };
  const flags = passedFlags(cfg);
  const missing = missingFlags(help, flags);
  if (missing.length === 0) return { ok: true, detail: `supports every flag whetstone passes (${flags.join(' ')})` };
  return { ok: false, detail: `${shown} does not list ${missing.join(', ')}: this release is probably too old (upgrade it${waysOut(missing).map((o) => `; or ${o}`).join('')})` };
}

/** The settings that leave a missing flag out, for the flags that have one. */
export function waysOut(missing: string[]): string[] {
  const outs: string[] = [];
  if (missing.includes('--no-session-persistence') || missing.includes('--ephemeral')) outs.push('session_persistence: true leaves the session flag out');
  if (missing.includes('--setting-sources')) outs.push("user_setup: true leaves --setting-sources out (and lets the user's own settings in)");
  return outs;
}
