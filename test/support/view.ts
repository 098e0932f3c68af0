// `whet view` in tests: the command run in-process (its URL read from what it prints, as a person reads it),
// headless Chromium driven by playwright-core with every request beyond the viewer refused and recorded,
// and axe-core's own axe.min.js injected into a page to list accessibility violations.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { runCli } from '../../src/cli.js';
import { tempDir } from './cli.js';

export const CHROMIUM = process.env.WHET_CHROMIUM ?? '/usr/bin/chromium';

export interface RunningView {
  /** The URL as printed, token included. */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  token: string;
  output: () => string;
  stop: () => Promise<number>;
}

export async function startView(cwd: string, args: string[] = []): Promise<RunningView> {
  const ac = new AbortController();
  let out = '';
  const code = runCli(['view', '--port', '0', ...args], { cwd, env: process.env, now: () => new Date(), stdout: (s) => (out += s), stderr: (s) => (out += s), signal: ac.signal });
  const t0 = Date.now();
  let m: RegExpExecArray | null = null;
  while (!(m = /(http:\/\/127\.0\.0\.1:(\d+))\/\?session=([0-9a-f]+)/.exec(out))) {
    if (Date.now() - t0 > 10_000) throw new Error(`whet view printed no URL: ${out}`);
    await sleep(20);
  }
  return {
    url: m[0],
    origin: m[1]!,
    port: Number(m[2]),
    token: m[3]!,
    output: () => out,
    stop: async () => {
      ac.abort();
      return code;
    },
  };
}

export interface Browser {
  context: BrowserContext;
  page: Page;
  consoleErrors: string[];
  foreignRequests: string[];
}

export async function openBrowser(allowedOrigin: () => string): Promise<Browser> {
  const context = await chromium.launchPersistentContext(tempDir('whet-chromium-profile-'), {
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    viewport: { width: 1300, height: 900 },
    timeout: 30_000,
  });
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${allowedOrigin()}/`)) return route.continue();
    foreignRequests.push(url);
    return route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(e.message));
  return { context, page, consoleErrors, foreignRequests };
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations of serious or critical impact on the page as it is now: [rule id, impact, targets]. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const w = window as unknown as { axe: { run: (ctx: Document) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } };
    const r = await w.axe.run(document);
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}
