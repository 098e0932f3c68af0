// npm run screenshots: the pictures of `whet view` in README.md and docs/guides/viewer.md, taken in headless
// Chromium (Debian's chromium, or WHET_CHROMIUM) from the demo's project: the release-notes example on the
// mock engine, run once as `npm run demo` runs it, and once more with every candidate held for review so
// the review queue has one to show. Writes docs/images/view-*.png; offline, nothing but 127.0.0.1.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { runCli } from '../src/cli.js';
import { openViewer } from '../src/commands/view.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'docs', 'images');
const CHROMIUM = process.env['WHET_CHROMIUM'] ?? '/usr/bin/chromium';

const quiet = { env: process.env, now: () => new Date(), stdout: () => undefined, stderr: (s: string) => void process.stderr.write(s) };

async function project(review: boolean): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'whet-screenshots-'));
  cpSync(join(root, 'examples', 'release-notes'), join(dir, 'release-notes'), { recursive: true });
  const thresholds = review ? '{min_delta: 0, max_new_failures: 0, significance: 0.05, review_risks: [low, medium, high]}' : '{min_delta: 0, max_new_failures: 0, significance: 0.05}';
  writeFileSync(
    join(dir, 'pipeline.yaml'),
    `state_dir: state\nengine: {type: mock}\ntargets: [{skill: release-notes, suite: release-notes/tasks.yaml}]\nloop: {max_iterations: ${review ? 1 : 4}, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]}\nthresholds: ${thresholds}\n`,
  );
  const code = await runCli(['run'], { cwd: dir, ...quiet });
  if (code !== 0) throw new Error(`whet run exited ${code}`);
  return dir;
}

const demo = await project(false);
const held = await project(true);
// Both runs in one state directory, so one viewer shows the runs list, the demo's run and the queue.
const state = join(demo, 'state');
for (const id of readdirSync(join(held, 'state', 'runs'))) cpSync(join(held, 'state', 'runs', id), join(state, 'runs', id), { recursive: true });
const runId = readdirSync(join(state, 'runs')).sort()[0]!;

const { viewer } = await openViewer({ cwd: demo, ...quiet }, { stateRoot: state, port: 0, review: true });
// Its temporary folders (both projects, Chromium's profile) are removed when it is done.
const profile = mkdtempSync(join(tmpdir(), 'whet-screenshots-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 820 },
});
await context.route('**/*', (r) => (r.request().url().startsWith(`http://127.0.0.1:${viewer.port}/`) ? r.continue() : r.abort()));
try {
  mkdirSync(out, { recursive: true });
  const page = context.pages()[0] ?? (await context.newPage());
  const shot = async (hash: string, ready: string, name: string) => {
    await page.goto(`${viewer.url}${hash}`);
    await page.locator(ready).first().waitFor();
    await page.screenshot({ path: join(out, name) });
    process.stderr.write(`${join(out, name)}\n`);
  };
  await shot('#/', 'tr[data-run]', 'view-runs.png');
  await shot(`#/run/${runId}`, 'section[data-iteration="1"] .decision', 'view-run.png');
  const ev = JSON.parse((await import('node:fs')).readFileSync(join(state, 'runs', runId, 'iter-001', 'evaluation.json'), 'utf8')) as { evaluation: { paired: { fixes: string[] } } };
  await shot(`#/run/${runId}/outputs/1/${ev.evaluation.paired.fixes[0] ?? ''}`, 'section.variant', 'view-outputs.png');
  await shot('#/review', 'section.pending', 'view-review.png');
} finally {
  await context.close();
  await viewer.close();
  for (const dir of [profile, demo, held]) rmSync(dir, { recursive: true, force: true });
}
