// An isolated CODEX_HOME per codex call: the user's own Codex setup takes no part in a measurement, and
// nothing of the run is written under their home.
//
// Everything user-level that Codex reads or writes lives in CODEX_HOME (default ~/.codex): config.toml
// (codex-rs config: "User config: ~/.codex/config.toml"; `--ignore-user-config` skips only this file,
// "auth still uses CODEX_HOME" — codex-rs/exec/src/cli.rs), the global AGENTS.md, user skills in
// `$CODEX_HOME/skills` (codex-rs/core-skills/src/loader.rs, "Deprecated user skills location"), the
// session rollouts under `sessions/` (not written with `--ephemeral`, "Run without persisting session
// files to disk", cli.rs), logs and caches. A fresh empty directory as CODEX_HOME leaves all of them out.
//
// The login stays working: `auth.json` in the fresh directory is a symbolic link to the user's
// `<CODEX_HOME>/auth.json` (when there is one). Codex rewrites it in place when it refreshes a token
// (codex-rs/login: write_auth_json opens the file with truncate + write, no rename), so a refresh reaches
// the user's own file through the link and their login is never left behind with a spent refresh token —
// the one write under the user's home a run can cause. Whetstone never reads the file. API-key logins
// (OPENAI_API_KEY / CODEX_API_KEY in the environment) pass through unchanged. A login kept in the OS
// keyring (cli_auth_credentials_store = "keyring") is keyed per CODEX_HOME and is not found from the
// fresh one: `user_setup: true` runs with the user's CODEX_HOME instead.
//
// Still read from the user's home with isolation: `$HOME/.agents/skills` (user-installed skills of newer
// releases, loader.rs) — HOME is left as it is, since the agent's shell commands and the OS keychain
// depend on it.
import { existsSync } from 'node:fs';
import { symlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's own CODEX_HOME, as Codex resolves it. */
export function userCodexHome(env: NodeJS.ProcessEnv): string {
  const set = env['CODEX_HOME'];
  return set && set.trim() ? set : join(env['HOME'] || homedir(), '.codex');
}

/**
 * The CODEX_HOME variables for one call: a fresh directory from `tempDir` (removed with the workspace)
 * when isolated, none with `user_setup: true` (the child then inherits the user's own).
 */
export async function codexHomeEnv(isolated: boolean, tempDir: () => Promise<string>, env: NodeJS.ProcessEnv): Promise<Record<string, string> | undefined> {
  return isolated ? prepareIsolatedCodexHome(await tempDir(), env) : undefined;
}

/** Prepares `dir` (fresh, empty) as an isolated CODEX_HOME; returns the variables to set for the child. */
export async function prepareIsolatedCodexHome(dir: string, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const auth = join(userCodexHome(env), 'auth.json');
  if (existsSync(auth)) await symlink(auth, join(dir, 'auth.json'));
  return { CODEX_HOME: dir };
}
