// "Did you mean": the valid key nearest a misspelt one (`tresholds:` → `thresholds`), read from the zod
// schema the file was checked against, so the suggestions can never drift from what is accepted. Used
// only to word errors (load-yaml.ts); nothing here decides what is valid.
import type { z } from 'zod';

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def | undefined => (s as { _zod?: { def?: Def } } | undefined)?._zod?.def;

/** The schema with its wrappers (optional, default, pipe, lazy, …) taken off. */
function unwrap(schema: unknown): unknown {
  for (let s = schema, i = 0; i < 20; i++) {
    const def = defOf(s);
    if (!def) return s;
    if (def.innerType) s = def.innerType;
    else if (def.type === 'pipe') s = def.in;
    else if (def.type === 'lazy') s = (def.getter as () => unknown)();
    else return s;
  }
  return undefined;
}

/**
 * The object schemas that may hold `value` at this point: a union's options, narrowed by its
 * discriminator when the value writes one; both sides of an intersection.
 */
function objectsOf(schema: unknown, value: unknown): Def[] {
  const def = defOf(unwrap(schema));
  if (!def) return [];
  if (def.type === 'object') return [def];
  if (def.type === 'intersection') return [...objectsOf(def.left, value), ...objectsOf(def.right, value)];
  if (def.type !== 'union') return [];
  const options = def.options as unknown[];
  const disc = def.discriminator as string | undefined;
  const written = disc && value && typeof value === 'object' ? (value as Record<string, unknown>)[disc] : undefined;
  const matching = written === undefined ? [] : options.filter((o) => objectsOf(o, value).some((d) => literalValues((d.shape as Record<string, unknown>)[disc!]).includes(written)));
  return (matching.length ? matching : options).flatMap((o) => objectsOf(o, value));
}

function literalValues(schema: unknown): unknown[] {
  const def = defOf(unwrap(schema));
  return def?.type === 'literal' ? (def.values as unknown[]) : [];
}

/** The keys the schema accepts in the object at `path` of `root` (the value as written). */
export function keysAt(schema: z.ZodType, root: unknown, path: readonly (string | number)[]): string[] {
  let here: unknown[] = [schema];
  let value = root;
  for (const step of path) {
    const next: unknown[] = [];
    for (const s of here) {
      const def = defOf(unwrap(s));
      if (def?.type === 'array' && typeof step === 'number') next.push(def.element);
      else if (def?.type === 'record') next.push(def.valueType);
      else if (def?.type === 'tuple' && typeof step === 'number') next.push((def.items as unknown[])[step]);
      else for (const o of objectsOf(s, value)) if (typeof step === 'string' && (o.shape as Record<string, unknown>)[step]) next.push((o.shape as Record<string, unknown>)[step]);
    }
    here = next;
    value = value && typeof value === 'object' ? (value as Record<string | number, unknown>)[step] : undefined;
  }
  return [...new Set(here.flatMap((s) => objectsOf(s, value).flatMap((o) => Object.keys(o.shape as object))))];
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The candidate nearest `word`, when it is near enough to be a slip (a third of the word's letters at
 * most, and never more than 3); a different case or `-` for `_` counts as no slip at all.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/-/g, '_');
  const w = norm(word);
  // A tie goes to the candidate of the word's own length: `modle` is `model` with two letters swapped
  // more likely than `mode` with one added.
  let best: { key: string; d: number; len: number } | undefined;
  for (const c of candidates) {
    const d = distance(w, norm(c));
    const len = Math.abs(c.length - w.length);
    if (!best || d < best.d || (d === best.d && len < best.len)) best = { key: c, d, len };
  }
  if (!best) return undefined;
  return best.d <= Math.min(3, Math.max(1, Math.floor(w.length / 3))) ? best.key : undefined;
}
