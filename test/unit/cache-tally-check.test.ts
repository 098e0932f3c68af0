// A cache hit checks each cached tally by hand (checkTally) instead of with tallySchema: it must accept
// exactly what the schema accepts and return what the schema returns, or a damaged entry would be
// trusted (or a good one refused). Every case is judged against the schema itself.
import { describe, expect, it } from 'vitest';
import { checkTally, tallySchema } from '../../src/evaluation/cache.js';

const good = (): Record<string, unknown> => ({
  task_id: 't1',
  category: 'c',
  split: 'train',
  negative: false,
  critical: true,
  k: 1,
  judged: 1,
  passes: 1,
  errors: 0,
  timeouts: 0,
  bestScore: 1,
  reason: 'ok',
});

const variants: [string, (t: Record<string, unknown>) => void][] = [
  ['as written', () => undefined],
  ['no split', (t) => delete t.split],
  ['holdout split', (t) => (t.split = 'holdout')],
  ['an unknown split', (t) => (t.split = 'test')],
  ['an error message', (t) => (t.errorMessage = 'boom')],
  ['a numeric error message', (t) => (t.errorMessage = 3)],
  ['trigger counts', (t) => Object.assign(t, { shouldTrigger: true, triggered: 2 })],
  ['a string trigger count', (t) => (t.triggered = '2')],
  ['unjudged', (t) => Object.assign(t, { unjudged: true, ran: 1 })],
  ['no task_id', (t) => delete t.task_id],
  ['a numeric reason', (t) => (t.reason = 1)],
  ['a string k', (t) => (t.k = '1')],
  ['a null bestScore', (t) => (t.bestScore = null)],
  ['a string negative', (t) => (t.negative = 'false')],
  ['an unknown key', (t) => (t.extra = 1)],
  ['intent metrics', (t) => (t.intent = { cases: 1 })],
];

describe('cached tally check', () => {
  it.each(variants)('agrees with the schema on a tally with %s', (_name, change) => {
    const t = good();
    change(t);
    const viaSchema = tallySchema.safeParse(structuredClone(t));
    if (viaSchema.success) expect(checkTally(structuredClone(t))).toEqual(viaSchema.data);
    else expect(() => checkTally(structuredClone(t))).toThrow();
  });

  it.each([null, 'tally', 3, []])('refuses %j', (raw) => {
    expect(tallySchema.safeParse(raw).success).toBe(false);
    expect(() => checkTally(raw)).toThrow();
  });
});
