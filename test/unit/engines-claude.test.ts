// Pure parts of the claude engine: argv, identity, and reading Claude Code's JSON result envelope.
import { describe, expect, it } from 'vitest';

import { claudeEngineConfig } from '../../src/config/engine-schema.js';
import { claudeArgv, createClaudeEngine, explainClaudeExit, parseClaudeStdout } from '../../src/engines/claude.js';

// The shape printed by `claude -p --output-format json` (sources in test/fixtures/bin/claude).
const success = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  duration_ms: 1998,
  duration_api_ms: 1976,
  num_turns: 1,
  result: 'Hello CLI Test',
  stop_reason: 'end_turn',
  session_id: '0e639165-79b1-4bd4-bb0f-4cb4c15115d4',
  total_cost_usd: 0.0079825,
  usage: { input_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 15635, output_tokens: 6 },
};

describe('claudeArgv', () => {
  it('is claude -p --output-format json --no-session-persistence --setting-sources project by default', () => {
    expect(claudeArgv(claudeEngineConfig.parse({ type: 'claude' }))).toEqual(['claude', '-p', '--output-format', 'json', '--no-session-persistence', '--setting-sources', 'project']);
    // The way out on a Claude Code release that mishandles the flag.
    expect(claudeArgv(claudeEngineConfig.parse({ type: 'claude', session_persistence: true }))).toEqual(['claude', '-p', '--output-format', 'json', '--setting-sources', 'project']);
    // The one switch that lets the user's own settings, CLAUDE.md and hooks in: Claude Code's own default.
    expect(claudeArgv(claudeEngineConfig.parse({ type: 'claude', user_setup: true }))).toEqual(['claude', '-p', '--output-format', 'json', '--no-session-persistence']);
  });

  it('adds --model, --max-turns and extra_args in that order, and honours bin', () => {
    const cfg = claudeEngineConfig.parse({
      type: 'claude',
      bin: '/opt/claude/bin/claude',
      model: 'sonnet',
      max_turns: 4,
      extra_args: ['--allowedTools', 'Read'],
    });
    expect(claudeArgv(cfg)).toEqual([
      '/opt/claude/bin/claude', '-p', '--output-format', 'json', '--no-session-persistence', '--model', 'sonnet', '--max-turns', '4', '--setting-sources', 'project', '--allowedTools', 'Read',
    ]);
  });
});

describe('claude identity', () => {
  it('is pure config with defaults filled in', () => {
    expect(createClaudeEngine({ type: 'claude' }).identity()).toEqual({
      type: 'claude',
      bin: 'claude',
      model: null,
      max_turns: null,
      extra_args: [],
      output_format: 'json',
      skill_delivery: 'prepend',
      skill_separator: '\n\n---\n\n',
      workdir: 'temp',
      setting_sources: ['project'],
      isolation: 'isolated',
    });
    expect(createClaudeEngine({ type: 'claude', user_setup: true }).identity()).toMatchObject({ isolation: 'user' });
    expect(createClaudeEngine({ type: 'claude', user_setup: true }).identity()).not.toHaveProperty('setting_sources');
  });

  it('differs for every field that changes answers, not for timeout_seconds', () => {
    const id = (over: object) => JSON.stringify(createClaudeEngine({ type: 'claude', ...over }).identity());
    const seen = new Set([id({}), id({ bin: 'claude-beta' }), id({ model: 'opus' }), id({ model: 'sonnet' }), id({ max_turns: 2 }), id({ extra_args: ['--verbose'] }), id({ user_setup: true })]);
    expect(seen.size).toBe(7);
    expect(id({ timeout_seconds: 1 })).toBe(id({ timeout_seconds: 900 }));
  });
});

describe('parseClaudeStdout', () => {
  it('maps result, usage (cache tokens included in input) and total_cost_usd', () => {
    expect(parseClaudeStdout(JSON.stringify(success) + '\n')).toEqual({
      ok: true,
      output: 'Hello CLI Test',
      usage: { input_tokens: 15638, output_tokens: 6, cost_usd: 0.0079825 },
    });
  });

  it('keeps the result text exactly, including surrounding whitespace', () => {
    const v = parseClaudeStdout(JSON.stringify({ ...success, result: '\n\n4\n' }));
    expect(v.ok && v.output).toBe('\n\n4\n');
  });

  it('takes the last result of a message array (hooks / --verbose)', () => {
    const arr = [{ type: 'system', subtype: 'init' }, { type: 'assistant', message: {} }, { ...success, result: 'from array' }];
    const v = parseClaudeStdout(JSON.stringify(arr));
    expect(v.ok && v.output).toBe('from array');
  });

  it('makes error_max_turns an exit error naming the subtype, even with is_error false', () => {
    const v = parseClaudeStdout(JSON.stringify({ ...success, subtype: 'error_max_turns', result: undefined, num_turns: 3 }));
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.kind).toBe('exit');
      expect(v.message).toContain('error_max_turns');
      expect(v.message).toContain('num_turns 3');
      expect(v.usage).toEqual({ input_tokens: 15638, output_tokens: 6, cost_usd: 0.0079825 });
    }
  });

  it('makes is_error true with subtype success an exit error carrying the API status and text', () => {
    const v = parseClaudeStdout(JSON.stringify({ ...success, is_error: true, api_error_status: 429, result: 'API Error: Rate limit reached' }));
    expect(v.ok).toBe(false);
    if (!v.ok) {
      expect(v.kind).toBe('exit');
      expect(v.message).toContain('subtype success');
      expect(v.message).toContain('429');
      expect(v.message).toContain('Rate limit reached');
    }
  });

  it('includes the errors list of error_during_execution', () => {
    const v = parseClaudeStdout(JSON.stringify({ ...success, subtype: 'error_during_execution', is_error: true, result: undefined, errors: ['tool crashed'] }));
    expect(!v.ok && v.message).toMatch(/error_during_execution.*tool crashed/);
  });

  it('is a parse error for non-JSON, for JSON that is no result envelope, and for a missing result', () => {
    for (const out of ['Welcome!', '', '[1,2,3]', '{"hello":"world"}']) {
      const v = parseClaudeStdout(out);
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.kind).toBe('parse');
    }
    const noResult = parseClaudeStdout(JSON.stringify({ ...success, result: undefined }));
    expect(!noResult.ok && noResult.kind).toBe('parse');
  });
});

describe('explainClaudeExit', () => {
  it('explains a non-zero exit from the envelope on stdout', () => {
    const e = explainClaudeExit(JSON.stringify({ ...success, is_error: true, api_error_status: 404, result: 'model not found' }));
    expect(e?.message).toMatch(/404.*model not found/);
  });

  it('returns undefined when stdout has no envelope', () => {
    expect(explainClaudeExit('')).toBeUndefined();
    expect(explainClaudeExit('Error: boom')).toBeUndefined();
  });
});
