// A Codex usage limit (test/fixtures/bin/codex `usage_limit`: the "You've hit your usage limit … try again
// at <time>" text of codex-rs/core/src/error.rs) whose reset lies beyond rate_limit_max_wait_seconds stops
// the call as `rate_limited` at once — no seconds-long backoff — and every later codex call of the process
// is refused until the reset. Its own file: the stop holds for the process (the test worker) for two hours.
import { existsSync, readFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCodexEngine } from '../../src/engines/codex.js';
import { fixturesBin, tempDir } from '../support/cli.js';

describe('codex usage limit', () => {
  it('past the maximum wait: rate_limited with the reset named, and no new codex process for later calls', async () => {
    const dir = tempDir();
    const log = join(dir, 'codex.log');
    const resetAt = Math.floor(Date.now() / 1000) + 2 * 3600;
    const env = { ...process.env, PATH: `${fixturesBin}${delimiter}${process.env['PATH'] ?? ''}`, FAKE_CODEX_MODE: 'usage_limit', FAKE_CODEX_LOG: log, FAKE_CODEX_RESET_AT: String(resetAt) };
    const engine = createCodexEngine({ type: 'codex', rate_limit_max_wait_seconds: 60 }, { env });
    const req = { kind: 'task' as const, prompt: 'hi', timeoutMs: 15_000 };
    const started = Date.now();
    const r = await engine.run(req);
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ kind: 'rate_limited', message: expect.stringMatching(/codex: subscription rate limit reached .*usage limit.*it resets at .*in [12] h \d+ min.*beyond rate_limit_max_wait_seconds \(60 s\)/) });
    expect(r.rate_limit?.resets_at).toBeGreaterThan(Date.now() + 3600_000);
    expect(Date.now() - started).toBeLessThan(10_000);
    const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0);
    expect(calls()).toBe(1);
    // The gate is what meterEngine waits on before each call: it now refuses without starting codex.
    expect(await engine.rateLimitGate?.ready()).toMatch(/codex: subscription rate limit reached/);
    expect(calls()).toBe(1);
  });
});
