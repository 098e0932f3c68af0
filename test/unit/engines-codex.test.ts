// Pure parts of the codex engine: argv, identity, and reading the `codex exec --json` event stream.
import { describe, expect, it } from 'vitest';

import { codexEngineConfig } from '../../src/config/engine-schema.js';
import { codexArgv, createCodexEngine, explainCodexExit, parseCodexStdout, readCodexEvents } from '../../src/engines/codex.js';

const ev = (o: object): string => JSON.stringify(o);
const start = [ev({ type: 'thread.started', thread_id: 't' }), ev({ type: 'turn.started' })];
const message = (text: string, id = 'item_9') => ev({ type: 'item.completed', item: { id, type: 'agent_message', text } });
const done = (input = 10, cached = 4, output = 3) => ev({ type: 'turn.completed', usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output } });

describe('codexArgv and identity', () => {
  it('is codex exec --json --skip-git-repo-check --ephemeral - by default, the prompt always from stdin', () => {
    expect(codexArgv(codexEngineConfig.parse({ type: 'codex' }))).toEqual(['codex', 'exec', '--json', '--skip-git-repo-check', '--ephemeral', '-']);
    expect(codexArgv({ type: 'codex', bin: '/opt/codex', model: 'o4-mini', sandbox: 'workspace-write', extra_args: ['--oss'] })).toEqual([
      '/opt/codex', 'exec', '--json', '--skip-git-repo-check', '--ephemeral', '--model', 'o4-mini', '--sandbox', 'workspace-write', '--oss', '-',
    ]);
    expect(codexArgv({ type: 'codex', session_persistence: true })).toEqual(['codex', 'exec', '--json', '--skip-git-repo-check', '-']);
  });

  it('identity differs for every field that changes answers, not for timeout_seconds', () => {
    expect(createCodexEngine({ type: 'codex' }).identity()).toEqual({
      type: 'codex', bin: 'codex', model: null, sandbox: null, extra_args: [], output_format: 'json', skill_delivery: 'agents_md', skill_separator: '\n\n---\n\n', workdir: 'temp', isolation: 'isolated',
    });
    const id = (o: object) => JSON.stringify(createCodexEngine({ type: 'codex', ...o }).identity());
    const seen = new Set([id({}), id({ bin: 'codex2' }), id({ model: 'm' }), id({ sandbox: 'read-only' }), id({ extra_args: ['--oss'] }), id({ skill_delivery: 'prepend' }), id({ skill_delivery: 'installed' }), id({ user_setup: true })]);
    expect(seen.size).toBe(8);
    expect(id({ timeout_seconds: 5 })).toBe(id({}));
  });
});

describe('reading codex exec --json', () => {
  it('takes the last agent_message, sums usage over turns, and lists completed tool items once', () => {
    const out = [
      ...start,
      ev({ type: 'item.started', item: { id: 'item_1', type: 'command_execution', command: 'ls', aggregated_output: '', status: 'in_progress' } }),
      ev({ type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command: 'ls', aggregated_output: 'a', exit_code: 0, status: 'completed' } }),
      ev({ type: 'item.completed', item: { id: 'item_2', type: 'file_change', changes: [{ path: 'a.md', kind: 'add' }], status: 'completed' } }),
      ev({ type: 'item.completed', item: { id: 'item_3', type: 'web_search', query: 'codex docs' } }),
      ev({ type: 'item.completed', item: { id: 'item_4', type: 'reasoning', text: 'thinking' } }),
      ev({ type: 'item.completed', item: { id: 'item_5', type: 'todo_list', items: [] } }),
      message('first'),
      done(10, 4, 3),
      ev({ type: 'turn.started' }),
      message('final answer'),
      done(20, 0, 7),
    ].join('\n');
    expect(parseCodexStdout(out)).toEqual({
      ok: true,
      output: 'final answer',
      usage: { input_tokens: 30, output_tokens: 10 },
      extras: {
        tool_calls: [
          { id: 'item_1', name: 'command_execution', input: { command: 'ls', exit_code: 0, status: 'completed' } },
          { id: 'item_2', name: 'file_change', input: { changes: [{ path: 'a.md', kind: 'add' }], status: 'completed' } },
          { id: 'item_3', name: 'web_search', input: { query: 'codex docs' } },
        ],
      },
    });
  });

  it('a completed turn without a message is an empty answer, not an engine error', () => {
    expect(parseCodexStdout([...start, done()].join('\n'))).toMatchObject({ ok: true, output: '' });
  });

  it('transient error events do not fail a turn that completes', () => {
    const v = parseCodexStdout([...start, ev({ type: 'error', message: 'Reconnecting... 1/5' }), message('ok'), done()].join('\n'));
    expect(v).toMatchObject({ ok: true, output: 'ok' });
  });

  it('turn.failed is an exit error; errors without a completed turn are an exit error; noise is a parse error', () => {
    const failed = parseCodexStdout([...start, ev({ type: 'turn.failed', error: { message: 'stream ended' } })].join('\n'));
    expect(failed).toMatchObject({ ok: false, kind: 'exit' });
    expect(!failed.ok && failed.message).toContain('stream ended');
    const errored = parseCodexStdout([...start, ev({ type: 'error', message: 'quota exceeded' })].join('\n'));
    expect(errored).toMatchObject({ ok: false, kind: 'exit' });
    expect(!errored.ok && errored.message).toContain('quota exceeded');
    const noise = parseCodexStdout('hello\nworld');
    expect(noise).toMatchObject({ ok: false, kind: 'parse' });
    expect(!noise.ok && noise.message).toContain('"hello"');
    expect(parseCodexStdout('')).toMatchObject({ ok: false, kind: 'parse' });
  });

  it('explains a non-zero exit from turn.failed or the last error event', () => {
    expect(explainCodexExit([...start, ev({ type: 'error', message: '401 Unauthorized' })].join('\n'))?.message).toBe('401 Unauthorized');
    expect(explainCodexExit(start.join('\n'))).toBeUndefined();
    expect(readCodexEvents('{"type":"thread.started"}\nnot json').badLines).toBe(1);
  });
});
