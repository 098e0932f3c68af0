// The baseline cache (docs/concepts/state-directory.md: Baseline cache). The key covers everything that changes a baseline's
// results — the skill's bytes and resources, the suite's content and fixture files, the engine's and the
// judge engine's configuration, pass-k, the default task timeout — plus a format version. Entries carry
// their creation time; a lookup older than the TTL is a miss. Results with any error are never stored.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { StringPool } from '../core/strings.js';
import { canonicalJson, sha256 } from '../state/artifact-io.js';
import { flatCheckOf } from '../core/flat-check.js';
import { writeJsonAtomically } from '../core/atomic.js';
import { ONCE } from '../core/parse-once.js';
import type { TaskTally, UsageTotals } from './aggregate.js';
import { intentMetricSetSchema } from '../intents/intent-metrics.js';
import type { VariantOutcome } from './run-variant.js';

export const CACHE_FORMAT = 'whetstone.baseline-cache/1';

export interface CacheKeyParts {
  skill: string;
  suite: string;
  engine: Record<string, unknown>;
  judge_engine: Record<string, unknown> | null;
  pass_k: number;
  task_timeout_ms: number;
  /** A later round of held-out attempts (absent for the first measurement, so its keys are unchanged). */
  round?: number;
}

export function baselineCacheKey(parts: CacheKeyParts): string {
  return sha256(canonicalJson({ format: CACHE_FORMAT, ...parts })).slice('sha256:'.length);
}

export const tallySchema = z.object({
  task_id: z.string(),
  category: z.string(),
  split: z.enum(['train', 'holdout']).optional(),
  negative: z.boolean(),
  critical: z.boolean(),
  k: z.number(),
  judged: z.number(),
  passes: z.number(),
  errors: z.number(),
  timeouts: z.number(),
  bestScore: z.number(),
  reason: z.string(),
  errorMessage: z.string().optional(),
  shouldTrigger: z.boolean().optional(),
  triggered: z.number().optional(),
  /** Kept so a cached baseline still reports its intent metrics. */
  intent: intentMetricSetSchema.optional(),
  unjudged: z.boolean().optional(),
  ran: z.number().optional(),
});

export const headerSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  key: z.string(),
  created_at: z.iso.datetime(),
  parts: z.record(z.string(), z.unknown()),
  tallies: z.array(z.unknown()),
  /** Tasks run but not graded (kept apart from `tallies`, as in VariantOutcome). */
  unjudged: z.array(tallySchema).optional(),
  usage: z.object({ input_tokens: z.number(), output_tokens: z.number(), cost_usd: z.number(), cost_reported: z.boolean() }),
  durations_ms: z.array(z.number()),
});
export type CacheEntry = Omit<z.infer<typeof headerSchema>, 'tallies'> & { tallies: z.infer<typeof tallySchema>[] };

export type CacheLookup = { hit: true; entry: CacheEntry; ageMs: number } | { hit: false; why: 'absent' | 'expired' | 'unreadable' | 'disabled' };

export function lookupBaseline(dir: string, key: string, ttlMs: number, now: Date): CacheLookup {
  const file = join(dir, `${key}.json`);
  if (!existsSync(file)) return { hit: false, why: 'absent' };
  let entry: CacheEntry;
  try {
    entry = parseEntry(readFileSync(file, 'utf8'));
  } catch {
    return { hit: false, why: 'unreadable' };
  }
  if (entry.key !== key) return { hit: false, why: 'unreadable' };
  const ageMs = now.getTime() - Date.parse(entry.created_at);
  if (ageMs > ttlMs || ageMs < 0) return { hit: false, why: 'expired' };
  return { hit: true, entry, ageMs };
}

/**
 * Validates an entry as strictly as one schema would, but each tally replaces its raw self in place: a
 * whole-entry parse would hold the raw tallies and their validated copies at once (two per task).
 */
function parseEntry(text: string): CacheEntry {
  const raw = JSON.parse(text) as { tallies?: unknown };
  const tallies = Array.isArray(raw.tallies) ? raw.tallies : undefined;
  if (tallies) raw.tallies = [];
  const head = headerSchema.parse(raw, ONCE);
  if (!tallies) throw new Error('cache entry without tallies');
  // JSON.parse makes a string per value: the few distinct categories and reasons, shared again.
  const strings = new StringPool();
  for (let i = 0; i < tallies.length; i++) {
    const t = checkTally(tallies[i]);
    t.category = strings.intern(t.category);
    t.reason = strings.intern(t.reason);
    tallies[i] = t;
  }
  return { ...head, tallies: tallies as CacheEntry['tallies'] };
}

/**
 * One cached tally, accepted exactly when tallySchema accepts it and returned as the schema returns it.
 * The schema-derived quick check (src/core/flat-check.ts) takes the plain ones: the schema's parse of
 * every tally was most of a cache hit's cost beyond reading the suite. The rest (intent metrics, anything
 * odd) go through the schema itself.
 */
export function checkTally(raw: unknown): z.infer<typeof tallySchema> {
  return (flatCheckOf(tallySchema)?.(raw) as z.infer<typeof tallySchema> | undefined) ?? tallySchema.parse(raw);
}

/** Stores a complete, error-free baseline; returns false (and stores nothing) otherwise. */
export async function storeBaseline(dir: string, key: string, parts: CacheKeyParts, o: VariantOutcome, now: Date): Promise<boolean> {
  if (o.interrupted || o.tallies.some((t) => t.errors > 0 || t.judged < t.k) || o.unjudged?.some((t) => t.errors > 0 || (t.ran ?? 0) < t.k)) return false;
  const entry: CacheEntry = {
    format: CACHE_FORMAT,
    key,
    created_at: now.toISOString(),
    parts: parts as unknown as Record<string, unknown>,
    tallies: o.tallies,
    ...(o.unjudged?.length ? { unjudged: o.unjudged } : {}),
    usage: o.usage,
    durations_ms: o.durationsMs,
  };
  // Compact: only whetstone reads it, and indentation alone made it a third bigger to build and parse.
  await writeJsonAtomically(join(dir, `${key}.json`), entry, 0);
  return true;
}

/** A cached baseline seen as an outcome of this run: no calls were made for it. */
export function outcomeFromCache(entry: CacheEntry, variant: string): VariantOutcome {
  return {
    variant,
    tallies: entry.tallies as TaskTally[],
    ...(entry.unjudged?.length ? { unjudged: entry.unjudged as TaskTally[] } : {}),
    engineCalls: 0,
    judgeCalls: 0,
    resumedAttempts: 0,
    usage: entry.usage as UsageTotals,
    durationsMs: entry.durations_ms,
    interrupted: false,
    wallMs: 0,
  };
}
