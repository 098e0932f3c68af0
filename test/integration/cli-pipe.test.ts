// `whet … | head`: a reader that leaves before the output ends. The real CLI as a process, its stdout a
// pipe closed after the first chunk, with more output to come than a pipe holds (`whet schemas` prints
// ≈ 300 KB): the command must finish with its own exit code and say nothing of EPIPE.
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir, whetBin } from '../support/cli.js';

function runAndCloseEarly(args: string[]): Promise<{ code: number | null; stderr: string; got: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [whetBin, ...args], { cwd: tempDir('whet-pipe-'), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let got = 0;
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.stdout.once('data', (c: Buffer) => {
      got = c.length;
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr, got }));
  });
}

describe('a closed stdout', () => {
  it('ends `whet schemas` (300 KB of output) with exit 0 and no EPIPE crash when the reader leaves after the first chunk', async () => {
    const r = await runAndCloseEarly(['schemas']);
    expect(r.got).toBeGreaterThan(0);
    expect(r.got).toBeLessThan(300_000);
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|node:events/);
    expect(r.code).toBe(0);
  });
});
