// The text judges: contains, not_contains, regex and equals.
import { describe, it, expect } from 'vitest';
import type { JudgeSpec } from '../../src/config/suite-schema.js';
import { runJudge, REGEX_MAX_INPUT } from '../../src/judges/index.js';
import { ctx } from '../support/judge-context.js';

describe('contains judge', () => {
  it('passes when every string is present, ignoring case by default', async () => {
    const r = await runJudge({ type: 'contains', expected: ['pass 1', 'PASS 2'] }, ctx('Pass 1 and pass 2 done'));
    expect(r).toMatchObject({ type: 'contains', passed: true, score: 1 });
    expect(r.error).toBeUndefined();
    expect(r.reason).toBe('found all 2 expected strings');
  });

  it('scores the fraction found, rounded to 4 decimals, and names the missing ones', async () => {
    const r = await runJudge({ type: 'contains', expected: ['Pass 1', 'Pass 2', 'Pass 3'] }, ctx('pass 1 ... PASS 3'));
    expect(r.passed).toBe(false);
    expect(r.score).toBe(0.6667);
    expect(r.reason).toBe('missing 1/3: "Pass 2"');
    expect(r.error).toBeUndefined();
  });

  it('is case-sensitive when asked', async () => {
    const r = await runJudge({ type: 'contains', expected: ['Pass 1', 'pass 2'], case_sensitive: true }, ctx('Pass 1 Pass 2'));
    expect(r.passed).toBe(false);
    expect(r.score).toBe(0.5);
    expect(r.reason).toBe('missing 1/2: "pass 2"');
  });

  it('matches composed and decomposed accents alike', async () => {
    const r = await runJudge({ type: 'contains', expected: ['caf\u00e9'] }, ctx('a cafe\u0301 downtown'));
    expect(r.passed).toBe(true);
  });

  it('scores 0 on empty output', async () => {
    const r = await runJudge({ type: 'contains', expected: ['a', 'b'] }, ctx(''));
    expect(r).toMatchObject({ passed: false, score: 0, reason: 'missing 2/2: "a", "b"' });
  });
});

describe('not_contains judge', () => {
  it('passes when none of the strings appear', async () => {
    const r = await runJudge({ type: 'not_contains', expected: ['TODO', 'lorem'] }, ctx('all done'));
    expect(r).toMatchObject({ type: 'not_contains', passed: true, score: 1 });
  });

  it('fails, scores the fraction absent and names the ones found (case-insensitive)', async () => {
    const r = await runJudge({ type: 'not_contains', expected: ['TODO', 'lorem', 'fixme'] }, ctx('todo: lorem ipsum'));
    expect(r.passed).toBe(false);
    expect(r.score).toBe(0.3333);
    expect(r.reason).toBe('found 2/3 forbidden: "TODO", "lorem"');
  });

  it('respects case_sensitive', async () => {
    const r = await runJudge({ type: 'not_contains', expected: ['TODO'], case_sensitive: true }, ctx('todo later'));
    expect(r.passed).toBe(true);
  });
});

describe('regex judge', () => {
  it('passes on a match and says where', async () => {
    const r = await runJudge({ type: 'regex', pattern: 'v\\d+\\.\\d+' }, ctx('released v2.10 today'));
    expect(r).toMatchObject({ type: 'regex', passed: true, score: 1 });
    expect(r.reason).toContain('matched at offset 9: "v2.10"');
  });

  it('fails without a match', async () => {
    const r = await runJudge({ type: 'regex', pattern: '^v\\d' }, ctx('released v2'));
    expect(r).toMatchObject({ passed: false, score: 0 });
    expect(r.error).toBeUndefined();
    expect(r.reason).toContain('does not match');
  });

  it('honours flags (i, m, s)', async () => {
    expect((await runJudge({ type: 'regex', pattern: '^RELEASED$', flags: 'im' }, ctx('x\nreleased\ny'))).passed).toBe(true);
    expect((await runJudge({ type: 'regex', pattern: '^RELEASED$', flags: 'm' }, ctx('x\nreleased\ny'))).passed).toBe(false);
    expect((await runJudge({ type: 'regex', pattern: 'a.b', flags: 's' }, ctx('a\nb'))).passed).toBe(true);
    expect((await runJudge({ type: 'regex', pattern: 'a.b' }, ctx('a\nb'))).passed).toBe(false);
  });

  it('inverts with negate', async () => {
    const bad = await runJudge({ type: 'regex', pattern: 'password', negate: true }, ctx('the password is x'));
    expect(bad.passed).toBe(false);
    expect(bad.reason).toContain('must not match');
    const good = await runJudge({ type: 'regex', pattern: 'password', negate: true }, ctx('nothing secret'));
    expect(good.passed).toBe(true);
  });

  it('returns error for an invalid pattern or flag', async () => {
    const r = await runJudge({ type: 'regex', pattern: '(unclosed' }, ctx('x'));
    expect(r.passed).toBe(false);
    expect(r.error).toMatch(/invalid regex/);
    const g = await runJudge({ type: 'regex', pattern: 'x', flags: 'g' } as JudgeSpec, ctx('x'));
    expect(g.error).toMatch(/flags "g" not allowed/);
  });

  it('tests at most the first 1 MB of output', async () => {
    const big = 'a'.repeat(REGEX_MAX_INPUT) + 'NEEDLE';
    const r = await runJudge({ type: 'regex', pattern: 'NEEDLE' }, ctx(big));
    expect(r.passed).toBe(false);
    expect(r.reason).toContain(`tested the first ${REGEX_MAX_INPUT} of ${big.length} characters`);
  });
});

describe('equals judge', () => {
  it('trims both sides by default and is case-sensitive by default', async () => {
    expect((await runJudge({ type: 'equals', expected: ' 42 ' }, ctx('42\n'))).passed).toBe(true);
    const r = await runJudge({ type: 'equals', expected: 'Yes' }, ctx('yes'));
    expect(r).toMatchObject({ passed: false, score: 0 });
    expect(r.reason).toContain('differs at character 1');
  });

  it('ignores case when case_sensitive is false', async () => {
    expect((await runJudge({ type: 'equals', expected: 'Yes', case_sensitive: false }, ctx('YES'))).passed).toBe(true);
  });

  it('keeps whitespace when trim is false', async () => {
    const r = await runJudge({ type: 'equals', expected: '42', trim: false }, ctx('42\n'));
    expect(r.passed).toBe(false);
    expect(r.reason).toContain('1 extra characters');
  });

  it('says when the output stops early', async () => {
    const r = await runJudge({ type: 'equals', expected: 'line1\nline2' }, ctx('line1'));
    expect(r.reason).toContain('ends early');
  });
});
