// The order of an evaluation's per-category and per-split rates: localeCompare's, whether the names take
// the quick comparison (lower-case letters and digits) or localeCompare itself.
import { describe, expect, it } from 'vitest';
import { byName, summarizeVariant } from '../../src/evaluation/summary.js';
import type { VariantOutcome } from '../../src/evaluation/run-variant.js';

/** A seeded generator of names (mulberry32): the same names on every run. */
function names(seed: number, n: number, alphabet: string): string[] {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Array.from({ length: n }, () => Array.from({ length: Math.floor(next() * 7) }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''));
}

describe('category and split names', () => {
  it('sort as localeCompare sorts them, plain or not', () => {
    for (const alphabet of ['abcxyz0189', 'abcXYZ-_09 éü']) {
      const list = names(alphabet.length, 400, alphabet);
      const signs = (cmp: (a: string, b: string) => number) => list.flatMap((a) => list.slice(0, 40).map((b) => Math.sign(cmp(a, b))));
      expect(signs(byName)).toEqual(signs((a, b) => a.localeCompare(b)));
    }
  });

  it("order an evaluation's per-category rates by name", () => {
    const tally = (category: string, i: number) => ({ task_id: `t${i}`, category, split: i % 2 ? 'holdout' : 'train', judged: 1, passes: 1, errors: 0, timeouts: 0 });
    const tallies = ['zeta', 'Beta', 'alpha2', 'alpha10', 'édition', 'b-side'].map(tally);
    const o = { tallies, durationsMs: [], usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0, cost_reported: false }, engineCalls: 6, judgeCalls: 0, resumedAttempts: 0, wallMs: 1 } as unknown as VariantOutcome;
    const s = summarizeVariant(o, 1);
    expect(Object.keys(s.per_category)).toEqual(tallies.map((t) => t.category).sort((a, b) => a.localeCompare(b)));
    expect(Object.keys(s.per_split)).toEqual(['holdout', 'train']);
  });
});
