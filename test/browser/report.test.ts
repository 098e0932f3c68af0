// The HTML report in a real browser: Debian's headless Chromium driven by playwright-core, the page opened
// from file:// with every other request refused and recorded. It must load without console errors, draw
// the trend and the category bars with the artifacts' numbers, filter the task table by status, keep a
// `<script>` planted in a task's reason inert, and leave a screenshot for a person to look at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { writeRecordedJson } from '../../src/state/recorded.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { copyExample, readJson, repoRoot, tempDir, whet, write } from '../support/cli.js';
import { anchorCalibration, historyLine } from '../fixtures/report/artifacts.js';
import { runCommand } from '../fixtures/report/cli.js';
import { EXPECTED, nightlyProject, twoNights } from '../fixtures/report/nightly-project.js';

const CHROMIUM = process.env.WHET_CHROMIUM ?? '/usr/bin/chromium';
const EVIL = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';
const NIGHTS: [string, number, number, boolean][] = [
  ['2026-11-25', 6, 4, false],
  ['2026-11-26', 7, 3, false],
  ['2026-11-27', 7, 3, false],
  ['2026-11-28', 4, 6, true],
  ['2026-11-29', 9, 1, false],
];

let context: BrowserContext;
let page: Page;
let evaluation: Record<string, any>;
const consoleErrors: string[] = [];
const foreignRequests: string[] = [];
let screenshotPath = '';
// The second page: a nightly run's report, compared with the previous night of its target.
let nightPage: Page;
let nightDrift: Record<string, any>;
const nightErrors: string[] = [];

beforeAll(async () => {
  const dir = tempDir('whet-browser-');
  copyExample('release-notes', join(dir, 'release-notes'));
  write(join(dir, 'pipeline.yaml'), 'state_dir: state\nengine: {type: mock}\ntargets: [{skill: release-notes, suite: release-notes/tasks.yaml}]\nloop: {max_iterations: 2, proposers: [feedback, structural]}\n');
  const r = await whet(['run'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  const state = join(dir, 'state');
  const run = readdirSync(join(state, 'runs'))[0]!;
  // Plant markup in a failing task's reason: it is user data and must stay text.
  const evFile = join(state, 'runs', run, 'iter-001', 'evaluation.json');
  evaluation = readJson(evFile);
  const failing = evaluation.candidate_results.find((t: { status: string }) => t.status === 'fail');
  failing.reason = `${failing.reason} ${EVIL}`;
  // Written as whetstone writes an artifact (its hash recorded), so the report reads it as measured.
  await writeRecordedJson(join(state, 'runs', run), evFile, evaluation, new Date());
  const target = readJson(join(state, 'runs', run, 'run.json')).target.skill_dir;
  mkdirSync(join(state, 'nightly'), { recursive: true });
  writeFileSync(join(state, 'nightly', 'history.jsonl'), NIGHTS.map(([d, p, f, a]) => JSON.stringify(historyLine(d, target, p, f, a, a ? 'pass rate fell' : 'no drift'))).join('\n') + '\n');
  mkdirSync(join(state, 'calibrations'), { recursive: true });
  writeFileSync(join(state, 'calibrations', `${'a'.repeat(64)}.json`), JSON.stringify(anchorCalibration()));
  const html = join(dir, 'report.html');
  const rep = await runCommand(['report', '--format', 'html', '--iteration', '1', '-o', html], { cwd: dir });
  expect(rep.code, rep.stderr).toBe(0);

  context = await chromium.launchPersistentContext(tempDir('whet-chromium-profile-'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1200, height: 900 },
    timeout: 30_000,
  });
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith('file:')) return route.continue();
    foreignRequests.push(url);
    return route.abort();
  });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  await page.goto(pathToFileURL(html).href, { waitUntil: 'load' });
  // A fixed, git-ignored place, so the picture of the last run is where a person (or CI) looks for it.
  mkdirSync(join(repoRoot, 'test-output'), { recursive: true });
  screenshotPath = join(repoRoot, 'test-output', 'report.png');
  await page.screenshot({ path: screenshotPath, fullPage: true });
  process.stderr.write(`HTML report screenshot: ${screenshotPath}\n`);

  const nightDir = nightlyProject();
  const [, n2] = await twoNights(nightDir);
  nightDrift = n2.targets[0]!.drift;
  const nightHtml = join(nightDir, 'night.html');
  const nr = await runCommand(['report', n2.targets[0]!.run_id, '--format', 'html', '-o', nightHtml], { cwd: nightDir });
  expect(nr.code, nr.stderr).toBe(0);
  nightPage = await context.newPage();
  nightPage.on('console', (m) => m.type() === 'error' && nightErrors.push(m.text()));
  nightPage.on('pageerror', (e) => nightErrors.push(e.message));
  await nightPage.goto(pathToFileURL(nightHtml).href, { waitUntil: 'load' });
}, 90_000);

