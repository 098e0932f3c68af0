// The codex engine against the fake `codex` in test/fixtures/bin: argv, the skill as AGENTS.md in a fresh
// workspace, the `codex exec --json` event stream read, and every failure as a value.
import { existsSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

import type { CodexEngineConfig } from '../../src/config/engine-schema.js';
import { createCodexEngine } from '../../src/engines/codex.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { waitAllDead } from '../support/process.js';
import { tempDir } from '../support/temp.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../fixtures/bin');
const TMP = realpathSync(tmpdir());

interface LogEntry {
  argv: string[];
  cwd: string;
  files: string[];
  agents_md: string | null;
  stdin: string;
  env: { WHET_TASK_ID: string | null; WHET_REQUEST_KIND: string | null };
  pids?: number[];
}

let scratch: string;
let skillDir: string;
let logFile: string;
let counter = 0;
const skillText = '---\nname: release-notes\n---\n# Release notes\nSee references/style.md.\n';

function readLog(): LogEntry[] {
  if (!existsSync(logFile)) return [];
  return readFileSync(logFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as LogEntry);
}

function run(mode: string, r: EngineRequest, over: Partial<CodexEngineConfig> = {}, extra: Record<string, string> = {}) {
  const env = { ...process.env, PATH: `${BIN}${delimiter}${process.env['PATH'] ?? ''}`, FAKE_CODEX_LOG: logFile, FAKE_CODEX_MODE: mode, ...extra };
  return createCodexEngine({ type: 'codex', ...over }, { env }).run(r);
}

function req(over: Partial<EngineRequest> = {}): EngineRequest {
  return { kind: 'task', prompt: 'Write notes for: fix login bug', skill: { name: 'release-notes', text: skillText, dir: skillDir }, taskId: 'task-9', timeoutMs: 15_000, ...over };
}

beforeAll(() => {
  scratch = tempDir('whet-codex-test-');
  skillDir = join(scratch, 'skill');
  mkdirSync(join(skillDir, 'references'), { recursive: true });
  writeFileSync(join(skillDir, 'SKILL.md'), 'on-disk text, not the one under test\n');
  writeFileSync(join(skillDir, 'references', 'style.md'), 'Group by type.\n');
});
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
  logFile = join(scratch, `log-${++counter}.jsonl`);
});

describe('codex engine: a successful run', () => {
  it('runs codex exec --json --skip-git-repo-check [--model] [--sandbox] extra_args - with the prompt on stdin', async () => {
    const r = await run('ok', req(), { model: 'gpt-5-codex', sandbox: 'read-only', extra_args: ['-c', 'model_reasoning_effort=low'] });
    expect(r.error).toBeUndefined();
    const [e] = readLog();
    expect(e?.argv).toEqual(['exec', '--json', '--skip-git-repo-check', '--ephemeral', '--model', 'gpt-5-codex', '--sandbox', 'read-only', '-c', 'model_reasoning_effort=low', '-']);
    expect(e?.stdin).toBe('Write notes for: fix login bug');
    expect(e?.env).toEqual({ WHET_TASK_ID: 'task-9', WHET_REQUEST_KIND: 'task' });
  });

  it('delivers the skill as AGENTS.md in a fresh temp workspace, references beside it, then removes it', async () => {
    await run('ok', req());
    const [e] = readLog();
    expect(dirname(e?.cwd ?? '')).toBe(TMP);
    expect(basename(e?.cwd ?? '')).toMatch(/^whet-codex-/);
    expect(e?.agents_md).toBe(skillText);
    expect(e?.files).toEqual(['AGENTS.md', 'references/style.md']);
    expect(existsSync(e?.cwd ?? '/')).toBe(false);
  });

  it('skill_delivery: prepend sends the skill before the prompt and writes no AGENTS.md', async () => {
    await run('ok', req(), { skill_delivery: 'prepend' });
    const [e] = readLog();
    expect(e?.agents_md).toBeNull();
    expect(e?.files).toEqual([]);
    expect(e?.stdin).toBe(`${skillText}\n\n---\n\nWrite notes for: fix login bug`);
  });

  it('reads the final agent_message, usage from turn.completed, and tool calls from completed items', async () => {
    const r = await run('ok', req(), {}, { FAKE_CODEX_RESULT: '## Fixes\n- login' });
    expect(r).toMatchObject({ ok: true, output: '## Fixes\n- login', usage: { input_tokens: 24763, output_tokens: 122 } });
    expect(r.usage.cost_usd).toBeUndefined();
    expect(r.skill_triggered).toBeUndefined();
    expect(r.tool_calls).toEqual([
      { id: 'item_1', name: 'command_execution', input: { command: 'bash -lc ls', exit_code: 0, status: 'completed' } },
      { id: 'item_2', name: 'mcp:github/search_issues', input: { q: 'is:open' } },
    ]);
  });
});

describe('codex engine: failures are values', () => {
  it('hang: timeout, the whole process tree killed, the workspace removed', async () => {
    const r = await run('hang', req({ timeoutMs: 1500 }));
    expect(r).toMatchObject({ ok: false, error: { kind: 'timeout' } });
    expect(r.error?.message).toContain('thinking very slowly');
    const [e] = readLog();
    expect(e?.pids).toHaveLength(3);
    expect(await waitAllDead(e?.pids ?? [])).toEqual([]);
    expect(existsSync(e?.cwd ?? '/')).toBe(false);
  });

  it('exit1: exit error with codex\'s own error event and the stderr tail', async () => {
    const r = await run('exit1', req());
    expect(r).toMatchObject({ ok: false, error: { kind: 'exit' } });
    expect(r.error?.message).toContain('exited with code 1');
    expect(r.error?.message).toContain('401 Unauthorized');
    expect(r.error?.message).toContain('exceeded retry limit');
  });

  it('garbage: parse error quoting the output', async () => {
    const r = await run('garbage', req());
    expect(r).toMatchObject({ ok: false, error: { kind: 'parse' } });
    expect(r.error?.message).toContain('Reading prompt from stdin...');
  });

  it('turn.failed with exit 0: exit error with the failure message', async () => {
    const r = await run('turn_failed', req());
    expect(r).toMatchObject({ ok: false, error: { kind: 'exit' } });
    expect(r.error?.message).toContain('model response stream ended unexpectedly');
  });

  it('codex not installed: spawn error', async () => {
    const r = await createCodexEngine({ type: 'codex', bin: 'codex-not-installed-anywhere' }, { env: { ...process.env, PATH: join(scratch, 'empty') } }).run(req());
    expect(r).toMatchObject({ ok: false, error: { kind: 'spawn' } });
  });
});
