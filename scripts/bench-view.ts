// `npm run bench`'s rows for `whet view` (issue 29): how long the command takes to print its URL (a fresh
// process, as a person starts it), and how long a 10,000-task run's outputs page takes in headless
// Chromium from navigation start until it is usable — every task counted, the first rows drawn, the
// keyboard on the table — and then to apply a filter. Figures, never asserted (test/integration/bench.test.ts
// checks only that the rows are printed). Without Chromium the rows say so instead.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { cli, evaluate, measuredEnv, ratio, secs } from './bench-measure.js';
import { writeManyRuns } from './many-runs.js';

/** Headless Chromium with the flags a closed network needs, in a profile of its own that the caller removes. */
async function launchChromium() {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'whet-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1300, height: 900 },
  });
  return { profile, context };
}

/** The median of `n` runs by wall time, as the other rows take theirs. */
async function median<T extends { wallMs: number }>(n: number, run: () => Promise<T>): Promise<T> {
  const all: T[] = [];
  for (let i = 0; i < n; i++) all.push(await run());
  all.sort((a, b) => a.wallMs - b.wallMs);
  return all[Math.floor(all.length / 2)]!;
}

const CHROMIUM = process.env['WHET_CHROMIUM'] ?? '/usr/bin/chromium';

type Row = (...cells: string[]) => void;

interface Started {
  ms: number;
  url: string;
  pid: number;
  stop: () => void;
}

/**
 * `whet view` as a process, until its URL is printed. node:child_process here, not src/core/proc.ts:
 * runProcess waits for the program to exit, and a server does not.
 */
function startView(stateDir: string): Promise<Started> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [cli, 'view', '--state-root', stateDir, '--port', '0'], { env: measuredEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+\/\?session=[0-9a-f]+/.exec(out);
      if (m) resolve({ ms: performance.now() - t0, url: m[0], pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => reject(new Error(`whet view exited ${code} before printing its URL: ${err}`)));
  });
}

export async function viewRows(stateDir: string, runId: string, tasks: number, repeat: number, row: Row): Promise<void> {
  const n = tasks.toLocaleString('en-US');
  const start = await median(repeat, async () => {
    const s = await startView(stateDir);
    s.stop();
    return { wallMs: s.ms };
  });
  row('`whet view` until its URL is printed', secs(start.wallMs), 'goal 1.00 s', ratio(start.wallMs / 1000), '≤ 1×');
  const name = `${n}-task outputs page in headless Chromium, navigation start until usable`;
  if (!existsSync(CHROMIUM)) {
    row(name, `skipped: no Chromium at ${CHROMIUM} (set WHET_CHROMIUM)`, 'goal 1.00 s', '—', '≤ 1×');
    return;
  }
  const view = await startView(stateDir);
  const { profile, context } = await launchChromium();
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const usable = `${tasks} of ${tasks} tasks`;
    const sample = async () => {
      await page.goto('about:blank');
      await page.goto(`${view.url}#/run/${encodeURIComponent(runId)}/outputs/0`);
      // Polled every animation frame: the first frame in which the table is whole and the keyboard works.
      await page.waitForFunction((want) => document.getElementById('shown-count')?.textContent === want && document.querySelector('.vrow[data-task]') !== null, usable, { polling: 'raf', timeout: 60_000 });
      const loaded = await page.evaluate(() => performance.now());
      const t0 = loaded;
      await page.selectOption('#f-status', 'failed');
      await page.waitForFunction((want) => document.getElementById('shown-count')?.textContent !== want, usable, { polling: 'raf' });
      const filtered = (await page.evaluate(() => performance.now())) - t0;
      return { wallMs: loaded, filterMs: filtered };
    };
    const s = await median(repeat, sample);
    row(name, `${secs(s.wallMs)} · a filter over all ${n} rows ${(s.filterMs).toFixed(0)} ms`, 'goal 1.00 s', ratio(s.wallMs / 1000), '≤ 1×');
  } finally {
    await context.close();
    view.stop();
    rmSync(profile, { recursive: true, force: true });
  }
}

/** A process's CPU time so far (user + system, ms) from /proc; undefined where there is none (not Linux). */
function cpuMs(pid: number): number | undefined {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  } catch {
    return undefined;
  }
}

