// The quick row check writeArtifact uses for long arrays: whenever it answers, zod accepts the row and
// outputs exactly the same thing (bytes included: key order, dropped keys); whenever zod refuses, it leaves
// the row to zod; and a schema it does not understand gets no quick check at all.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { taskResult } from '../../src/artifacts/evaluation.js';
import { flatCheckOf } from '../../src/core/flat-check.js';
import { tallySchema } from '../../src/evaluation/cache.js';
import { taskSchema } from '../../src/config/suite-schema.js';

const row = {
  task_id: 't1',
  passed: true,
  score: 0.5,
  status: 'pass',
  category: 'apples',
  split: 'holdout',
  negative: true,
  critical: false,
  attempts: 3,
  passes: 2,
  errors: 0,
  reason: 'contains: found "x"',
};

class Row {
  task_id = 't';
}

/** Variants of a row: every field made wrong in several ways, dropped, set undefined, extra keys, reordered. */
function variants(): unknown[] {
  const out: unknown[] = [row, { ...row, split: undefined }, null, [], 'row', 42, new Row(), Object.create(null)];
  const { split: _s, negative: _n, critical: _c, ...required } = row;
  out.push(required, { extra: 1, ...row }, { ...row, extra: { deep: true } }, Object.fromEntries(Object.entries(row).reverse()));
  const wrong: unknown[] = [undefined, null, '', 'x', 'pass', 'holdout', 0, -0, 1, 1.5, -3, NaN, Infinity, -Infinity, 2 ** 53, true, false, {}, [], 1n];
  for (const key of Object.keys(row)) {
    const { [key]: _drop, ...without } = row as Record<string, unknown>;
    out.push(without);
    for (const w of wrong) out.push({ ...row, [key]: w });
  }
  const withGetter = { ...row };
  Object.defineProperty(withGetter, 'score', { get: () => 0.25, enumerable: true });
  out.push(withGetter);
  return out;
}

