// Pure parts of claude's installed mode: argv and identity, reading stream-json, detecting the Skill call,
// and placing the skill folder.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { claudeEngineConfig } from '../../src/config/engine-schema.js';
import { allowedTools, claudeArgv, createClaudeEngine, settingSources } from '../../src/engines/claude.js';
import { explainClaudeStreamExit, namesSkill, parseClaudeStream, readClaudeStream, skillOutcome } from '../../src/engines/claude-stream.js';
import { installAgentsMd, installClaudeSkill } from '../../src/engines/skill-install.js';
import { tempDir } from '../support/temp.js';

const line = (o: object): string => JSON.stringify(o);
const init = line({ type: 'system', subtype: 'init', session_id: 's', tools: ['Skill', 'Read'], model: 'claude-x' });
const toolUse = (name: string, input: unknown, id = `toolu_${name}`, parent: string | null = null) =>
  line({ type: 'assistant', message: { model: 'claude-x', content: [{ type: 'tool_use', id, name, input }] }, parent_tool_use_id: parent, session_id: 's' });
const toolResult = (id: string, content: string, isError?: boolean) =>
  line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content, ...(isError === undefined ? {} : { is_error: isError }) }] }, session_id: 's' });
const launched = toolResult('toolu_Skill', 'Launching skill: release-notes');
const result = (over: object = {}) =>
  line({ type: 'result', subtype: 'success', is_error: false, duration_ms: 1, duration_api_ms: 1, num_turns: 2, session_id: 's', result: 'done', total_cost_usd: 0.01, usage: { input_tokens: 2, cache_read_input_tokens: 98, output_tokens: 5 }, ...over });

describe('installed mode argv and identity', () => {
  it('uses stream-json --verbose and appends Skill to an allow-list that lacks it', () => {
    const cfg = claudeEngineConfig.parse({ type: 'claude', mode: 'installed', allowed_tools: ['Read'] });
    expect(claudeArgv(cfg)).toEqual(['claude', '-p', '--output-format', 'stream-json', '--verbose', '--no-session-persistence', '--allowedTools', 'Read,Skill', '--setting-sources', 'project']);
    expect(allowedTools({ ...cfg, allowed_tools: ['Skill(release-notes)', 'Read'] })).toEqual(['Skill(release-notes)', 'Read']);
    expect(allowedTools({ type: 'claude', allowed_tools: ['Read'] })).toEqual(['Read']);
    // Headless mode cannot ask: without Skill pre-approved a Skill call is denied and the skill never loads.
    expect(allowedTools({ type: 'claude', mode: 'installed' })).toEqual(['Skill']);
    expect(claudeArgv({ type: 'claude', mode: 'installed' })).toContain('Skill');
    expect(allowedTools({ type: 'claude' })).toBeUndefined();
  });

  it("loads only project settings in both modes unless setting_sources or user_setup says otherwise", () => {
    expect(settingSources({ type: 'claude', mode: 'installed' })).toEqual(['project']);
    expect(settingSources({ type: 'claude', mode: 'installed', setting_sources: ['user', 'project'] })).toEqual(['user', 'project']);
    expect(settingSources({ type: 'claude' })).toEqual(['project']);
    expect(settingSources({ type: 'claude', user_setup: true })).toBeUndefined();
    expect(settingSources({ type: 'claude', user_setup: true, setting_sources: ['local'] })).toEqual(['local']);
    expect(claudeArgv({ type: 'claude', setting_sources: ['local'] })).toEqual(['claude', '-p', '--output-format', 'json', '--no-session-persistence', '--setting-sources', 'local']);
    const bad = claudeEngineConfig.safeParse({ type: 'claude', mode: 'installed', setting_sources: ['user'] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['setting_sources'], message: expect.stringMatching(/installed mode needs 'project'/) });
    expect(claudeEngineConfig.safeParse({ type: 'claude', setting_sources: ['user', 'user'] }).success).toBe(false);
    expect(claudeEngineConfig.safeParse({ type: 'claude', setting_sources: ['global'] }).success).toBe(false);
  });

  it('identity names the mode and the new flags only when set, so seed configs keep their identity', () => {
    const seed = createClaudeEngine({ type: 'claude' }).identity();
    expect(seed).not.toHaveProperty('permission_mode');
    expect(seed).not.toHaveProperty('allowed_tools');
    expect(createClaudeEngine({ type: 'claude', mode: 'prepend' }).identity()).toEqual(seed);
    const installed = createClaudeEngine({ type: 'claude', mode: 'installed', permission_mode: 'plan', allowed_tools: ['Read'] }).identity();
    expect(installed).toMatchObject({ output_format: 'stream-json', skill_delivery: 'installed', permission_mode: 'plan', allowed_tools: ['Read', 'Skill'] });
    expect(installed).toMatchObject({ setting_sources: ['project'] });
    // The Skill pre-approval added without a configured list changes the argv, so it shows in identity.
    expect(createClaudeEngine({ type: 'claude', mode: 'installed' }).identity()).toMatchObject({ allowed_tools: ['Skill'] });
    const ids = [{}, { mode: 'installed' as const }, { permission_mode: 'plan' as const }, { allowed_tools: ['Read'] }, { setting_sources: ['user' as const, 'project' as const] }].map((o) => JSON.stringify(createClaudeEngine({ type: 'claude', ...o }).identity()));
    expect(new Set(ids).size).toBe(5);
  });
});

