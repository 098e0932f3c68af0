// `whet view` on a state directory of 10,002 runs (issue 41: the runs page took 28 s and drew every row,
// /api/runs took 4–6 s, and one open page kept the viewer at 41% of a core while nothing changed). Two
// real standalone evaluations — one on a command engine (test/fixtures/bin/echo-agent, which answers with
// the 70 KiB skill it was sent, so every output is cut at 64 KiB in the log) and one on the mock — and
// 10,000 copies of the first written beside them (scripts/many-runs.ts). The viewer runs as its own
// process (the bundle, as a user starts it), so its CPU time is its own: read from /proc.
// The figures are CPU time where the claim is about work (a request, an idle page), so a machine shared
// with other jobs cannot pass or fail them; the page's wall time has a wide margin over its 2 s goal and
// still fails the old 28 s (`npm run bench` prints it against the goal).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { copyExample, fixturesBin, tempDir, whet, whetBin, write } from '../support/cli.js';
import { openBrowser, seriousViolations, type Browser } from '../support/view.js';
import { writeManyRuns } from '../../scripts/many-runs.js';

const COPIES = 10_000;
let dir: string;
let state: string;
let commandRun: string;
let mockRun: string;
let copies: string[];
let child: ChildProcess;
let url: string;
let b: Browser;

