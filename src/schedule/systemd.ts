// Installing the nightly job as files: a systemd user service + timer (in $XDG_CONFIG_HOME/systemd/user,
// else ~/.config/systemd/user, read from the injected environment so tests never touch a real home), then
// `systemctl --user daemon-reload` and `enable --now` the timer; or a GitHub Actions workflow in the
// repository. A file is only ever overwritten or deleted when it starts with our marker line: one that
// does not is someone else's, and is refused, never replaced.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { StateError, UsageError } from '../core/errors.js';
import { describeOutcome, runProcess } from '../core/proc.js';
import { writeFileAtomically } from '../core/atomic.js';
import type { ProcEnv } from './crontab.js';
import { marker } from './units.js';

export type FileAction = 'written' | 'unchanged' | 'removed' | 'absent';

export function systemdUserDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'systemd', 'user');
}

const ours = (file: string, projectDir: string) => readFileSync(file, 'utf8').split('\n', 1)[0] === marker(projectDir);

/** Writes a file of ours; refuses to replace a file that is not. */
export async function writeOwnedFile(file: string, text: string, projectDir: string): Promise<FileAction> {
  if (existsSync(file)) {
    if (!ours(file, projectDir)) throw new UsageError(`${file} exists and was not written by whet schedule for ${projectDir}: refusing to replace it`);
    if (readFileSync(file, 'utf8') === text) return 'unchanged';
  }
  await writeFileAtomically(file, text);
  return 'written';
}

/** Deletes a file of ours; leaves anything else where it is. */
export function removeOwnedFile(file: string, projectDir: string): FileAction {
  if (!existsSync(file)) return 'absent';
  if (!ours(file, projectDir)) throw new UsageError(`${file} was not written by whet schedule for ${projectDir}: leaving it alone`);
  rmSync(file);
  return 'removed';
}

async function systemctl(e: ProcEnv, args: string[], mustSucceed: boolean): Promise<string | undefined> {
  const r = await runProcess({ argv: ['systemctl', '--user', ...args], cwd: e.cwd, env: e.env, timeoutMs: 60_000, signal: e.signal });
  if (r.exitCode === 0 && !r.spawnError) return undefined;
  const why = `systemctl --user ${args.join(' ')} failed: ${describeOutcome(r, 60_000)}`;
  if (mustSucceed) throw new StateError(why);
  return why;
}

export interface UnitFiles {
  name: string;
  service: string;
  timer: string;
}

export async function installSystemd(e: ProcEnv, u: UnitFiles, projectDir: string): Promise<{ dir: string; service: FileAction; timer: FileAction }> {
  const dir = systemdUserDir(e.env);
  const service = await writeOwnedFile(join(dir, `${u.name}.service`), u.service, projectDir);
  const timer = await writeOwnedFile(join(dir, `${u.name}.timer`), u.timer, projectDir);
  try {
    await systemctl(e, ['daemon-reload'], true);
    await systemctl(e, ['enable', '--now', `${u.name}.timer`], true);
  } catch (err) {
    throw new StateError(`${(err as Error).message}\nthe units are written in ${dir}; \`whet schedule remove --via systemd\` takes them away again`);
  }
  return { dir, service, timer };
}

/** Disables the timer, deletes both units (ours only), reloads; a warning when systemctl could not disable. */
export async function removeSystemd(e: ProcEnv, name: string, projectDir: string): Promise<{ dir: string; service: FileAction; timer: FileAction; warning?: string }> {
  const dir = systemdUserDir(e.env);
  const timerFile = join(dir, `${name}.timer`);
  const serviceFile = join(dir, `${name}.service`);
  if (existsSync(timerFile) && !ours(timerFile, projectDir)) throw new UsageError(`${timerFile} was not written by whet schedule for ${projectDir}: leaving it alone`);
  const warning = existsSync(timerFile) ? await systemctl(e, ['disable', '--now', `${name}.timer`], false) : undefined;
  const timer = removeOwnedFile(timerFile, projectDir);
  const service = removeOwnedFile(serviceFile, projectDir);
  if (timer === 'removed' || service === 'removed') await systemctl(e, ['daemon-reload'], false);
  return { dir, service, timer, ...(warning ? { warning } : {}) };
}

/** The repository a project lives in (the nearest folder with .git), or the project itself. */
export function repositoryRoot(projectDir: string): string {
  for (let d = projectDir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return projectDir;
  }
}
