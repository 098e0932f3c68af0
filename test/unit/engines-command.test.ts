// Pure parts of the command engine: prompt composition, usage extraction, JSON paths, identity, config checks.
import { describe, expect, it } from 'vitest';

import { commandEngineConfig } from '../../src/config/engine-schema.js';
import {
  composePrompt,
  createCommandEngine,
  extractUsage,
  parseJsonStdout,
  SKILL_SEPARATOR,
  stderrTail,
  stripOneTrailingNewline,
} from '../../src/engines/command.js';
import { getJsonPath, jsonValueToText, parseJsonPath } from '../../src/engines/json-path.js';
import type { EngineRequest } from '../../src/engines/types.js';
import { ConfigError } from '../../src/core/errors.js';

const skill = { name: 'release-notes', text: '---\nname: release-notes\n---\n# Release notes\nAlways group by type.\n' };

function req(over: Partial<EngineRequest> = {}): EngineRequest {
  return { kind: 'task', prompt: 'Summarise these commits.', timeoutMs: 5000, ...over };
}

describe('composePrompt', () => {
  it('prepends the SKILL.md text verbatim, then a blank line, ---, a blank line, then the prompt', () => {
    expect(SKILL_SEPARATOR).toBe('\n\n---\n\n');
    expect(composePrompt(req({ skill }), 'prepend')).toBe(
      '---\nname: release-notes\n---\n# Release notes\nAlways group by type.\n' + '\n\n---\n\n' + 'Summarise these commits.',
    );
  });

  it('sends only the prompt for env and none delivery', () => {
    expect(composePrompt(req({ skill }), 'env')).toBe('Summarise these commits.');
    expect(composePrompt(req({ skill }), 'none')).toBe('Summarise these commits.');
  });

  it('sends only the prompt when there is no skill or the skill is empty', () => {
    expect(composePrompt(req(), 'prepend')).toBe('Summarise these commits.');
    expect(composePrompt(req({ skill: { name: 'x', text: '' } }), 'prepend')).toBe('Summarise these commits.');
  });

  it('puts a judge request’s system text before the prompt', () => {
    const judge = req({ kind: 'judge', system: 'You grade answers. Reply with JSON.', prompt: 'Answer: 42' });
    expect(composePrompt(judge, 'prepend')).toBe('You grade answers. Reply with JSON.\n\n---\n\nAnswer: 42');
    expect(composePrompt(judge, 'none')).toBe('You grade answers. Reply with JSON.\n\n---\n\nAnswer: 42');
  });

  it('orders system, skill, prompt when all three are present', () => {
    expect(composePrompt(req({ system: 'SYS', skill: { name: 's', text: 'SKILL' }, prompt: 'P' }), 'prepend')).toBe(
      'SYS\n\n---\n\nSKILL\n\n---\n\nP',
    );
  });
});

describe('extractUsage', () => {
  it('reads Anthropic-style usage, adding cache tokens to input, and total_cost_usd', () => {
    expect(
      extractUsage({
        usage: { input_tokens: 3, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 6 },
        total_cost_usd: 0.01,
      }),
    ).toEqual({ input_tokens: 1103, output_tokens: 6, cost_usd: 0.01 });
  });

  it('falls back to cost_usd and to OpenAI-style token names', () => {
    expect(extractUsage({ usage: { prompt_tokens: 9, completion_tokens: 4 }, cost_usd: 0.5 })).toEqual({
      input_tokens: 9,
      output_tokens: 4,
      cost_usd: 0.5,
    });
  });

  it('prefers total_cost_usd over cost_usd', () => {
    expect(extractUsage({ total_cost_usd: 2, cost_usd: 1 })).toEqual({ cost_usd: 2 });
  });

  it('returns {} when nothing is there or the value is not an object', () => {
    expect(extractUsage({ answer: 'x' })).toEqual({});
    expect(extractUsage('text')).toEqual({});
    expect(extractUsage([1, 2])).toEqual({});
    expect(extractUsage({ usage: { input_tokens: 'many' } })).toEqual({});
  });
});

