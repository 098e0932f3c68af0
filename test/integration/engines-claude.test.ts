// The claude engine against the fake `claude` in test/fixtures/bin (put first on PATH for these tests).
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import { createClaudeEngine } from '../../src/engines/claude.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { waitAllDead } from '../support/process.js';
import { tempDir } from '../support/temp.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/bin');
const TMP = realpathSync(tmpdir());

const skill = { name: 'release-notes', text: '---\nname: release-notes\n---\n# Release notes\nGroup by type.\n' };

function req(over: Partial<EngineRequest> = {}): EngineRequest {
  return { kind: 'task', prompt: 'Write notes for: fix login bug', skill, taskId: 'task-007', timeoutMs: 15_000, ...over };
}

interface LogEntry {
  mode: string;
  argv: string[];
  cwd: string;
  cwd_entries: string[] | null;
  stdin: string;
  env: { CLAUDECODE: string | null; WHET_TASK_ID: string | null; WHET_REQUEST_KIND: string | null };
  pid: number;
  pids?: number[];
}

let scratch: string;
let logFile: string;
const saved: Record<string, string | undefined> = {};
const touched = ['PATH', 'HOME', 'FAKE_CLAUDE_MODE', 'FAKE_CLAUDE_LOG', 'FAKE_CLAUDE_RESULT', 'FAKE_CLAUDE_FAILS', 'FAKE_CLAUDE_API_STATUS', 'CLAUDECODE'];

function readLog(): LogEntry[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as LogEntry);
}

const fastRetry = { policy: { maxRetries: 2, maxWaitMs: 1000, baseDelayMs: 10, maxBackoffMs: 100 }, random: () => 0 };

function mode(m: string): void {
  process.env['FAKE_CLAUDE_MODE'] = m;
}