describe('reading stream-json', () => {
  it('collects every tool call, including a subagent\'s, and the Skill names', () => {
    const out = [init, toolUse('Skill', { skill: 'release-notes' }), toolUse('Read', { file_path: 'a' }), toolUse('Skill', { command: 'other' }, 'toolu_x', 'toolu_Task'), result()].join('\n');
    const s = readClaudeStream(out);
    expect(s.toolCalls.map((t) => t.name)).toEqual(['Skill', 'Read', 'Skill']);
    expect(s.skillCalls).toEqual([{ skill: 'release-notes', id: 'toolu_Skill' }, { skill: 'other', id: 'toolu_x' }]);
    expect(s.result?.['result']).toBe('done');
    expect(s.badLines).toBe(0);
  });

  it('maps a successful stream to output, usage, tool calls and skill_triggered', () => {
    const v = parseClaudeStream([init, toolUse('Skill', { skill: 'release-notes' }), launched, result()].join('\n') + '\n', 'release-notes');
    expect(v).toEqual({
      ok: true,
      output: 'done',
      usage: { input_tokens: 100, output_tokens: 5, cost_usd: 0.01 },
      extras: { tool_calls: [{ id: 'toolu_Skill', name: 'Skill', input: { skill: 'release-notes' } }], skill_triggered: true },
    });
  });

  it('skips stray non-JSON lines when a result follows, and leaves skill_triggered out with no skill installed', () => {
    const v = parseClaudeStream(['warning: something', init, result()].join('\n'), undefined);
    expect(v.ok).toBe(true);
    expect(v.extras).toEqual({ tool_calls: [] });
  });

  it('is a parse error without a result message, and an exit error for an error result', () => {
    for (const [out, why] of [
      ['', 'stdout is empty'],
      [init, 'none of type "result"'],
      [`${init}\n<html>`, 'not JSON, e.g. "<html>"'],
    ] as const) {
      const v = parseClaudeStream(out, 's');
      expect(v.ok).toBe(false);
      if (!v.ok) {
        expect(v.kind).toBe('parse');
        expect(v.message).toContain(why);
      }
    }
    const err = parseClaudeStream([init, toolUse('Skill', { skill: 's' }), launched, result({ subtype: 'error_during_execution', is_error: true, result: undefined, errors: ['tool crashed'] })].join('\n'), 's');
    expect(err).toMatchObject({ ok: false, kind: 'exit', extras: { skill_triggered: true } });
    expect(!err.ok && err.message).toMatch(/error_during_execution.*tool crashed/);
  });

  it('explains a non-zero exit from the result message, or not at all', () => {
    expect(explainClaudeStreamExit([init, result({ is_error: true, api_error_status: 529, result: 'Overloaded' })].join('\n'), 's')?.message).toMatch(/529.*Overloaded/);
    // The status travels with the error, so claude-retry.ts can tell an overloaded API from a broken run.
    expect(explainClaudeStreamExit([init, result({ is_error: true, api_error_status: 529, result: 'Overloaded' })].join('\n'), 's')?.status).toBe(529);
    expect(parseClaudeStream([init, result({ is_error: true, api_error_status: 429, result: 'Rate limit' })].join('\n'), 's')).toMatchObject({ ok: false, status: 429 });
    expect(explainClaudeStreamExit(init, 's')).toBeUndefined();
  });
});