/**
 * Issue 41's rows: a state directory of `count` runs (one real mock evaluation of the release-notes example
 * and copies of it, scripts/many-runs.ts), the viewer as a process: a page of `/api/run-list` once every run
 * is read (its CPU time), the runs page in headless Chromium until usable, and the viewer's CPU with the
 * page open while nothing changes.
 */
export async function manyRunsRows(root: string, count: number, repeat: number, row: Row): Promise<void> {
  const n = count.toLocaleString('en-US');
  const dir = mkdtempSync(join(root, 'many-runs-'));
  cpSync(resolve(fileURLToPath(import.meta.url), '../../../examples/release-notes'), dir, { recursive: true });
  await evaluate(dir, join(dir, 'tasks.yaml'), ['--mock']);
  const state = join(dir, 'state');
  writeManyRuns(state, join(state, 'runs', readdirSync(join(state, 'runs'))[0]!), count - 1, new Date(Date.now() - 86_400_000));
  const view = await startView(state);
  try {
    const session = new URL(view.url).search;
    const page = async (offset: number) => (await (await fetch(new URL(`/api/run-list${session}&offset=${offset}&limit=50`, view.url))).json()) as { waiting_runs: number | null };
    const t0 = performance.now();
    while ((await page(0)).waiting_runs === null) await sleep(250);
    const indexed = performance.now() - t0;
    const cpu0 = cpuMs(view.pid);
    const walls: number[] = [];
    for (let i = 0; i < Math.max(5, repeat); i++) {
      const t = performance.now();
      await page(i * 50);
      walls.push(performance.now() - t);
    }
    walls.sort((a, b) => a - b);
    const wall = walls[Math.floor(walls.length / 2)]!;
    const cpu = cpu0 === undefined ? undefined : (cpuMs(view.pid)! - cpu0) / walls.length;
    row(`\`/api/run-list\` at ${n} runs, a page of 50 (every run read once first: ${secs(indexed)})`, `${wall.toFixed(0)} ms${cpu === undefined ? '' : ` · ${cpu.toFixed(0)} ms CPU`}`, 'goal 200 ms', ratio(wall / 200), '≤ 1×');
    const name = `runs page at ${n} runs in headless Chromium, navigation start until usable`;
    const idleName = `\`whet view\` idle at ${n} runs with the runs page open (CPU share of one core)`;
    if (!existsSync(CHROMIUM)) {
      row(name, `skipped: no Chromium at ${CHROMIUM} (set WHET_CHROMIUM)`, 'goal 2.00 s', '—', '≤ 1×');
      row(idleName, `skipped: no Chromium at ${CHROMIUM} (set WHET_CHROMIUM)`, 'goal 2% of a core', '—', '≤ 1×');
      return;
    }
    const { profile, context } = await launchChromium();
    try {
      const p = context.pages()[0] ?? (await context.newPage());
      const usable: number[] = [];
      for (let i = 0; i < repeat; i++) {
        await p.goto('about:blank');
        await p.goto(view.url);
        // Read inside the frame that first shows the rows: no round trip to the bench is counted.
        const at = await p.waitForFunction((want) => document.querySelectorAll('#runs tbody tr').length === want && performance.now(), Math.min(50, count), { polling: 'raf', timeout: 60_000 });
        usable.push((await at.jsonValue()) as number);
      }
      usable.sort((a, b) => a - b);
      const u = usable[Math.floor(usable.length / 2)]!;
      row(name, secs(u), 'goal 2.00 s', ratio(u / 2000), '≤ 1×');
      // Idle: the page open and connected, nothing changing, for 10 s.
      await p.waitForFunction(() => document.getElementById('live')?.textContent?.startsWith('live'), undefined, { timeout: 60_000 });
      await sleep(1000);
      const c0 = cpuMs(view.pid);
      const t1 = performance.now();
      await sleep(10_000);
      const c1 = cpuMs(view.pid);
      const share = c0 === undefined || c1 === undefined ? undefined : (c1 - c0) / (performance.now() - t1);
      row(idleName, share === undefined ? 'skipped: no /proc' : `${(share * 100).toFixed(1)}%`, 'goal 2% of a core', share === undefined ? '—' : ratio(share / 0.02), '≤ 1×');
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  } finally {
    view.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