describe('json paths', () => {
  const doc = { result: 'R', choices: [{ message: { content: 'C0' } }, { message: { content: 'C1' } }], obj: { '0': 'zero' }, n: 5 };

  it('follows object keys and array indexes', () => {
    expect(getJsonPath(doc, 'result')).toEqual({ found: true, value: 'R' });
    expect(getJsonPath(doc, 'choices.1.message.content')).toEqual({ found: true, value: 'C1' });
    expect(getJsonPath(doc, 'obj.0')).toEqual({ found: true, value: 'zero' });
    expect(getJsonPath(doc, 'choices.0.message')).toEqual({ found: true, value: { content: 'C0' } });
  });

  it('reports where a path stops resolving', () => {
    expect(getJsonPath(doc, 'choices.2.message')).toEqual({ found: false, missingAt: 'choices.2' });
    expect(getJsonPath(doc, 'choices.first')).toEqual({ found: false, missingAt: 'choices.first' });
    expect(getJsonPath(doc, 'n.x')).toEqual({ found: false, missingAt: 'n.x' });
    expect(getJsonPath(doc, 'missing')).toEqual({ found: false, missingAt: 'missing' });
    expect(getJsonPath(doc, 'toString')).toEqual({ found: false, missingAt: 'toString' });
  });

  it('rejects empty segments', () => {
    expect(() => parseJsonPath('a..b')).toThrow(/empty segment/);
    expect(() => parseJsonPath('.a')).toThrow(/empty segment/);
  });

  it('turns non-strings into compact JSON', () => {
    expect(jsonValueToText('s')).toBe('s');
    expect(jsonValueToText({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(jsonValueToText(42)).toBe('42');
  });
});

describe('small helpers', () => {
  it('strips exactly one trailing newline', () => {
    expect(stripOneTrailingNewline('a\n\n')).toBe('a\n');
    expect(stripOneTrailingNewline('a\r\n')).toBe('a');
    expect(stripOneTrailingNewline('a')).toBe('a');
    expect(stripOneTrailingNewline('  a  \n')).toBe('  a  ');
  });

  it('keeps the last stderr lines on one line', () => {
    expect(stderrTail('1\n2\n3\n4\n5\n6\n7\n')).toBe('3 | 4 | 5 | 6 | 7');
    expect(stderrTail('')).toBe('');
  });

  it('parses JSON stdout or says why not', () => {
    expect(parseJsonStdout(' {"a":1}\n')).toEqual({ ok: true, value: { a: 1 } });
    const bad = parseJsonStdout('nope');
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.message).toMatch(/not JSON.*nope/);
    const empty = parseJsonStdout('\n');
    expect(empty.ok).toBe(false);
  });
});

describe('command engine identity and config', () => {
  const base = commandEngineConfig.parse({ type: 'command', command: ['my-agent', '--fast'] });

  it('fills defaults so an omitted field and its default give the same identity', () => {
    const a = createCommandEngine(base).identity();
    const b = createCommandEngine({ ...base, output: 'text', skill_delivery: 'prepend', workdir: 'temp' }).identity();
    expect(a).toEqual(b);
    expect(a).toEqual({
      type: 'command',
      command: ['my-agent', '--fast'],
      output: 'text',
      json_path: null,
      skill_delivery: 'prepend',
      skill_separator: '\n\n---\n\n',
      env: {},
      workdir: 'temp',
    });
  });

  it('changes with everything that changes answers', () => {
    const id = (over: object) => JSON.stringify(createCommandEngine({ ...base, ...over }, { suiteDir: '/s' }).identity());
    const seen = new Set([
      id({}),
      id({ command: ['my-agent'] }),
      id({ output: 'json' }),
      id({ output: 'json', json_path: 'result' }),
      id({ skill_delivery: 'env' }),
      id({ skill_delivery: 'none' }),
      id({ env: { MODEL: 'a' } }),
      id({ env: { MODEL: 'b' } }),
      id({ workdir: 'suite' }),
    ]);
    expect(seen.size).toBe(9);
  });

  it('does not count timeout_seconds or env key order', () => {
    const a = createCommandEngine({ ...base, env: { A: '1', B: '2' }, timeout_seconds: 5 }).identity();
    const b = createCommandEngine({ ...base, env: { B: '2', A: '1' }, timeout_seconds: 500 }).identity();
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('returns a copy the caller cannot use to change the engine', () => {
    const engine = createCommandEngine(base);
    const id = engine.identity() as { command: string[] };
    id.command.push('--evil');
    expect(engine.identity()['command']).toEqual(['my-agent', '--fast']);
  });

  it('refuses workdir: suite without a suite folder, and a malformed json_path', () => {
    expect(() => createCommandEngine({ ...base, workdir: 'suite' })).toThrow(ConfigError);
    expect(() => createCommandEngine({ ...base, output: 'json', json_path: 'a..b' })).toThrow(ConfigError);
  });
});
