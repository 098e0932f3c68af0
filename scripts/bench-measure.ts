// How `npm run bench` measures one process: a fresh `node` with the exit probe (bench-probe.cts), wall time
// from spawn to exit as the parent sees it, and the child's own CPU time and peak RSS as the probe reports
// them. Every figure of the bench table, the bare `node -e 0` reference included, is taken this way, so
// the ratios compare like with like.
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../src/core/proc.js';

const here = fileURLToPath(import.meta.url);
/** The `whet` users run: package.json "bin", the bundled CLI (scripts/bundle.ts). */
export const cli = resolve(here, '../../..', (JSON.parse(readFileSync(resolve(here, '../../../package.json'), 'utf8')) as { bin: { whet: string } }).bin.whet);
const probe = resolve(here, '../bench-probe.cjs');

export interface Sample {
  wallMs: number;
  cpuMs: number;
  maxRssMb: number;
  exitCode: number | null;
  stdout: string;
}

/**
 * Variables the measured processes run without. Node 20 reads NODE_EXTRA_CA_CERTS's whole file at every
 * start (~55 ms for a system bundle; Node 22 reads it on first TLS use): a constant added to both sides of
 * every ratio would hide whet's own start-up cost behind it. NODE_OPTIONS could add flags to one side's
 * measurement and not the other's expectations. Nothing measured talks TLS (the server is plain HTTP on
 * loopback).
 */
export const DROPPED_ENV = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'] as const;

/** The environment of a measured process: this one's, less DROPPED_ENV, plus `extra`. */
export function measuredEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of DROPPED_ENV) delete env[name];
  return { ...env, ...extra };
}

let seq = 0;

/** Runs `node --require probe ...args` in `cwd`; a command that fails (other than exit 1, a failing verdict) throws. */
export async function sample(dir: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Sample> {
  const file = join(dir, `probe-${process.pid}-${++seq}.json`);
  const started = performance.now();
  const r = await runProcess({
    argv: [process.execPath, '--require', probe, ...args],
    env: measuredEnv({ ...env, WHET_BENCH_PROBE: file }),
    cwd: dir,
    timeoutMs: 900_000,
  });
  const wallMs = performance.now() - started;
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`${args.join(' ')} failed (${r.exitCode}): ${r.stderr}`);
  const p = JSON.parse(readFileSync(file, 'utf8')) as { cpu_ms: number; max_rss_kb: number };
  rmSync(file, { force: true });
  return { wallMs, cpuMs: p.cpu_ms, maxRssMb: p.max_rss_kb / 1024, exitCode: r.exitCode, stdout: r.stdout };
}

/** The median run of `n` (by wall time): figures jitter by tens of ms on a shared machine. */
export async function median<T extends Sample>(n: number, run: () => Promise<T>): Promise<T> {
  const all: T[] = [];
  for (let i = 0; i < n; i++) all.push(await run());
  all.sort((a, b) => a.wallMs - b.wallMs);
  return all[Math.floor(all.length / 2)]!;
}

/** `whet evaluate --standalone` of a generated suite, with the artifact it wrote. */
export async function evaluate(dir: string, suite: string, extra: string[], env: NodeJS.ProcessEnv = {}): Promise<Sample & { artifact: Evaluation }> {
  const out = join(dir, `eval-${process.pid}-${++seq}.json`);
  const s = await sample(dir, [cli, 'evaluate', '--standalone', '--task-suite', suite, '--skill-path', dir, '--state-root', join(dir, 'state'), '--output', out, ...extra], env);
  const artifact = JSON.parse(readFileSync(out, 'utf8')) as Evaluation;
  return { ...s, artifact };
}

export interface Evaluation {
  evaluation: {
    engine_calls: number;
    pass_rate: number;
    wall_ms: number;
    cpu_ms?: number;
    concurrency?: { requested: number; effective: number; capped_by: string | null; adaptive_lowest: number | null };
  };
}

export const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
export const mb = (m: number) => `${m.toFixed(0)} MB`;
export const ratio = (x: number) => `${x.toFixed(2)}×`;