describe('skill triggering', () => {
  it('matches the name exactly, plugin-qualified, or as a slash command — nothing else', () => {
    expect(namesSkill('release-notes', 'release-notes')).toBe(true);
    expect(namesSkill('my-plugin:release-notes', 'release-notes')).toBe(true);
    expect(namesSkill('/release-notes', 'release-notes')).toBe(true);
    for (const other of ['release-notes-v2', 'notes', 'release']) expect(namesSkill(other, 'release-notes')).toBe(false);
  });

  const outcome = (...lines: string[]) => skillOutcome(readClaudeStream(lines.join('\n')), 'release-notes');
  const call = toolUse('Skill', { skill: 'release-notes' });
  const denial = { tool_name: 'Skill', tool_use_id: 'toolu_Skill', tool_input: { skill: 'release-notes' } };
  const refusal = toolResult('toolu_Skill', "Claude requested permissions to use Skill, but you haven't granted it yet.", true);

  it('counts a Skill call only when it went through', () => {
    expect(outcome(init, call, launched, result())).toEqual({ triggered: true, denied: false });
    // No tool_result: the run ended before the skill loaded.
    expect(outcome(init, call, result())).toEqual({ triggered: false, denied: false });
  });

  it('a denied call (permission_denials, or an is_error tool_result) is skill_denied, not a trigger', () => {
    expect(outcome(init, call, refusal, result({ permission_denials: [denial] }))).toEqual({ triggered: false, denied: true });
    expect(outcome(init, call, launched, result({ permission_denials: [denial] }))).toEqual({ triggered: false, denied: true });
    expect(outcome(init, call, refusal, result())).toEqual({ triggered: false, denied: true });
    const v = parseClaudeStream([init, call, refusal, result({ permission_denials: [denial] })].join('\n'), 'release-notes');
    expect(v).toMatchObject({ ok: true, extras: { skill_triggered: false, skill_denied: true } });
  });

  it('a later successful call still counts after a denied one', () => {
    const retry = toolUse('Skill', { skill: 'release-notes' }, 'toolu_2');
    expect(outcome(init, call, refusal, retry, toolResult('toolu_2', 'Launching skill: release-notes'), result({ permission_denials: [denial] }))).toEqual({ triggered: true, denied: true });
  });
});

describe('placing a skill', () => {
  let root: string;
  let src: string;
  beforeAll(() => {
    root = tempDir('whet-install-unit-');
    src = join(root, 'src');
    mkdirSync(join(src, 'references', '.git'), { recursive: true });
    writeFileSync(join(src, 'SKILL.md'), 'on disk');
    writeFileSync(join(src, 'AGENTS.md'), "the folder's own");
    writeFileSync(join(src, 'references', 'a.md'), 'A');
    writeFileSync(join(src, 'references', '.git', 'HEAD'), 'x');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('claude: <ws>/.claude/skills/<name>/ with the text under test; VCS folders left behind', async () => {
    const ws = join(root, 'ws1');
    mkdirSync(ws);
    const dir = await installClaudeSkill(ws, { name: 'notes', text: 'under test', dir: src });
    expect(dir).toBe(join(ws, '.claude', 'skills', 'notes'));
    expect(readFileSync(join(dir, 'SKILL.md'), 'utf8')).toBe('under test');
    expect(readdirSync(join(dir, 'references'))).toEqual(['a.md']);
  });

  it('claude: refuses names that are not one safe path segment', async () => {
    for (const name of ['..', '../x', 'a/b', '.hidden', '']) {
      await expect(installClaudeSkill(join(root, 'never'), { name, text: 'x' })).rejects.toThrow(/cannot be a folder name/);
    }
  });

  it('codex: AGENTS.md is the text under test, the folder\'s other files beside it', async () => {
    const ws = join(root, 'ws2');
    mkdirSync(ws);
    await installAgentsMd(ws, { name: 'notes', text: 'under test', dir: src });
    expect(readdirSync(ws).sort()).toEqual(['AGENTS.md', 'references']);
    expect(readFileSync(join(ws, 'AGENTS.md'), 'utf8')).toBe('under test');
  });
});
