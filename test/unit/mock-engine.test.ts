import { describe, expect, it } from 'vitest';
import { createMockEngine, MOCK_MAX_LINES, MOCK_NO_ANSWER } from '../../src/engines/mock.js';
import { contentLines, tokenize } from '../../src/engines/mock-text.js';

const skill = (text: string) => ({ name: 's', text });
const ask = (prompt: string, text?: string) =>
  createMockEngine().run({ kind: 'task', prompt, skill: text === undefined ? undefined : skill(text), timeoutMs: 1000 });

const SKILL = `---
name: demo
description: Words in the frontmatter are never quoted: zebra.
---
# Demo
Group the commits into Features and Bug fixes.
Put the version number in the title.
\`\`\`
code lines are quotable: version banner
\`\`\`
| a | b |
|---|---|
`;

describe('mock engine', () => {
  it('quotes the skill lines that share words with the prompt, in skill order', async () => {
    const r = await ask('Which version number goes in the title?', SKILL);
    expect(r.ok).toBe(true);
    expect(r.output).toBe('Put the version number in the title.\ncode lines are quotable: version banner');
  });

  it('is deterministic and depends on the skill text and on the prompt', async () => {
    const a = await ask('group the commits', SKILL);
    const b = await ask('group the commits', SKILL);
    expect(a.output).toBe(b.output);
    expect(a.output).toBe('Group the commits into Features and Bug fixes.');
    const otherSkill = await ask('group the commits', SKILL.replace('Bug fixes', 'Fixes'));
    expect(otherSkill.output).toBe('Group the commits into Features and Fixes.');
    const otherPrompt = await ask('the title please', SKILL);
    expect(otherPrompt.output).toBe('Put the version number in the title.');
  });

  it('answers the fixed no-answer line without a skill or without shared words, and never quotes frontmatter', async () => {
    expect((await ask('group the commits')).output).toBe(MOCK_NO_ANSWER);
    expect((await ask('zebra crossing', SKILL)).output).toBe(MOCK_NO_ANSWER);
  });

  it('ranks by shared words and caps the answer length', async () => {
    const many = Array.from({ length: 20 }, (_, i) => `alpha line ${i}${i === 15 ? ' beta gamma' : ''}`).join('\n');
    const r = await ask('alpha beta gamma', many);
    const lines = r.output.split('\n');
    expect(lines).toHaveLength(MOCK_MAX_LINES);
    expect(lines).toContain('alpha line 15 beta gamma');
    expect(lines[0]).toBe('alpha line 0');
  });

  it('matches Chinese text by character pairs', async () => {
    const r = await ask('请写版本概述', '# 技能\n先写版本概述，再列新增功能。\n无关的一行。\n');
    expect(r.output).toBe('先写版本概述，再列新增功能。');
    expect(tokenize('版本概述')).toEqual(new Set(['版本', '本概', '概述']));
  });

  it('grades judge requests by the share of rubric words found in the output', async () => {
    const engine = createMockEngine();
    const r = await engine.run({ kind: 'judge', prompt: 'ignored', grading: { rubric: 'Mentions security and migration', output: 'A migration guide.' }, timeoutMs: 1000, expectJson: true });
    expect(JSON.parse(r.output)).toEqual({ score: 0.3333, reason: 'mock grader: 1/3 rubric terms present in the output' });
    // The discriminator's llm judge asks for a 0–10 rating instead: the same share, ×10 to one decimal.
    const rated = await engine.run({ kind: 'judge', prompt: 'ignored', grading: { rubric: 'Mentions security and migration', output: 'A migration guide.', reply: 'rating' }, timeoutMs: 1000, expectJson: true });
    expect(JSON.parse(rated.output)).toEqual({ rating: 3.3, reason: 'mock grader: 1/3 rubric terms present in the output' });
  });

  it('waits latency_ms and honours an abort as an error value', async () => {
    const engine = createMockEngine({ type: 'mock', latency_ms: 50 });
    const t0 = performance.now();
    await engine.run({ kind: 'task', prompt: 'x', timeoutMs: 1000 });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(45);
    const ac = new AbortController();
    const p = engine.run({ kind: 'task', prompt: 'x', timeoutMs: 1000 }, { signal: ac.signal });
    ac.abort();
    expect(await p).toMatchObject({ ok: false, error: { kind: 'aborted' } });
  });

  it('keeps only quotable lines', () => {
    expect(contentLines(SKILL)).toEqual(['# Demo', 'Group the commits into Features and Bug fixes.', 'Put the version number in the title.', 'code lines are quotable: version banner', '| a | b |']);
  });
});

describe('the mock words, as the engines reference states them', () => {
  it('keeps hyphenated words whole and lists every stop word in docs/reference/engines.md', async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { STOPWORDS, tokenize } = await import('../../src/engines/mock-text.js');
    const { repoRoot } = await import('../support/cli.js');
    expect([...tokenize("Handle semver-compatible bumps; don't")]).toEqual(['handle', 'semver-compatible', 'bumps', "don't"]);
    expect(tokenize('how should I handle semver').has('semver-compatible')).toBe(false);
    const page = readFileSync(join(repoRoot, 'docs/reference/engines.md'), 'utf8');
    const rule = page.slice(page.indexOf('2. Words are compared'), page.indexOf('3. Each quotable line'));
    expect(rule.length).toBeGreaterThan(0);
    const listed = new Set([...rule.slice(rule.indexOf('ignored:')).matchAll(/`([a-z]+)`/g)].map((m) => m[1]));
    expect(listed).toEqual(new Set(STOPWORDS));
  });
});

describe('the mock words of ASCII text', () => {
  // ASCII text takes simpler patterns (src/engines/mock-text.ts); a word that is not ASCII and too short to
  // count (" é") sends the same text down the Unicode path, which must read the same words.
  it.each([
    "Handle semver-compatible bumps; don't RE-TRY it'-- 42-A and_under_scores x9 'quoted' -dash- ok",
    'UPPER lower MiXeD 2024-01-01 v1.2.3 a-b-c-- it\'s \t tabs\nnew lines, commas;semi:colons',
    "Requests about apples: reply with APPLE-OK and code 42-A.",
    '',
    '--- ___ \'\'\' 12 123 1234',
  ])('%j', (text) => {
    expect([...tokenize(text)]).toEqual([...tokenize(`${text} é`)]);
  });
});