/** The viewer process's CPU time so far (user + system), in ms. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of /proc/PID/stat, in clock ticks (100 a second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

beforeAll(async () => {
  dir = tempDir('whet-view-many-');
  copyExample('release-notes', join(dir, 'skill'));
  // A skill past 64 KiB: echo-agent answers with it, so every logged output is cut.
  appendFileSync(join(dir, 'skill/SKILL.md'), `\n## Reference\n${'- Group changes by kind; name each breaking change first.\n'.repeat(1300)}`);
  write(join(dir, 'pipeline.yaml'), `engine: {type: command, command: ["${join(fixturesBin, 'echo-agent')}"]}\nevaluate: {concurrency: 4}\n`);
  const args = ['evaluate', '--standalone', '--task-suite', 'skill/tasks.yaml', '--skill-path', 'skill'];
  const real = await whet(args, { cwd: dir });
  expect([0, 1], real.stderr).toContain(real.code);
  state = join(dir, 'state');
  commandRun = readdirSync(join(state, 'runs'))[0]!;
  const mock = await whet([...args, '--mock'], { cwd: dir });
  expect([0, 1], mock.stderr).toContain(mock.code);
  mockRun = readdirSync(join(state, 'runs')).find((r) => r !== commandRun)!;
  const t0 = performance.now();
  copies = writeManyRuns(state, join(state, 'runs', commandRun), COPIES, new Date(Date.now() - 86_400_000));
  console.log(`${COPIES} runs written in ${(performance.now() - t0).toFixed(0)} ms`);
  child = spawn(process.execPath, [whetBin, 'view', '--state-root', state, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  for (let waited = 0; !/http:\/\/127\.0\.0\.1:\d+\/\?session=[0-9a-f]+/.test(out); waited += 50) {
    if (waited > 30_000) throw new Error(`whet view printed no URL: ${out}`);
    await sleep(50);
  }
  url = /http:\/\/127\.0\.0\.1:\d+\/\?session=[0-9a-f]+/.exec(out)![0];
  b = await openBrowser(() => new URL(url).origin);
}, 120_000);

afterAll(async () => {
  await b?.context.close();
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  // 10,000 run folders take longer to remove than the shared clean-up's hook allows on a loaded machine.
  if (state) rmSync(join(state, 'runs'), { recursive: true, force: true });
}, 180_000);

describe('whet view at 10,002 runs', () => {
  it('draws the runs page, 50 runs to a page, newest first, with each run’s engine, in under 2 s', async () => {
    // Navigation start until the frame that shows 50 rows (read inside that frame, so no round trip to the
    // test is counted), from a blank page each time, as a person opens the printed URL in a running
    // browser; the median of five, so a stall or two of the shared machine does not decide it.
    // Once the viewer has started (its one look at every run, a second or two of CPU at 10,000 runs, is
    // done: the list says how many runs wait for review), as a page opened a moment after the URL is.
    const session = new URL(url).search;
    await expect.poll(async () => ((await (await fetch(new URL(`/api/run-list${session}&limit=0`, url))).json()) as { waiting_runs: number | null }).waiting_runs, { timeout: 120_000, interval: 500 }).toBe(0);
    const usable: number[] = [];
    for (let i = 0; i < 5; i++) {
      await b.page.goto('about:blank');
      await b.page.goto(url);
      const at = await b.page.waitForFunction(() => document.querySelectorAll('#runs tbody tr').length === 50 && performance.now(), undefined, { polling: 'raf', timeout: 30_000 });
      usable.push((await at.jsonValue()) as number);
    }
    const median = [...usable].sort((x, y) => x - y)[2]!;
    console.log(`runs page usable ${usable.map((u) => u.toFixed(0)).join(', ')} ms after navigation start (median ${median.toFixed(0)}; goal 2 s; 28 s before issue 41)`);
    expect(median).toBeLessThan(2000);
    expect(await b.page.locator('.pager span').first().innerText()).toBe(`runs 1–50 of ${COPIES + 2}, newest first`);
    const rows = b.page.locator('#runs tbody tr');
    expect(await rows.nth(0).getAttribute('data-run')).toBe(mockRun);
    expect(await rows.nth(1).getAttribute('data-run')).toBe(commandRun);
    expect(await rows.nth(2).getAttribute('data-run')).toBe(copies[COPIES - 1]);
    expect(await rows.nth(0).locator('.engine').innerText()).toBe('mock engine');
    expect(await rows.nth(1).locator('.engine').innerText()).toBe('command');
    // The mock in its own colour; a model's engine plain.
    const bg = (n: number) => rows.nth(n).locator('.engine').evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(await bg(0)).toBe('rgb(91, 42, 134)');
    expect(await bg(1)).toBe('rgb(255, 255, 255)');
    expect(await seriousViolations(b.page)).toEqual([]);
    await b.page.getByRole('button', { name: 'Older →' }).click();
    await expect.poll(() => b.page.locator('.pager span').first().innerText()).toBe(`runs 51–100 of ${COPIES + 2}, newest first`);
    expect(await rows.nth(0).getAttribute('data-run')).toBe(copies[COPIES - 49]);
    expect(await rows.count()).toBe(50);
  }, 180_000);

  it('answers /api/run-list in well under 200 ms of CPU once every run is read', async () => {
    // Every run read once in the background; the navigation says so when it has counted them.
    await expect.poll(() => b.page.locator('#nav-review').innerText(), { timeout: 120_000, interval: 1000 }).toBe('Review queue');
    const session = new URL(url).search;
    const before = cpuMs(child.pid!);
    const walls: number[] = [];
    for (let i = 0; i < 10; i++) {
      const t0 = performance.now();
      const p = (await (await fetch(new URL(`/api/run-list${session}&offset=${i * 50}&limit=50`, url))).json()) as { total: number; rows: unknown[]; waiting_runs: number };
      walls.push(performance.now() - t0);
      expect([p.total, p.rows.length, p.waiting_runs]).toEqual([COPIES + 2, 50, 0]);
    }
    const perRequest = (cpuMs(child.pid!) - before) / 10;
    console.log(`/api/run-list at ${COPIES + 2} runs: ${perRequest.toFixed(0)} ms CPU a request; wall ${walls.map((w) => w.toFixed(0)).join(', ')} ms`);
    // One clock tick is 10 ms: 10 requests in under 2 s of CPU. Re-reading every run per request took 4–6 s each.
    expect(perRequest).toBeLessThan(200);
  }, 150_000);

  it('stays near zero CPU with the page open while nothing changes, and still shows a new run at once', async () => {
    await b.page.goto(url);
    await b.page.locator('#runs tbody tr').first().waitFor();
    await expect.poll(() => b.page.locator('#live').innerText(), { timeout: 15_000 }).toMatch(/^live/);
    await sleep(1000);
    const before = cpuMs(child.pid!);
    const t0 = performance.now();
    await sleep(10_000);
    const idle = cpuMs(child.pid!) - before;
    const wall = performance.now() - t0;
    console.log(`idle with a page open: ${idle} ms CPU over ${wall.toFixed(0)} ms (${((idle / wall) * 100).toFixed(1)}% of a core; 41% before issue 41)`);
    // Statting every run's files every 400 ms took ~40% of a core here; a tick now stats a handful of files
    // and a slice of the runs (each compared once every 30 s): ~1%.
    expect(idle / wall).toBeLessThan(0.05);
    // Not idle because blind: a run written now is on the open page without a reload.
    const [added] = writeManyRuns(state, join(state, 'runs', commandRun), 1, new Date(Date.now() + 60_000), 'added-while-open');
    await expect.poll(() => b.page.locator('#runs tbody tr').first().getAttribute('data-run'), { timeout: 15_000 }).toBe(added);
    expect(await b.page.locator('.pager span').first().innerText()).toBe(`runs 1–50 of ${COPIES + 3}, newest first`);
  }, 60_000);

  it('marks an output cut at 64 KiB as cut', async () => {
    const task = (readFileSync(join(state, 'runs', commandRun, 'results/baseline.jsonl'), 'utf8').split('\n')[0]!.match(/"task_id":"([^"]+)"/) ?? [])[1]!;
    await b.page.goto(`${url}#/run/${commandRun}/outputs/0/${encodeURIComponent(task)}`);
    const attempt = b.page.locator('section.variant .attempt').first();
    await attempt.waitFor();
    expect(await attempt.locator('p.cut').innerText()).toBe('cut: the log keeps the first 64 KiB of this output; the judges saw it whole');
    expect(await attempt.locator('pre.output').getAttribute('aria-label')).toMatch(/^baseline output, attempt \d+ \(cut at 64 KiB\)$/);
    expect((await attempt.locator('pre.output').innerText()).endsWith('[… cut at 64 KiB]')).toBe(true);
    expect(await seriousViolations(b.page)).toEqual([]);
    // The engine on the run's own page too.
    await b.page.goto(`${url}#/run/${commandRun}`);
    expect(await b.page.locator('main .engine').first().innerText()).toBe('command');
    expect(b.consoleErrors).toEqual([]);
    expect(b.foreignRequests).toEqual([]);
  }, 60_000);
});
