// npm and shell commands as a user's terminal or a CI job runs them, for the tests that install the packed
// tarball (install-tarball.test.ts, schedule-install-run.test.ts). Asynchronous, because those tests serve
// the loopback registry (loopback-registry.ts) from their own process, which a spawnSync would block.
import { execFile } from 'node:child_process';

/** npm with the environment of a user's shell: none of the npm_* variables of the `npm test` around us. */
export function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) || /^npm_config_cache$/i.test(k)) env[k] = v;
  return { ...env, npm_config_update_notifier: 'false', npm_config_audit: 'false', npm_config_fund: 'false' };
}

export interface Ran {
  code: number;
  /** stdout then stderr, for the failure message. */
  all: string;
  stdout: string;
}

/** A program with its arguments (never a shell string built here), its exit code and output. */
export function runAsync(argv: string[], o: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number }): Promise<Ran> {
  return new Promise((ok) => {
    execFile(argv[0]!, argv.slice(1), { cwd: o.cwd, env: o.env, encoding: 'utf8', timeout: o.timeoutMs ?? 240_000, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      ok({ code, stdout, all: `${stdout}${stderr}` });
    });
  });
}

/** An npm command with the user's environment. */
export const npmAsync = (args: string[], cwd: string): Promise<Ran> => runAsync(['npm', ...args], { cwd, env: npmEnv() });