describe('flatCheckOf', () => {
  const quick = flatCheckOf(taskResult)!;

  it('understands the task result row', () => expect(quick).toBeTypeOf('function'));

  it('answers only what zod accepts, with zod’s exact output; everything else goes to zod', () => {
    let answered = 0;
    let deferred = 0;
    for (const v of variants()) {
      const mine = quick(v);
      const theirs = taskResult.safeParse(v);
      if (mine === undefined) {
        deferred++;
        continue;
      }
      answered++;
      expect(theirs.success, JSON.stringify(v)).toBe(true);
      expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs.data));
      expect(Object.keys(mine)).toEqual(Object.keys(theirs.data!));
    }
    // Both sides were exercised: plain valid rows answered, the broken ones deferred.
    expect(answered).toBeGreaterThan(30);
    expect(deferred).toBeGreaterThan(100);
    // Every valid row of the plain shape is answered, not deferred.
    expect(quick(row)).toEqual(taskResult.parse(row));
    expect(quick({ ...row, score: 1, attempts: 0 })).toBeDefined();
  });

  it('gives no quick check for a schema with anything it does not understand', () => {
    const schemas: z.ZodType[] = [
      z.object({ a: z.string().trim() }),
      z.object({ a: z.string().email() }),
      z.object({ a: z.number().multipleOf(2) }),
      z.object({ a: z.boolean().refine((b) => b) }),
      z.object({ a: z.object({ b: z.string() }) }),
      z.object({ a: z.array(z.string()) }),
      z.object({ a: z.string().transform((s) => s.length) }),
      z.object({ a: z.coerce.number() }),
      z.object({ a: z.string().nullable() }),
      z.object({ a: z.literal('x') }),
      z.object({ a: z.string() }).passthrough(),
      z.object({ a: z.string() }).catchall(z.number()),
      z.object({ a: z.string() }).refine((o) => o.a !== 'b'),
      z.array(z.string()),
      z.string(),
    ];
    for (const s of schemas) expect(flatCheckOf(s)).toBeUndefined();
    expect(flatCheckOf(z.object({ a: z.string(), b: z.enum(['x', 'y']).optional(), c: z.number().int() }))).toBeTypeOf('function');
  });

  it('leaves only the rows that have an optional field it cannot read to zod', () => {
    const schema = z.object({ a: z.string(), deep: z.object({ n: z.number() }).optional() });
    const quick = flatCheckOf(schema)!;
    expect(quick).toBeTypeOf('function');
    expect(quick({ a: 'x' })).toEqual({ a: 'x' });
    expect(quick({ a: 'x', deep: { n: 1 } })).toBeUndefined();
    expect(quick({ a: 'x', deep: 'not an object' })).toBeUndefined();
    // The cached tally: plain ones answered, one with intent metrics left to the schema.
    const tally = flatCheckOf(tallySchema)!;
    const plain = { task_id: 't', category: 'c', negative: false, critical: false, k: 1, judged: 1, passes: 1, errors: 0, timeouts: 0, bestScore: 1, reason: 'ok' };
    expect(tally(plain)).toEqual(tallySchema.parse(plain));
    expect(tally({ ...plain, intent: { cases: 1 } })).toBeUndefined();
  });

  it("answers a suite's tasks as zod does: strict, with lengths, regexes and bounds run by zod's own checks", () => {
    // The suite reader's task schema with the judge fields left to it (suite-slices.ts judgesOnce).
    const rest = taskSchema.extend({ judge: z.unknown().optional(), judges: z.unknown().optional() });
    const quick = flatCheckOf(rest)!;
    expect(quick).toBeTypeOf('function');
    const task = { id: 't-1.a_b', prompt: 'Say hi', category: 'apples', split: 'holdout', pass_k: 3, timeout_seconds: 1.5, negative: false, judges: [{ type: 'contains', expected: ['hi'] }] };
    const wrong: unknown[] = [undefined, null, '', ' ', '-x', 'x'.repeat(128), 'x'.repeat(129), 'é', '😀', 'a b', 0, -1, 0.5, 1, 1.5, 3, 100, 101, 2 ** 53, NaN, Infinity, true, 'train', 'holdout', {}, []];
    const values: unknown[] = [task, { id: 'x', prompt: 'p' }, { ...task, extra: 1 }, { ...task, cell: { a: 'b' } }, { ...task, unjudged: true }, Object.fromEntries(Object.entries(task).reverse())];
    for (const key of ['id', 'prompt', 'category', 'split', 'pass_k', 'timeout_seconds', 'negative', 'system', 'description', 'judge']) for (const w of wrong) values.push({ ...task, [key]: w });
    let answered = 0;
    for (const v of values) {
      const mine = quick(v);
      const theirs = rest.safeParse(v);
      if (mine === undefined) continue;
      answered++;
      expect(theirs.success, JSON.stringify(v)).toBe(true);
      expect(JSON.stringify(mine)).toBe(JSON.stringify(theirs.data));
      expect(Object.keys(mine)).toEqual(Object.keys(theirs.data!));
    }
    expect(answered).toBeGreaterThan(40);
    // A strict object's unknown key, and an optional field it cannot read, go to the schema.
    expect(quick({ ...task, extra: 1 })).toBeUndefined();
    expect(quick({ ...task, cell: { a: 'b' } })).toBeUndefined();
    expect(quick(task)).toEqual(rest.parse(task));
  });

  it('runs string lengths as zod counts them (code points) and bounds as zod compares them', () => {
    const schema = z.strictObject({ s: z.string().min(2).max(3), n: z.number().int().min(1).max(100), p: z.number().positive().lt(1) });
    const quick = flatCheckOf(schema)!;
    expect(quick).toBeTypeOf('function');
    for (const s of ['a', 'ab', 'abc', 'abcd', '😀', '😀😀', '😀😀😀', '😀😀😀😀', 'a😀']) {
      for (const n of [0, 1, 50.5, 100, 101]) {
        for (const p of [0, 0.5, 1]) {
          const v = { s, n, p };
          const theirs = schema.safeParse(v);
          // Answered exactly when zod accepts, with zod's output.
          expect(quick(v), JSON.stringify(v)).toEqual(theirs.success ? theirs.data : undefined);
        }
      }
    }
  });
});
