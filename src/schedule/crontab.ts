// Installing and removing the nightly entry in the user's crontab, through `crontab -l` and `crontab -`
// (run via src/core/proc.ts, the one way whetstone starts programs). The edit itself is a pure function of
// the table's text: install adds the marked block, or replaces an older one for the same project, and
// leaves every other byte alone; remove takes out exactly the marked block, so install then remove gives
// back the table byte for byte.
import { describeOutcome, runProcess } from '../core/proc.js';
import { StateError } from '../core/errors.js';
import { marker } from './units.js';

export interface ProcEnv {
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
}

const TIMEOUT_MS = 30_000;

/** The table without our block(s) for this project: each marker line and the entry line after it. */
export function withoutEntry(table: string, projectDir: string): { table: string; removed: number } {
  const lines = table.split('\n');
  const mark = marker(projectDir);
  const keep: string[] = [];
  let removed = 0;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== mark) {
      keep.push(lines[i]!);
      continue;
    }
    removed++;
    const next = lines[i + 1];
    // The entry we wrote follows its marker; a blank line or another comment there is someone else's.
    if (next !== undefined && next.trim() !== '' && !next.trimStart().startsWith('#')) i++;
  }
  return { table: keep.join('\n'), removed };
}

/** The table with exactly one block for this project: unchanged when that very block is already there. */
export function withEntry(table: string, block: string, projectDir: string): { table: string; action: 'added' | 'replaced' | 'unchanged' } {
  const without = withoutEntry(table, projectDir);
  if (without.removed === 1 && table.includes(block)) return { table, action: 'unchanged' };
  const base = without.table;
  const sep = base === '' || base.endsWith('\n') ? '' : '\n';
  return { table: `${base}${sep}${block}`, action: without.removed ? 'replaced' : 'added' };
}

/** The current table, or '' when the user has none. */
export async function readCrontab(e: ProcEnv): Promise<{ text: string; exists: boolean }> {
  const r = await runProcess({ argv: ['crontab', '-l'], cwd: e.cwd, env: e.env, timeoutMs: TIMEOUT_MS, signal: e.signal });
  if (r.spawnError) throw new StateError(`cannot read the crontab: ${r.spawnError}`);
  if (r.exitCode === 0) return { text: r.stdout, exists: true };
  if (/no crontab/i.test(r.stderr)) return { text: '', exists: false };
  throw new StateError(`crontab -l failed: ${describeOutcome(r, TIMEOUT_MS)}`);
}

export async function writeCrontab(e: ProcEnv, text: string): Promise<void> {
  // An empty table is no table: `crontab -r` restores the state of a user who had none before install.
  const argv = text === '' ? ['crontab', '-r'] : ['crontab', '-'];
  const r = await runProcess({ argv, input: text === '' ? undefined : text, cwd: e.cwd, env: e.env, timeoutMs: TIMEOUT_MS, signal: e.signal });
  if (r.exitCode !== 0 || r.spawnError) throw new StateError(`${argv.join(' ')} failed: ${describeOutcome(r, TIMEOUT_MS)}`);
}

export async function installCrontab(e: ProcEnv, block: string, projectDir: string): Promise<'added' | 'replaced' | 'unchanged'> {
  const current = await readCrontab(e);
  const next = withEntry(current.text, block, projectDir);
  if (next.action !== 'unchanged') await writeCrontab(e, next.table);
  return next.action;
}

export async function removeCrontab(e: ProcEnv, projectDir: string): Promise<number> {
  const current = await readCrontab(e);
  if (!current.exists) return 0;
  const next = withoutEntry(current.text, projectDir);
  if (next.removed) await writeCrontab(e, next.table);
  return next.removed;
}