beforeAll(() => {
  scratch = tempDir('whet-claude-test-');
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

let counter = 0;
beforeEach(() => {
  for (const k of touched) saved[k] = process.env[k];
  process.env['PATH'] = `${BIN}${delimiter}${process.env['PATH'] ?? ''}`;
  logFile = join(scratch, `log-${++counter}.jsonl`);
  process.env['FAKE_CLAUDE_LOG'] = logFile;
  // A scratch HOME, so a regression that lets the fake save transcripts never lands in the real ~/.claude.
  process.env['HOME'] = join(scratch, 'home');
  delete process.env['FAKE_CLAUDE_MODE'];
  delete process.env['FAKE_CLAUDE_RESULT'];
  delete process.env['FAKE_CLAUDE_FAILS'];
  delete process.env['FAKE_CLAUDE_API_STATUS'];
});
afterEach(() => {
  for (const k of touched) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
});

describe('claude engine: a successful run', () => {
  it('runs claude -p --output-format json --model M --max-turns N plus extra_args', async () => {
    const engine = createClaudeEngine({ type: 'claude', model: 'sonnet', max_turns: 3, extra_args: ['--allowedTools', 'Read'] });
    const r = await engine.run(req());
    expect(r.error).toBeUndefined();
    const [entry] = readLog();
    expect(entry?.argv).toEqual(['-p', '--output-format', 'json', '--no-session-persistence', '--model', 'sonnet', '--max-turns', '3', '--setting-sources', 'project', '--allowedTools', 'Read']);
  });

  it('leaves no session transcript under HOME (--no-session-persistence; the fake saves one without it)', async () => {
    const home = join(scratch, `home-${counter}`);
    mkdirSync(home);
    const r = await createClaudeEngine({ type: 'claude' }, { env: { ...process.env, HOME: home } }).run(req());
    expect(r.ok).toBe(true);
    expect(readdirSync(home)).toEqual([]);
  });

  it('sends the skill prepended to the prompt on stdin', async () => {
    await createClaudeEngine({ type: 'claude' }).run(req());
    const [entry] = readLog();
    expect(entry?.stdin).toBe(`${skill.text}\n\n---\n\nWrite notes for: fix login bug`);
    expect(entry?.env.WHET_TASK_ID).toBe('task-007');
    expect(entry?.env.WHET_REQUEST_KIND).toBe('task');
  });

  it('sends only the prompt when the request has no skill', async () => {
    const { skill: _omit, ...noSkill } = req();
    await createClaudeEngine({ type: 'claude' }).run(noSkill);
    expect(readLog()[0]?.stdin).toBe('Write notes for: fix login bug');
  });

  it('runs each call in a fresh, empty temp directory (not the repo) and removes it', async () => {
    const engine = createClaudeEngine({ type: 'claude' });
    await engine.run(req());
    await engine.run(req());
    const entries = readLog();
    expect(entries).toHaveLength(2);
    for (const e of entries) {
      expect(dirname(e.cwd)).toBe(TMP);
      expect(basename(e.cwd)).toMatch(/^whet-claude-/);
      expect(e.cwd).not.toBe(realpathSync(process.cwd()));
      expect(e.cwd_entries).toEqual([]);
      expect(existsSync(e.cwd)).toBe(false);
    }
    expect(entries[0]?.cwd).not.toBe(entries[1]?.cwd);
  });

  it('maps result, usage (cache tokens counted as input) and total_cost_usd', async () => {
    process.env['FAKE_CLAUDE_RESULT'] = '## Fixes\n- login bug\n';
    const r = await createClaudeEngine({ type: 'claude' }).run(req());
    expect(r).toMatchObject({
      ok: true,
      output: '## Fixes\n- login bug\n',
      usage: { input_tokens: 3 + 1200 + 15635, output_tokens: 6, cost_usd: 0.0079825 },
    });
    expect(r.duration_ms).toBeGreaterThan(0);
  });

  it('reads the result out of a message array', async () => {
    mode('array');
    const r = await createClaudeEngine({ type: 'claude' }).run(req());
    expect(r).toMatchObject({ ok: true, output: 'fake answer' });
  });

  it('removes CLAUDECODE from the child environment', async () => {
    process.env['CLAUDECODE'] = '1';
    await createClaudeEngine({ type: 'claude' }).run(req());
    expect(readLog()[0]?.env.CLAUDECODE).toBeNull();
  });

  it('a judge request puts its system text first', async () => {
    await createClaudeEngine({ type: 'claude' }).run({ kind: 'judge', system: 'Grade it.', prompt: 'Output: x', timeoutMs: 15_000 });
    const [entry] = readLog();
    expect(entry?.stdin).toBe('Grade it.\n\n---\n\nOutput: x');
    expect(entry?.env.WHET_REQUEST_KIND).toBe('judge');
  });

  it('honours bin as an absolute path without PATH lookup', async () => {
    process.env['PATH'] = saved['PATH'] ?? '';
    const r = await createClaudeEngine({ type: 'claude', bin: join(BIN, 'claude') }).run(req());
    expect(r.ok).toBe(true);
    expect(readLog()).toHaveLength(1);
  });
});

describe('claude engine: failures are values', () => {
  it('hang: timeout kills the whole tree, leaves no orphan, and removes the temp dir', async () => {
    mode('hang');
    const t0 = Date.now();
    const r = await createClaudeEngine({ type: 'claude' }).run(req({ timeoutMs: 2000 }));
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('timeout');
    expect(r.error?.message).toContain('fake claude: working very slowly');
    const [entry] = readLog();
    expect(entry?.pids).toHaveLength(3);
    expect(await waitAllDead(entry?.pids ?? [])).toEqual([]);
    expect(existsSync(entry?.cwd ?? '/')).toBe(false);
  });

  it('exit1: exit error with the stderr tail', async () => {
    mode('exit1');
    const r = await createClaudeEngine({ type: 'claude' }).run(req());
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('exit');
    expect(r.error?.message).toContain('exited with code 1');
    expect(r.error?.message).toContain('Invalid API key');
  });

  it('garbage: parse error', async () => {
    mode('garbage');
    const r = await createClaudeEngine({ type: 'claude' }).run(req());
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('parse');
    expect(r.error?.message).toContain('Welcome to Claude Code!');
  });

  it('error_max_turns: exit error naming the subtype, with the spent usage', async () => {
    mode('error_max_turns');
    const r = await createClaudeEngine({ type: 'claude', max_turns: 3 }).run(req());
    expect(r.ok).toBe(false);
    expect(r.output).toBe('');
    expect(r.error?.kind).toBe('exit');
    expect(r.error?.message).toContain('error_max_turns');
    expect(r.usage.cost_usd).toBe(0.0079825);
  });

  it('is_error with subtype success and exit 0: exit error with the API status, after retries for a 429', async () => {
    mode('api_error');
    const sleeps: number[] = [];
    const r = await createClaudeEngine({ type: 'claude' }, { retry: { ...fastRetry, sleep: async (ms) => void sleeps.push(ms) } }).run(req());
    expect(r.ok).toBe(false);
    expect(r.error).toMatchObject({ kind: 'exit', status: 429 });
    expect(r.error?.message).toContain('Rate limit reached');
    expect(r.error?.message).toContain('gave up after 3 attempts');
    // retry.ts's exponential backoff (random 0 → no jitter): base, then twice the base.
    expect(sleeps).toEqual([10, 20]);
    expect(r.attempts).toBe(3);
    expect(r.failed_attempts?.map((f) => f.status)).toEqual([429, 429, 429]);
    expect(readLog()).toHaveLength(3);
  });

  it('a rate limit or an overloaded API is retried in a fresh run, and the retry can succeed', async () => {
    mode('api_error');
    process.env['FAKE_CLAUDE_FAILS'] = '1';
    const r = await createClaudeEngine({ type: 'claude' }, { retry: fastRetry }).run(req());
    expect(r).toMatchObject({ ok: true, output: 'fake answer', attempts: 2, failed_attempts: [{ kind: 'exit', status: 429, waited_ms: 10 }] });
    const [first, second] = readLog();
    expect(first?.cwd).not.toBe(second?.cwd);
    for (const status of ['529', '500']) {
      process.env['FAKE_CLAUDE_API_STATUS'] = status;
      process.env['FAKE_CLAUDE_LOG'] = logFile = join(scratch, `log-${status}.jsonl`);
      const again = await createClaudeEngine({ type: 'claude' }, { retry: fastRetry }).run(req());
      expect(again).toMatchObject({ ok: true, attempts: 2, failed_attempts: [{ status: Number(status) }] });
    }
  });

  it('a client error from the API (404) is not retried', async () => {
    mode('api_error');
    process.env['FAKE_CLAUDE_API_STATUS'] = '404';
    const r = await createClaudeEngine({ type: 'claude' }, { retry: fastRetry }).run(req());
    expect(r.error).toMatchObject({ kind: 'exit', status: 404 });
    expect(r.attempts).toBeUndefined();
    expect(readLog()).toHaveLength(1);
  });

  it('exit 1 with an error envelope on stdout and empty stderr: the envelope explains it', async () => {
    mode('api_error_exit1');
    const r = await createClaudeEngine({ type: 'claude' }).run(req());
    expect(r.error?.kind).toBe('exit');
    expect(r.error?.message).toContain('exited with code 1');
    expect(r.error?.message).toContain('404');
    expect(r.error?.message).toContain('model not found');
  });

  it('claude not installed: spawn error', async () => {
    process.env['PATH'] = join(scratch, 'empty-bin');
    const r = await createClaudeEngine({ type: 'claude', bin: 'claude-not-installed-anywhere' }).run(req());
    expect(r.ok).toBe(false);
    expect(r.error?.kind).toBe('spawn');
  });
});
