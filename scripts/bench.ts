// npm run bench [-- --view-runs N --http-repeat H --tasks N --large-tasks N --latency-tasks N --latency-ms MS --concurrency C --repeat R --heavy-repeat H --decision-trials T --drift-trials D --drift-sequences S]
// npm run bench -- --shards N [--tasks N --concurrency C]
// npm run bench -- --only http [--latency-tasks N --latency-ms MS --concurrency C --http-repeat H]: the HTTP rows alone,
//   each the median of H runs (default 5, in the whole table too: one run of a 1 s command moves by a tenth)
// npm run bench -- --only large,status [--large-tasks N --status-tasks N]: only those rows (the memory case, status)
// Prints the rows of issue 15's table, each as a ratio to its reference, so figures compare across machines:
//  - start-up (`--version`, `--help`, `status`, `show`): wall time against a bare `node -e 0` (median of R);
//  - the HTTP path: M tasks against a loopback OpenAI-compatible server the bench starts (bench-server.ts),
//    answering in L ms, at concurrency C — once with no engine setting beyond base_url, once with
//    max_concurrency: C — the whole command's wall time (and its CPU) against the ideal ceil(M / C) × L, the
//    ratio issue 43 holds to 1.5×; the task phase's own wall time beside it, the server counts requests in
//    flight, and the CPU per call is the task phase's CPU time (artifact `cpu_ms`) over its calls; and the same calls
//    through whetstone's HTTP transport alone (bench-http-floor.ts), the floor those rows stand on;
//  - N and 100,000 tasks on the instant mock engine: wall time from process start and peak RSS, against the goal;
//  - `whet status` of a 10,000-task loop run, the first time and again (issue 43, bench-status.ts);
//  - the same N-task evaluation again (the baseline cache): against a process that only loads the suite,
//    with the suite reader bundled as the bin is;
//    these rows and their reference are each the median of H runs (default 3), the start-up rows of R (5).
//  - `whet view` at 10,000 runs (issue 41, bench-view.ts manyRunsRows): a page of /api/run-list, the runs page
//    in headless Chromium until usable, and the viewer's CPU share with the page open while nothing changes.
//  - `whet view` (issue 29, bench-view.ts): the command until its URL is printed, and the N-task outputs page in
//    headless Chromium from navigation start until usable (then one filter), the median of H;
//  - decisions (issue 27): keep rates and calls per decision on a simulated noisy model, T seeded runs per
//    true effect (bench-decisions.ts), whetstone's gate beside every attempt run and keep-when-it-rose;
//  - drift (issue 27 item 7): alert rates of a night on a simulated noisy engine, D seeded chains per case.
//    the run-level table (issue 38): whole loops, a changed model, per-task effects, a deterministic engine.
// Every process is a fresh `node` measured by the exit probe (bench-measure.ts). With --shards N it measures
// sharding instead (bench-shards.ts) and exits 1 if the merged artifact differs from the unsharded one.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchShards } from './bench-shards.js';
import { decisionRows, driftRows, guardRows, runLevelRows, triggerRows } from './bench-decisions.js';
import { driftTable } from './drift-trials.js';
import { manyRunsRows, viewRows } from './bench-view.js';
import { writeBenchSuite } from './bench-suite.js';
import { statusLoopRow } from './bench-status.js';
import { startBenchServer } from './bench-server.js';
import { cli, DROPPED_ENV, evaluate, mb, measuredEnv, median, ratio, sample, secs } from './bench-measure.js';
import { runProcess } from '../src/core/proc.js';
import { build } from 'rolldown';
import { bundleOptions } from './bundle-options.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

// The evaluations of the instant-mock and cache rows, each the median of this many runs (`--heavy-repeat`).
const heavy = arg('heavy-repeat', 3);
const projectRoot = resolve(fileURLToPath(import.meta.url), '../../..');
// The cache row's reference loads the suite with the suite reader bundled as the bin is (bundle-options.ts).
const suiteModule = pathToFileURL(join(projectRoot, 'dist/bench/load-suite.js')).href;
const rows: string[][] = [];
const row = (...cells: string[]) => {
  rows.push(cells);
  console.error(`  ${cells[0]}: ${cells[1]}`);
};

async function startRows(dir: string, repeat: number): Promise<void> {
  const bare = await median(repeat, () => sample(dir, ['-e', '0']));
  const ref = `bare \`node -e 0\` ${secs(bare.wallMs)} · ${mb(bare.maxRssMb)}`;
  const state = join(dir, 'state');
  const run = readdirSync(join(state, 'runs'))[0]!;
  const cases: [string, string[], string][] = [
    ['`whet --version`', ['--version'], '≤ 2×'],
    ['`whet --help`', ['--help'], '≤ 2×'],
    ['`whet status`', ['status', '--state-root', state], '≤ 3×'],
    ['`whet show RUN`', ['show', run, '--state-root', state], '≤ 3×'],
  ];
  for (const [name, args, goal] of cases) {
    const s = await median(repeat, () => sample(dir, [cli, ...args]));
    row(name, `${secs(s.wallMs)} · ${mb(s.maxRssMb)}`, ref, ratio(s.wallMs / bare.wallMs), goal);
  }
}

