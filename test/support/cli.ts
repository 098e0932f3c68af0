// Test helpers: temp directories, and the CLI run in-process with injectable cwd, clock and output.
import { readFileSync, readdirSync, statSync, writeFileSync, mkdirSync, cpSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const sharedDir = resolve(repoRoot, '../shared');
export const fixturesBin = join(repoRoot, 'test/fixtures/bin');
/** The `whet` users run: package.json "bin", the bundle `npm run build` writes (not the tsc output). */
export const whetBin = join(repoRoot, (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin: { whet: string } }).bin.whet);

import { tempDir } from './temp.js';

export { tempDir };

export function write(file: string, text: string): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function whet(argv: string[], opts: { cwd: string; now?: () => Date; env?: NodeJS.ProcessEnv; signal?: AbortSignal; tty?: boolean }): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    now: opts.now ?? (() => new Date()),
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    signal: opts.signal,
    tty: opts.tty,
  });
  return { code, stdout, stderr };
}

/** Every file under `dir` with its bytes, for "the state directory is unchanged" checks. */
export function snapshotTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    let entries: string[];
    try {
      entries = readdirSync(d);
    } catch {
      return;
    }
    for (const name of entries.sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p).toString('base64');
    }
  };
  walk(dir);
  return out;
}

export function copyExample(name: string, dest: string): string {
  cpSync(join(repoRoot, 'examples', name), dest, { recursive: true });
  return dest;
}

export function readJson<T = Record<string, any>>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

export function findFiles(dir: string, name: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === name) found.push(p);
    }
  };
  walk(dir);
  return found.sort();
}

/**
 * The release-notes example as a mock-engine loop project in a fresh folder: the pipeline.yaml that the
 * loop tests vary by a few settings (`loop`, `thresholds`, `evaluate` as YAML flow maps).
 */
export function exampleLoopProject(o: { prefix?: string; loop: string; thresholds?: string; evaluate?: string }): string {
  const dir = tempDir(o.prefix);
  copyExample('release-notes', join(dir, 'release-notes'));
  // The project is the test's own copy: the mock's keeps go to its skill, as asked (loop.mock_keeps: apply).
  const loop = o.loop.trim() === '{}' ? '{mock_keeps: apply}' : o.loop.replace(/^\s*\{/, '{mock_keeps: apply, ');
  const lines = ['state_dir: state', 'engine: {type: mock}', 'targets: [{skill: release-notes, suite: release-notes/tasks.yaml}]', `loop: ${loop}`];
  if (o.thresholds) lines.push(`thresholds: ${o.thresholds}`);
  if (o.evaluate) lines.push(`evaluate: ${o.evaluate}`);
  write(join(dir, 'pipeline.yaml'), `${lines.join('\n')}\n`);
  return dir;
}
