// The bench's peak-RSS figure is the measured process's own: on Linux a child's getrusage maxRSS carries its
// (vforking) parent's high-water mark across exec, so a small child of a large parent reported the parent's
// size. The bench's exit probe (scripts/bench-probe.cts, loaded with --require) reads the child's own
// high-water mark instead.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

// The built probe (npm test builds first): the child is a plain node, as the bench's are.
const probe = join(repoRoot, 'dist/scripts/bench-probe.cjs');

describe.runIf(existsSync('/proc/self/status'))('the bench probe', () => {
  it('reports a small child of a large parent at its own size, where maxRSS reports the parent’s', () => {
    const hog = Buffer.alloc(300 * 1024 * 1024, 7); // resident: every page written
    const dir = tempDir('whet-probe-');
    try {
      const out = join(dir, 'probe.json');
      const r = spawnSync(process.execPath, ['--require', probe, '-e', 'console.log(process.resourceUsage().maxRSS)'], { encoding: 'utf8', env: { ...process.env, WHET_BENCH_PROBE: out } });
      expect(hog[hog.length - 1]).toBe(7);
      expect(r.status, r.stderr).toBe(0);
      const maxRSS = Number(r.stdout.trim());
      const own = (JSON.parse(readFileSync(out, 'utf8')) as { max_rss_kb: number }).max_rss_kb;
      expect(maxRSS / 1024).toBeGreaterThan(250);
      expect(own / 1024).toBeLessThan(150);
      expect(own).toBeGreaterThan(10 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