async function httpRows(root: string, m: number, latency: number, conc: number, repeat: number): Promise<void> {
  const server = await startBenchServer(latency);
  try {
    const dir = join(root, 'http');
    const suite = writeBenchSuite(dir, m);
    const ideal = Math.ceil(m / conc) * latency;
    const ref = `ideal ${secs(ideal)} (⌈${m}/${conc}⌉ × ${latency} ms)`;
    const of = repeat > 1 ? ` (median of ${repeat})` : '';
    for (const [label, extra] of [['default config', ''], [`max_concurrency: ${conc}`, `, max_concurrency: ${conc}`]] as const) {
      const cfg = join(dir, `pipeline-${label.replace(/\W+/g, '-')}.yaml`);
      writeFileSync(cfg, `engine: {type: openai, model: bench, base_url: "${server.url}/v1"${extra}}\ncache: {enabled: false}\n`);
      // The median run by end-to-end wall time, each from an empty state directory.
      const r = await median(repeat, async () => {
        rmSync(join(dir, 'state'), { recursive: true, force: true });
        server.reset();
        const run = await evaluate(dir, suite, ['-c', cfg, '--concurrency', String(conc)], { OPENAI_API_KEY: 'bench-loopback' });
        return { ...run, inFlight: server.maxInFlight() };
      });
      const e = r.artifact.evaluation;
      const cpu = e.cpu_ms !== undefined ? ` · CPU ${(e.cpu_ms / e.engine_calls).toFixed(2)} ms/call` : '';
      // The whole command's CPU beside its wall time: on a shared machine the wall time moves with the
      // neighbours, the CPU time much less.
      row(
        `${m} tasks, loopback server at ${latency} ms, \`--concurrency ${conc}\`, ${label}`,
        `task phase ${secs(e.wall_ms)} (efficiency ${(ideal / e.wall_ms).toFixed(2)}) · ${r.inFlight} in flight at the server${cpu} · end to end ${secs(r.wallMs)} (${ratio(r.wallMs / ideal)} the ideal) · process CPU ${secs(r.cpuMs)}${of}`,
        ref,
        ratio(r.wallMs / ideal),
        `end to end ≤ 1.5×; ${conc} in flight; task phase ≤ ${ratio(1 / 0.85)} (efficiency ≥ 0.85); ≤ 0.8 ms CPU per call`,
      );
    }
    const floor = await httpFloor(server.url, m, conc);
    row(
      `the same ${m} requests sent alone, through whetstone's HTTP transport (no evaluation around them)`,
      `CPU ${(floor.cpu_ms / floor.calls).toFixed(2)} ms/call · ${secs(floor.wall_ms)} (efficiency ${(ideal / floor.wall_ms).toFixed(2)})`,
      ref,
      ratio(floor.wall_ms / ideal),
      'reference: the floor of the rows above',
    );
  } finally {
    await server.close();
  }
}

/** bench-http-floor.js against the same server: what sending and reading a call cost, alone. */
async function httpFloor(url: string, m: number, conc: number): Promise<{ calls: number; cpu_ms: number; wall_ms: number }> {
  const r = await runProcess({ argv: [process.execPath, resolve(fileURLToPath(import.meta.url), '../bench-http-floor.js'), url, String(m), String(conc)], env: measuredEnv(), timeoutMs: 300_000 });
  if (r.exitCode !== 0) throw new Error(`bench-http-floor failed (${r.exitCode}): ${r.stderr}`);
  return JSON.parse(r.stdout) as { calls: number; cpu_ms: number; wall_ms: number };
}

async function mockRow(root: string, n: number, goalMs: number, goalMb: number, conc: number): Promise<string> {
  const dir = join(root, `instant-${n}`);
  const suite = writeBenchSuite(dir, n);
  // Each run from an empty state directory: a fresh evaluation, never a cache hit.
  const r = await median(heavy, () => {
    rmSync(join(dir, 'state'), { recursive: true, force: true });
    return evaluate(dir, suite, ['--mock', '--concurrency', String(conc)]);
  });
  row(
    `${n.toLocaleString('en-US')} tasks, instant mock`,
    `${secs(r.wallMs)} · peak RSS ${mb(r.maxRssMb)} · ${Math.round(n / (r.wallMs / 1000))} tasks/s`,
    `goal ${secs(goalMs)} · ${mb(goalMb)}`,
    `${ratio(r.wallMs / goalMs)} time · ${ratio(r.maxRssMb / goalMb)} RSS`,
    '≤ 1× both',
  );
  return dir;
}

