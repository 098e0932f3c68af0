// Both agent CLIs feed the adaptive concurrency the HTTP engines use (src/engines/adaptive.ts): a 429 from
// a claude or codex run halves the engine's limit, a run of successes raises it again. Fake CLIs on PATH.
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeEngine } from '../../src/engines/claude.js';
import { createCodexEngine } from '../../src/engines/codex.js';
import { fixturesBin, tempDir } from '../support/cli.js';

const retry = { policy: { maxRetries: 2, maxWaitMs: 1000, baseDelayMs: 20, maxBackoffMs: 40 } };
const req = { kind: 'task' as const, prompt: 'hi', timeoutMs: 15_000 };
const path = `${fixturesBin}${delimiter}${process.env['PATH'] ?? ''}`;

describe('agent CLIs and adaptive concurrency', () => {
  it('claude: an api_error_status 429 halves the limit; successes grow it back', async () => {
    const dir = tempDir();
    const env = { ...process.env, PATH: path, FAKE_CLAUDE_MODE: 'api_error', FAKE_CLAUDE_FAILS: '1', FAKE_CLAUDE_LOG: join(dir, 'log') };
    const engine = createClaudeEngine({ type: 'claude', max_concurrency: 4 }, { env, retry });
    expect(engine.concurrency?.limit).toBe(4);
    const r = await engine.run(req);
    expect(r.ok, r.error?.message).toBe(true);
    expect(engine.concurrency?.limit).toBe(2);
    for (let i = 0; i < 4; i++) expect((await engine.run(req)).ok).toBe(true);
    expect(engine.concurrency?.limit).toBe(3);
  });

  it('codex: a turn.failed 429 halves the limit', async () => {
    const dir = tempDir();
    const env = { ...process.env, PATH: path, FAKE_CODEX_MODE: 'rate_429', FAKE_CODEX_FAILS: '1', FAKE_CODEX_LOG: join(dir, 'log') };
    const engine = createCodexEngine({ type: 'codex' }, { env, retry });
    expect(engine.concurrency?.limit).toBe(8);
    expect((await engine.run(req)).ok).toBe(true);
    expect(engine.concurrency?.limit).toBe(4);
  });
});
