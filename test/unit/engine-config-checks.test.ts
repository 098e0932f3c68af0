// Config mistakes found before a run: settings that load but cannot work (engine-warnings.ts), the output
// cap OpenAI's reasoning models need, and which flags `whet doctor` holds a CLI's help to.
import { describe, expect, it } from 'vitest';
import { claudeEngineConfig, codexEngineConfig, openaiEngineConfig } from '../../src/config/engine-schema.js';
import { engineWarnings, isOpenAIReasoningModel } from '../../src/config/engine-warnings.js';
import { maxTokensParam, openaiRequestBody } from '../../src/engines/openai.js';
import { missingFlags, passedFlags } from '../../src/engines/cli-flags.js';

describe('engine warnings', () => {
  it('max_turns: 1 with installed mode is warned about; 2, or prepend mode, is not', () => {
    expect(engineWarnings(claudeEngineConfig.parse({ type: 'claude', mode: 'installed', max_turns: 1 }))).toEqual([expect.stringMatching(/^engine\.max_turns: 1 with mode: installed leaves no turn for the answer/)]);
    expect(engineWarnings(claudeEngineConfig.parse({ type: 'claude', mode: 'installed', max_turns: 2 }))).toEqual([]);
    expect(engineWarnings(claudeEngineConfig.parse({ type: 'claude', max_turns: 1 }))).toEqual([]);
  });
  it('user_setup: true next to setting_sources is warned about: setting_sources wins, so the switch does nothing', () => {
    expect(engineWarnings(claudeEngineConfig.parse({ type: 'claude', user_setup: true, setting_sources: ['project'] }))).toEqual([expect.stringMatching(/^engine\.user_setup: true has no effect while setting_sources is set/)]);
    expect(engineWarnings(claudeEngineConfig.parse({ type: 'claude', user_setup: true }))).toEqual([]);
  });
  it('an explicit max_tokens for a reasoning model on OpenAI itself is warned about', () => {
    expect(engineWarnings(openaiEngineConfig.parse({ type: 'openai', model: 'o3-mini', max_tokens_param: 'max_tokens' }), 'judge_engine')).toEqual([expect.stringMatching(/^judge_engine\.max_tokens_param: max_tokens with model o3-mini/)]);
    expect(engineWarnings(openaiEngineConfig.parse({ type: 'openai', model: 'o3-mini', max_tokens_param: 'max_tokens', base_url: 'http://localhost:11434/v1' }))).toEqual([]);
  });
});

describe('the OpenAI output cap', () => {
  it('reasoning models on api.openai.com get max_completion_tokens; others and compatible servers max_tokens; the config wins', () => {
    for (const m of ['o1', 'o3', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5.1']) expect(isOpenAIReasoningModel(m)).toBe(true);
    for (const m of ['gpt-4o', 'gpt-4.1-mini', 'llama3', 'omni']) expect(isOpenAIReasoningModel(m)).toBe(false);
    const body = openaiRequestBody(openaiEngineConfig.parse({ type: 'openai', model: 'o4-mini', max_tokens: 100 }), { kind: 'task', prompt: 'p', timeoutMs: 1000 });
    expect(body).toMatchObject({ max_completion_tokens: 100 });
    expect(body).not.toHaveProperty('max_tokens');
    expect(maxTokensParam(openaiEngineConfig.parse({ type: 'openai', model: 'gpt-4o' }))).toBe('max_tokens');
    expect(maxTokensParam(openaiEngineConfig.parse({ type: 'openai', model: 'o3', base_url: 'http://127.0.0.1:8000/v1' }))).toBe('max_tokens');
    expect(maxTokensParam(openaiEngineConfig.parse({ type: 'openai', model: 'o3', max_tokens_param: 'max_tokens' }))).toBe('max_tokens');
  });
});

describe('the flags whet doctor checks', () => {
  it('are the long options whetstone itself passes, not the user’s extra_args', () => {
    expect(passedFlags(claudeEngineConfig.parse({ type: 'claude', mode: 'installed', model: 'm', extra_args: ['--debug'] }))).toEqual([
      '--output-format', '--verbose', '--no-session-persistence', '--model', '--allowedTools', '--setting-sources',
    ]);
    expect(passedFlags(codexEngineConfig.parse({ type: 'codex', sandbox: 'read-only' }))).toEqual(['--json', '--skip-git-repo-check', '--ephemeral', '--sandbox']);
  });
  it('a flag counts as listed only as a whole option name', () => {
    const help = '  --model <model>  Model\n  --allowedTools, --allowed-tools <tools...>  Tools\n  --ephemeral-ish  x\n';
    expect(missingFlags(help, ['--model', '--allowedTools', '--ephemeral'])).toEqual(['--ephemeral']);
  });
});