async function cacheRow(dir: string, n: number, conc: number): Promise<void> {
  const suite = join(dir, 'tasks.yaml');
  const again = await median(heavy, () => evaluate(dir, suite, ['--mock', '--concurrency', String(conc)]));
  const load = await median(heavy, () => sample(dir, ['--input-type=module', '-e', `const m = await import(${JSON.stringify(suiteModule)}); m.loadSuite(${JSON.stringify(suite)});`]));
  row(
    `the same ${n.toLocaleString('en-US')}-task evaluation again (baseline from cache)`,
    `${secs(again.wallMs)} · ${again.artifact.evaluation.engine_calls} engine calls · peak RSS ${mb(again.maxRssMb)}`,
    `loading the suite alone (a process) ${secs(load.wallMs)}`,
    ratio(again.wallMs / load.wallMs),
    '≤ 1.5×',
  );
}

async function main(): Promise<void> {
  const n = arg('tasks', 10_000);
  const large = arg('large-tasks', 100_000);
  const m = arg('latency-tasks', 1000);
  const latency = arg('latency-ms', 50);
  const conc = arg('concurrency', 64);
  const repeat = arg('repeat', 5);
  const httpRepeat = arg('http-repeat', 5);
  const onlyAt = process.argv.indexOf('--only');
  const only = onlyAt > 0 ? process.argv[onlyAt + 1] : undefined;
  const which = only === undefined ? [] : only.split(',');
  const unknown = which.filter((w) => !['http', 'large', 'status'].includes(w));
  if (unknown.length > 0) throw new Error(`--only takes http, large or status (comma-separated), not ${unknown.join(',')}`);
  const root = mkdtempSync(join(tmpdir(), 'whet-bench-'));
  try {
    if (process.argv.includes('--shards')) {
      if (!(await benchShards(cli, root, n, arg('shards', 0), conc))) process.exitCode = 1;
      return;
    }
    // `--only http` / `--only large,status`: rows by themselves, for measuring one path while changing it (the
    // memory case is a minute, the whole bench an hour).
    if (which.length > 0) {
      if (which.includes('http')) await httpRows(root, m, latency, conc, httpRepeat);
      if (which.includes('large')) await mockRow(root, large, 5000, 160, conc);
      if (which.includes('status')) await statusLoopRow(root, arg('status-tasks', 10_000), heavy, row);
      console.log('| case | measured | reference | ratio | goal |');
      console.log('|---|---|---|---|---|');
      for (const r of rows) console.log(`| ${r.join(' | ')} |`);
      return;
    }
    await build(bundleOptions(projectRoot, { 'load-suite': 'dist/src/config/suite.js' }, 'dist/bench'));
    const dropped = DROPPED_ENV.filter((name) => process.env[name] !== undefined);
    console.error(`measuring (each row is a fresh process${dropped.length ? `, run without ${dropped.join(' and ')}: see bench-measure.ts` : ''}):`);
    const dirN = await mockRow(root, n, 800, 100, conc);
    await cacheRow(dirN, n, conc);
    await viewRows(join(dirN, 'state'), readdirSync(join(dirN, 'state', 'runs')).sort()[0]!, n, heavy, row);
    await manyRunsRows(root, arg('view-runs', 10_000), heavy, row);
    await mockRow(root, large, 5000, 160, conc);
    await statusLoopRow(root, arg('status-tasks', 10_000), heavy, row);
    await startRows(dirN, repeat);
    await httpRows(root, m, latency, conc, httpRepeat);
    const decisions = await decisionRows(arg('decision-trials', 400));
    const triggers = await triggerRows(arg('decision-trials', 400));
    const drift = await driftRows(arg('drift-trials', 200));
    const runLevel = await runLevelRows(arg('decision-trials', 400));
    const guard = await guardRows(arg('decision-trials', 400));
    console.log('| case | measured | reference | ratio | goal |');
    console.log('|---|---|---|---|---|');
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    console.log('\ndecisions on a simulated noisy model (scripts/decision-trials.ts):\n');
    for (const line of decisions) console.log(line);
    console.log('\ntrigger suites on a simulated noisy agent (scripts/trigger-trials.ts):\n');
    for (const line of triggers) console.log(line);
    console.log('\ndrift on a simulated noisy engine (scripts/drift-chains.ts):\n');
    for (const line of drift) console.log(line);
    console.log('\nnightly drift over sequences of dated nights on a simulated noisy model (scripts/drift-trials.ts):\n');
    for (const line of driftTable(arg('drift-sequences', 1000))) console.log(line);
    console.log('\nrun-level claims on a simulated noisy model (scripts/run-trials.ts):\n');
    for (const line of runLevel) console.log(line);
    console.log('\nthe regression guard on a simulated noisy model (scripts/regression-trials.ts):\n');
    for (const line of guard) console.log(line);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
