// The order of an evaluation's per-category and per-split rates: localeCompare's, in the process's own
// locale (a name's place is the user's alphabet's, so "chyby" follows "hotovo" in Czech).
import { describe, expect, it } from 'vitest';
import { summarizeVariant } from '../../src/evaluation/summary.js';
import type { VariantOutcome } from '../../src/evaluation/run-variant.js';

describe('category and split names', () => {
  it("order an evaluation's per-category rates by name", () => {
    const tally = (category: string, i: number) => ({ task_id: `t${i}`, category, split: i % 2 ? 'holdout' : 'train', judged: 1, passes: 1, errors: 0, timeouts: 0 });
    const tallies = ['zeta', 'Beta', 'alpha2', 'alpha10', 'édition', 'b-side'].map(tally);
    const o = { tallies, durationsMs: [], usage: { input_tokens: 0, output_tokens: 0, cost_usd: 0, cost_reported: false }, engineCalls: 6, judgeCalls: 0, resumedAttempts: 0, wallMs: 1 } as unknown as VariantOutcome;
    const s = summarizeVariant(o, 1);
    expect(Object.keys(s.per_category)).toEqual(tallies.map((t) => t.category).sort((a, b) => a.localeCompare(b)));
    expect(Object.keys(s.per_split)).toEqual(['holdout', 'train']);
  });
});
