// What a large evaluation keeps for each task is stored once where it repeats (issue 15, src/core/strings.ts):
// a suite's categories, the reasons its tallies keep (run, merged from shards or read back from the cache), and the
// prompts, which must be strings of their own, not views into the parsed file. Equal strings look the same
// to JavaScript however they are stored, so these tests count the copies in a heap snapshot.
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeBenchSuite } from '../../scripts/bench-suite.js';
import { loadSuite } from '../../src/config/suite.js';
import type { Suite } from '../../src/config/suite-schema.js';
import { createMockEngine } from '../../src/engines/mock.js';
import { lookupBaseline, outcomeFromCache, storeBaseline, type CacheKeyParts } from '../../src/evaluation/cache.js';
import { runVariant, type VariantOutcome } from '../../src/evaluation/run-variant.js';
import { mergeOutcome } from '../../src/evaluation/merge-results.js';
import { detach, StringPool } from '../../src/core/strings.js';
import { readSkill } from '../../src/skill/read.js';
import { heapStrings, type HeapStrings } from '../support/heap-strings.js';
import { tempDir } from '../support/cli.js';

const N = 2000;
// The mock engine fails the pear tasks (half the suite) with this reason, built anew for each attempt.
const PEAR_REASON = 'contains: missing 1/1: "APPLE-OK"; regex: /\\d+-A/ does not match';
const PARTS: CacheKeyParts = { skill: 'sha256:s', suite: 'sha256:t', engine: { type: 'mock' }, judge_engine: null, pass_k: 1, task_timeout_ms: 1000 };

let suite: Suite;
let ran: VariantOutcome;
let cached: VariantOutcome;
let merged: VariantOutcome;
let heap: HeapStrings;

beforeAll(async () => {
  const dir = tempDir('whet-strings-');
  suite = loadSuite(writeBenchSuite(dir, N));
  const common = { suite, skill: readSkill(dir), engine: createMockEngine(), passK: 1, concurrency: 8 };
  const resultsFile = join(dir, 'results.jsonl');
  ran = await runVariant({ ...common, variant: 'baseline', resultsFile });
  merged = await mergeOutcome('baseline', suite.tasks, 1, [{ name: '1/1', file: resultsFile, tasks: new Set(suite.tasks.map((t) => t.id)), engineCalls: N, judgeCalls: 0 }]);
  const cacheDir = join(dir, 'cache');
  expect(await storeBaseline(cacheDir, 'k', PARTS, ran, new Date(0))).toBe(true);
  const found = lookupBaseline(cacheDir, 'k', 60_000, new Date(0));
  if (!found.hit) throw new Error(`cache miss: ${found.why}`);
  cached = outcomeFromCache(found.entry, 'baseline');
  heap = await heapStrings();
}, 60_000);

describe('strings a large evaluation keeps', () => {
  it('holds what it says it holds', () => {
    expect(suite.tasks).toHaveLength(N);
    expect(ran.tallies.filter((t) => t.reason === PEAR_REASON)).toHaveLength(N / 2);
    expect(cached.tallies.filter((t) => t.reason === PEAR_REASON && t.category === 'pears')).toHaveLength(N / 2);
    expect(merged.tallies.filter((t) => t.reason === PEAR_REASON)).toHaveLength(N / 2);
  });

  it('one string per category, not one per task', () => {
    expect(heap.copies('pears')).toBeLessThan(10);
  });

  it('one string per repeated reason, in run, merged and cached tallies alike', () => {
    // The run's, the merge's and the cache entry's tallies and their pools: a handful, against N / 2 per holder.
    expect(heap.copies(PEAR_REASON)).toBeLessThan(10);
  });

  it('prompts are strings of their own, never views into the suite text', () => {
    expect(suite.tasks[1]!.prompt).toBe('Question 1 about pears');
    expect(heap.views('Question ')).toBe(0);
  });
});

describe('what a large suite keeps per task', () => {
  it('no field it was not given (split alone waits for its assignment)', () => {
    const unset = suite.tasks.flatMap((t) => Object.entries(t).filter(([, v]) => v === undefined).map(([k]) => k));
    expect(new Set(unset)).toEqual(new Set(['split']));
  });
});

describe('detach and the pool', () => {
  it('detach copies any string exactly, lone surrogates and non-Latin text included', () => {
    for (const s of ['short', 'x'.repeat(40), 'Ünïcödé and more, past thirteen', '\ud800 a lone surrogate, long enough', 'emoji 😀 in a long enough string']) {
      expect(detach(s)).toBe(s);
    }
  });

  it('the pool hands back the first instance and stays bounded', () => {
    const pool = new StringPool(3);
    for (const s of ['a', 'b', 'a', 'c', 'b']) pool.intern(s);
    expect(pool.size).toBe(3);
    pool.intern('d');
    expect(pool.size).toBe(1);
    expect(pool.intern('d')).toBe('d');
  });
});
