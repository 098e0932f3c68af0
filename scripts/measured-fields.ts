// What a sharded run must reproduce of the unsharded artifact: everything but the fields that differ between
// any two runs (ids, times, timings, concurrency, cache notes). Shared by the sharding tests and `npm run bench -- --shards N`,
// so the benchmark checks exactly what the tests check.
import { readFileSync } from 'node:fs';

/** The artifact without what may differ between runs: ids, times, timings and cache notes. */
export function measuredFields(file: string): Record<string, unknown> {
  const a = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  const drop = (o: Record<string, unknown> | undefined, keys: string[]) => keys.forEach((k) => o && delete o[k]);
  drop(a, ['run_id', 'created_at']);
  const evaluation = a['evaluation'] as Record<string, unknown> | undefined;
  for (const e of [evaluation, evaluation?.['baseline'], evaluation?.['candidate']]) {
    drop(e as Record<string, unknown> | undefined, ['cache', 'baseline_cache', 'candidate_cache', 'wall_ms', 'cpu_ms', 'latency_ms', 'resumed_attempts', 'concurrency']);
  }
  return a;
}

/** The first path (a.b[2].c) where two JSON values differ, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return path || '(root)';
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const sub = Array.isArray(a) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
    const d = firstDifference((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], sub);
    if (d !== undefined) return d;
  }
  return undefined;
}
