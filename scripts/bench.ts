// npm run bench [-- --tasks N --latency-ms MS --concurrency C] | npm run bench -- --shards N [--tasks N --concurrency C]
// Measures the evaluate command end to end, as a user runs it (a fresh process, from its start):
//  1. N tasks on the instant mock engine: wall time, tasks/s, per-task overhead, peak RSS;
//  2. the same evaluation again: engine calls (0 when the baseline cache works);
//  3. M tasks at L ms latency with concurrency C: concurrency efficiency = ideal time / measured time.
// The suite is generated: contains + regex judges, half the tasks pass.
// With --shards N it measures only the sharded evaluation instead (bench-shards.ts) and exits 1 if the merged
// artifact differs from the unsharded one.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess } from '../src/core/proc.js';
import { benchShards } from './bench-shards.js';
import { writeBenchSuite } from './bench-suite.js';

const cli = resolve(fileURLToPath(import.meta.url), '../../src/cli.js');

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

interface Measured {
  wallMs: number;
  maxRssMb: number;
  engineCalls: number;
  passRate: number;
  taskPhaseMs: number;
  exitCode: number | null;
}

async function evaluate(dir: string, suite: string, extra: string[]): Promise<Measured> {
  const stats = join(dir, `stats-${Date.now()}.json`);
  const out = join(dir, `eval-${Date.now()}.json`);
  const started = performance.now();
  const r = await runProcess({
    argv: [process.execPath, cli, 'evaluate', '--standalone', '--task-suite', suite, '--skill-path', dir, '--state-root', join(dir, 'state'), '--output', out, ...extra],
    env: { ...process.env, WHET_BENCH_STATS: stats },
    cwd: dir,
    timeoutMs: 600_000,
  });
  const wallMs = performance.now() - started;
  if (r.exitCode !== 0 && r.exitCode !== 1) throw new Error(`evaluate failed (${r.exitCode}): ${r.stderr}`);
  const s = JSON.parse(readFileSync(stats, 'utf8')) as { max_rss_kb: number };
  const a = JSON.parse(readFileSync(out, 'utf8')) as { evaluation: { engine_calls: number; pass_rate: number; wall_ms: number } };
  return { wallMs, maxRssMb: s.max_rss_kb / 1024, engineCalls: a.evaluation.engine_calls, passRate: a.evaluation.pass_rate, taskPhaseMs: a.evaluation.wall_ms, exitCode: r.exitCode };
}

async function main(): Promise<void> {
  const n = arg('tasks', 10_000);
  const m = arg('latency-tasks', 1000);
  const latency = arg('latency-ms', 50);
  const conc = arg('concurrency', 64);
  const root = mkdtempSync(join(tmpdir(), 'whet-bench-'));
  try {
    if (process.argv.includes('--shards')) {
      if (!(await benchShards(cli, root, n, arg('shards', 0), conc))) process.exitCode = 1;
      return;
    }
    const dirA = join(root, 'instant');
    const suiteA = writeBenchSuite(dirA, n);
    const a = await evaluate(dirA, suiteA, ['--mock', '--concurrency', String(conc)]);
    const perTaskUs = (a.wallMs * 1000) / n;
    console.log(`instant mock, ${n} tasks: wall ${(a.wallMs / 1000).toFixed(2)} s from process start · ${Math.round(n / (a.wallMs / 1000))} tasks/s · ${perTaskUs.toFixed(0)} µs/task overhead · peak RSS ${a.maxRssMb.toFixed(0)} MB · engine calls ${a.engineCalls} · pass rate ${a.passRate}`);
    const again = await evaluate(dirA, suiteA, ['--mock', '--concurrency', String(conc)]);
    console.log(`same evaluation again: wall ${(again.wallMs / 1000).toFixed(2)} s · peak RSS ${again.maxRssMb.toFixed(0)} MB · engine calls ${again.engineCalls} (baseline cache)`);

    const dirB = join(root, 'latency');
    const suiteB = writeBenchSuite(dirB, m);
    const cfg = join(dirB, 'pipeline.yaml');
    writeFileSync(cfg, `engine: {type: mock, latency_ms: ${latency}}\ncache: {enabled: false}\n`);
    const b = await evaluate(dirB, suiteB, ['-c', cfg, '--concurrency', String(conc)]);
    const ideal = Math.ceil(m / conc) * latency;
    console.log(`mock at ${latency} ms, ${m} tasks, concurrency ${conc}: wall ${(b.wallMs / 1000).toFixed(2)} s · ideal ${(ideal / 1000).toFixed(2)} s · task phase ${(b.taskPhaseMs / 1000).toFixed(2)} s · efficiency ${(ideal / b.taskPhaseMs).toFixed(3)} (task phase) / ${(ideal / b.wallMs).toFixed(3)} (end to end, process start and suite loading included) · peak RSS ${b.maxRssMb.toFixed(0)} MB`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