afterAll(async () => {
  await context?.close();
});

describe('the HTML report in headless Chromium', () => {
  it('loads offline with no console error, no request beyond the file, and the planted script inert', async () => {
    expect(consoleErrors).toEqual([]);
    expect(foreignRequests).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    expect(await page.locator('script').count()).toBe(1);
    expect(await page.locator('img').count()).toBe(0);
    await expect.poll(() => page.getByText(EVIL, { exact: false }).count()).toBeGreaterThan(0);
  });

  it('leaves a screenshot in which both charts are drawn', async () => {
    expect(statSync(screenshotPath).size).toBeGreaterThan(20_000);
    const page_ = await page.evaluate(() => ({ w: document.documentElement.scrollWidth, h: document.documentElement.scrollHeight }));
    for (const id of ['trend-chart', 'category-bar']) {
      const el = page.getByTestId(id).first();
      expect(await el.isVisible(), id).toBe(true);
      // Inside the full-page picture, with a real size.
      const box = (await el.evaluate((e) => { const r = e.getBoundingClientRect(); return { x: r.x + scrollX, y: r.y + scrollY, w: r.width, h: r.height }; }));
      expect(box.w * box.h, id).toBeGreaterThan(0);
      expect(box.x + box.w, id).toBeLessThanOrEqual(page_.w + 1);
      expect(box.y + box.h, id).toBeLessThanOrEqual(page_.h + 1);
    }
  });

  it('draws the nightly trend with one point per night, its interval band, and the alert night in red', async () => {
    const chart = page.getByTestId('trend-chart');
    expect(await chart.getAttribute('data-source')).toBe('nightly');
    const box = await chart.boundingBox();
    expect(box!.width).toBeGreaterThan(300);
    const points = page.getByTestId('trend-point');
    expect(await points.count()).toBe(NIGHTS.length);
    const rates = await points.evaluateAll((els) => els.map((e) => [e.getAttribute('data-label'), e.getAttribute('data-rate'), e.getAttribute('fill')]));
    expect(rates).toEqual(NIGHTS.map(([d, p, f, a]) => [d, (p / (p + f)).toFixed(4), a ? '#dc2626' : '#2563eb']));
    const ys = await points.evaluateAll((els) => els.map((e) => Number(e.getAttribute('cy'))));
    expect(ys[3]).toBeGreaterThan(ys[4]!); // 0.4 is drawn below 0.9
    expect((await page.getByTestId('trend-band').boundingBox())!.height).toBeGreaterThan(10);
  });

  it('draws a bar per category and variant whose length is its pass rate from evaluation.json', async () => {
    const bars = await page.getByTestId('category-bar').evaluateAll((els) =>
      els.map((e) => ({ category: e.getAttribute('data-category')!, role: e.getAttribute('data-role')!, rate: Number(e.getAttribute('data-rate')), width: e.getBoundingClientRect().width })),
    );
    const per = evaluation.evaluation.per_category as Record<string, { candidate: { pass_rate: number }; baseline: { pass_rate: number } }>;
    expect(bars).toHaveLength(Object.keys(per).length * 2);
    const full = Math.max(...bars.map((b) => b.width / (b.rate || 1)));
    for (const b of bars) {
      expect(b.rate).toBe(per[b.category]![b.role as 'candidate' | 'baseline'].pass_rate);
      expect(b.width).toBeCloseTo(b.rate * full, 0);
    }
  });

  it('shows the paired comparison and the judge’s confusion matrix with the artifacts’ counts', async () => {
    const paired = evaluation.evaluation.paired;
    const count = async (id: string) => Number(await page.getByTestId(id).first().getAttribute('data-count'));
    expect(await count('paired-both-pass')).toBe(paired.both_pass);
    expect(await count('paired-fixed')).toBe(paired.fixed);
    expect(await count('paired-regressed')).toBe(paired.regressed);
    expect(await page.getByTestId('paired-p').innerText()).toContain(`p = ${paired.p_value.toFixed(4)}`);
    expect([await count('cm-tp'), await count('cm-tn'), await count('cm-fp'), await count('cm-fn')]).toEqual([44, 21, 9, 6]);
    const added = page.locator('[data-testid="diff"] .add').first();
    expect(await added.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(220, 252, 231)');
  });

  it('shows train and held out side by side with the candidate’s counts from evaluation.json', async () => {
    for (const split of ['train', 'holdout']) {
      const rows = evaluation.candidate_results.filter((t: { split?: string; status: string }) => t.split === split && t.status !== 'error');
      const passed = rows.filter((t: { status: string }) => t.status === 'pass').length;
      const text = await page.locator(`[data-testid="split-row"][data-split="${split}"]`).innerText();
      expect(text).toContain(`(${passed}/${rows.length})`);
    }
  });

  it('filters the task table by status with its own script', async () => {
    const rows = page.getByTestId('task-row');
    const visible = () => rows.evaluateAll((els) => els.filter((e) => (e as HTMLElement).offsetParent !== null).map((e) => e.getAttribute('data-task')));
    expect(await visible()).toHaveLength(evaluation.candidate_results.length);
    await page.getByTestId('filter-fail').click();
    const failing = evaluation.candidate_results.filter((t: { status: string }) => t.status === 'fail').map((t: { task_id: string }) => t.task_id);
    expect(failing.length).toBeGreaterThan(0);
    expect(await visible()).toEqual(failing);
    expect(await page.getByTestId('filter-fail').getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('filter-pass').click();
    expect((await visible()).length).toBe(evaluation.candidate_results.length - failing.length);
    await page.getByTestId('filter-all').click();
    expect(await visible()).toHaveLength(evaluation.candidate_results.length);
  });

  it('shows a nightly run’s comparison with the previous night: counts, p-value, alert and cause from the day file', async () => {
    expect(nightErrors).toEqual([]);
    expect(await nightPage.getByTestId('paired-none').count()).toBe(0);
    const count = async (id: string) => Number(await nightPage.getByTestId(id).getAttribute('data-count'));
    expect([await count('night-both-pass'), await count('night-fixed'), await count('night-regressed'), await count('night-both-fail'), await count('night-tasks')]).toEqual([EXPECTED.both_pass, EXPECTED.fixed, EXPECTED.regressed, EXPECTED.both_fail, EXPECTED.tasks_compared]);
    expect(await nightPage.getByTestId('night-matrix').isVisible()).toBe(true);
    expect(await nightPage.getByTestId('night-p').innerText()).toBe(`p = ${nightDrift.p_value.toFixed(4)}`);
    expect(await nightPage.getByTestId('night-previous').innerText()).toBe(nightDrift.compared_with);
    expect(await nightPage.getByTestId('night-alert').getAttribute('data-alert')).toBe(String(nightDrift.alert));
    expect(await nightPage.getByTestId('night-cause').innerText()).toContain(nightDrift.cause);
    const cite = await nightPage.locator('[data-testid="night-category"][data-category="cite"]').innerText();
    expect(cite.split('\t')).toEqual(['cite', '3', '1.0000', '0.0000', '-1.0000']);
  });
});
