// `npm run bench`'s rows for `whet view` (issue 29): how long the command takes to print its URL (a fresh
// process, as a person starts it), and how long a 10,000-task run's outputs page takes in headless
// Chromium from navigation start until it is usable — every task counted, the first rows drawn, the
// keyboard on the table — and then to apply a filter. Figures, never asserted (test/integration/bench.test.ts
// checks only that the rows are printed). Without Chromium the rows say so instead.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, measuredEnv, ratio, secs } from './bench-measure.js';

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
      if (m) resolve({ ms: performance.now() - t0, url: m[0], stop: () => child.kill('SIGTERM') });
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
  const { chromium } = await import('playwright-core');
  const view = await startView(stateDir);
  const profile = mkdtempSync(join(tmpdir(), 'whet-bench-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1300, height: 900 },
  });
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
