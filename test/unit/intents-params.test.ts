// How expected parameter values are compared: plain values, placeholders (never literal), matchers.
import { describe, expect, it } from 'vitest';
import { checkParams, isPlaceholder, matcherProblems, matchValue } from '../../src/config/intent-params.js';

const ok = (e: unknown, a: unknown) => matchValue(e, a).ok;

describe('plain values', () => {
  it('strings: NFKC, trimmed, case-insensitive', () => {
    expect(ok('Staging', ' staging ')).toBe(true);
    expect(ok('ＰＡＹ', 'pay')).toBe(true); // full-width letters
    expect(ok('staging', 'production')).toBe(false);
  });
  it('numbers and booleans keep their JSON type', () => {
    expect(ok(3, 3.0)).toBe(true);
    expect(ok(3, '3')).toBe(false);
    expect(ok('3', 3)).toBe(false);
    expect(ok(true, 'true')).toBe(false);
    expect(ok(null, null)).toBe(true);
    expect(ok(null, undefined)).toBe(false);
  });
  it('arrays in order; objects by exact key set; matchers nest', () => {
    expect(ok(['a', 'b'], ['A', 'b'])).toBe(true);
    expect(ok(['a', 'b'], ['b', 'a'])).toBe(false);
    expect(ok(['a'], ['a', 'b'])).toBe(false);
    expect(ok({ x: 1, y: '<any>' }, { x: 1, y: 'z' })).toBe(true);
    expect(ok({ x: 1 }, { x: 1, y: 2 })).toBe(false);
    expect(matchValue({ x: 1 }, { x: 2 }).why).toBe('.x: different value');
  });
});

describe('placeholders are never compared literally', () => {
  it.each(['<the plan from the last turn>', '{{previous.plan_id}}', '${today}', '<上一轮的计划>'])('%s accepts any non-empty value', (p) => {
    expect(isPlaceholder(p)).toBe(true);
    expect(ok(p, 'PLAN-7')).toBe(true);
    expect(ok(p, 42)).toBe(true);
    expect(ok(p, p)).toBe(true);
    expect(ok(p, '')).toBe(false);
    expect(ok(p, '   ')).toBe(false);
    expect(ok(p, null)).toBe(false);
    expect(ok(p, [])).toBe(false);
  });
  it('text that merely contains angle brackets is plain', () => {
    expect(isPlaceholder('a <b> c')).toBe(false);
    expect(ok('a <b> c', 'anything')).toBe(false);
  });
  it('a placeholder still needs the key to be sent', () => {
    expect(checkParams({ summary: '<anything>' }, {})).toEqual([{ key: 'summary', expected: '<anything>', actual: undefined, present: false, ok: false, why: 'not sent' }]);
  });
  it('$literal compares a placeholder-looking string as text', () => {
    expect(ok({ $literal: '<b>' }, '<b>')).toBe(true);
    expect(ok({ $literal: '<b>' }, 'x')).toBe(false);
    expect(ok({ $literal: { $any: true } }, { $any: true })).toBe(true);
  });
});

describe('matchers', () => {
  it('$any', () => {
    expect(ok({ $any: true }, 'x')).toBe(true);
    expect(ok({ $any: true }, {})).toBe(false);
  });
  it('$pattern searches text (numbers as text), with optional flags', () => {
    expect(ok({ $pattern: 'payment confirm' }, 'Payment confirmations failing')).toBe(false);
    expect(ok({ $pattern: 'payment confirm', $flags: 'i' }, 'Payment confirmations failing')).toBe(true);
    expect(ok({ $pattern: '^4\\d\\d$' }, 418)).toBe(true);
    expect(ok({ $pattern: 'x' }, ['x'])).toBe(false);
  });
  it('$oneOf', () => {
    expect(ok({ $oneOf: ['staging', 'qa'] }, 'QA')).toBe(true);
    expect(ok({ $oneOf: ['staging', { $pattern: '^prod' }] }, 'production')).toBe(true);
    expect(ok({ $oneOf: ['staging'] }, 'production')).toBe(false);
  });
  it('$absent passes only when the key is not sent', () => {
    expect(checkParams({ version: { $absent: true } }, {})[0]!.ok).toBe(true);
    expect(checkParams({ version: { $absent: true } }, { version: 'latest' })[0]!.ok).toBe(false);
  });
  it('checkParams checks only the listed keys', () => {
    const checks = checkParams({ a: 1 }, { a: 1, extra: 'ignored' });
    expect(checks).toHaveLength(1);
    expect(checks[0]!.ok).toBe(true);
  });
});

describe('matcherProblems (load-time checks)', () => {
  it('accepts every documented form', () => {
    expect(matcherProblems({ a: { $any: true }, b: { $pattern: 'x', $flags: 'i' }, c: { $oneOf: [1, { $any: true }] }, d: { $absent: true }, e: { $literal: '<x>' }, f: '<x>', g: [{ $any: true }] })).toEqual([]);
  });
  it('rejects unknown matchers, mixed keys, bad regexes and misplaced flags', () => {
    expect(matcherProblems({ a: { $regex: 'x' } })[0]).toMatch(/\.a: unknown matcher \$regex/);
    expect(matcherProblems({ a: { $any: true, b: 1 } })[0]).toMatch(/mixes matcher keys/);
    expect(matcherProblems({ a: { $pattern: '(' } })[0]).toMatch(/not a valid regular expression/);
    expect(matcherProblems({ a: { $flags: 'i' } })[0]).toMatch(/\$flags goes with \$pattern/);
    expect(matcherProblems({ a: { $oneOf: [] } })[0]).toMatch(/non-empty list/);
    expect(matcherProblems({ a: { $any: 1 } })[0]).toMatch(/write \{"\$any": true\}/);
  });
});
