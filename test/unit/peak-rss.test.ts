// The bench's peak-RSS figure is the measured process's own: on Linux a child's getrusage maxRSS carries its
// (vforking) parent's high-water mark across exec, so a small child of a large parent reported the parent's
// size. peakRssKb reads the child's own high-water mark instead.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';

// The built module (npm test builds first): the child is a plain node, as the bench's are.
const module = pathToFileURL(join(repoRoot, 'dist/src/core/peak-rss.js')).href;

describe.runIf(existsSync('/proc/self/status'))('peakRssKb', () => {
  it('reports a small child of a large parent at its own size, where maxRSS reports the parent’s', () => {
    const hog = Buffer.alloc(300 * 1024 * 1024, 7); // resident: every page written
    const code = `import { peakRssKb } from ${JSON.stringify(module)}; console.log(JSON.stringify({ own: peakRssKb(), maxRSS: process.resourceUsage().maxRSS }));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
    expect(hog[hog.length - 1]).toBe(7);
    expect(r.status, r.stderr).toBe(0);
    const { own, maxRSS } = JSON.parse(r.stdout) as { own: number; maxRSS: number };
    expect(maxRSS / 1024).toBeGreaterThan(250);
    expect(own / 1024).toBeLessThan(150);
    expect(own).toBeGreaterThan(10 * 1024);
  });

  it('is what the bench probe (CommonJS, for --require) reports too', () => {
    const hog = Buffer.alloc(300 * 1024 * 1024, 7);
    const dir = mkdtempSync(join(tmpdir(), 'whet-probe-'));
    try {
      const out = join(dir, 'probe.json');
      const r = spawnSync(process.execPath, ['--require', join(repoRoot, 'dist/scripts/bench-probe.cjs'), '-e', '0'], { encoding: 'utf8', env: { ...process.env, WHET_BENCH_PROBE: out } });
      expect(hog[hog.length - 1]).toBe(7);
      expect(r.status, r.stderr).toBe(0);
      const p = JSON.parse(readFileSync(out, 'utf8')) as { max_rss_kb: number; cpu_ms: number };
      expect(p.max_rss_kb / 1024).toBeLessThan(150);
      expect(p.max_rss_kb).toBeGreaterThan(10 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
