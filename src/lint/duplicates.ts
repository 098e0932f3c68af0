// Near-duplicate prompts: "100 random questions" yields duplicates (docs/method.md: Building a suite on a grid), and two copies of
// one case count its result twice. Similarity is the Jaccard index of the prompts' word sets (order-free,
// so a reordered or lightly reworded copy is still caught). All pairs at or above the threshold are found
// without comparing every pair, by prefix filtering (Chaudhuri, Ganti & Kaushik 2006; Bayardo, Ma &
// Srikant 2007, "Scaling up all pairs similarity search"): J(x, y) ≥ t implies |x ∩ y| ≥ ⌈t·max(|x|,|y|)⌉,
// so with tokens in one global order (rarest first) the first |s| − ⌈t·|s|⌉ + 1 tokens of the two sets
// must share a token. Only pairs sharing a prefix token are verified; the result is exact.
import type { Finding, Rule } from './types.js';
import { placeLabel, taskPlace } from './types.js';
import { words } from './text.js';

export interface SimilarPair {
  /** Indexes into the input list, a < b. */
  a: number;
  b: number;
  similarity: number;
}

export function jaccard(x: ReadonlySet<string>, y: ReadonlySet<string>): number {
  if (x.size === 0 && y.size === 0) return 1;
  let inter = 0;
  const [small, big] = x.size <= y.size ? [x, y] : [y, x];
  for (const t of small) if (big.has(t)) inter++;
  return inter / (x.size + y.size - inter);
}

/** Every pair of texts whose word sets have Jaccard similarity ≥ threshold (texts with no words are skipped). */
export function similarPairs(texts: readonly string[], threshold: number): SimilarPair[] {
  const sets = texts.map((t) => new Set(words(t)));
  const freq = new Map<string, number>();
  for (const s of sets) for (const tok of s) freq.set(tok, (freq.get(tok) ?? 0) + 1);
  const order = (a: string, b: string) => freq.get(a)! - freq.get(b)! || (a < b ? -1 : a > b ? 1 : 0);
  const sorted = sets.map((s) => [...s].sort(order));
  // Smaller sets first, so each probe only meets sets no larger than itself.
  const bySize = sets.map((_, i) => i).filter((i) => sets[i]!.size > 0).sort((i, j) => sets[i]!.size - sets[j]!.size || i - j);
  const index = new Map<string, number[]>();
  const out: SimilarPair[] = [];
  // The epsilon keeps ⌈0.9·10⌉ at 9 despite 0.9·10 being 9.000000000000002; a longer prefix is always safe.
  const prefixLen = (n: number) => n - Math.ceil(threshold * n - 1e-9) + 1;
  for (const i of bySize) {
    const x = sets[i]!;
    const prefix = sorted[i]!.slice(0, prefixLen(x.size));
    const candidates = new Set<number>();
    for (const tok of prefix) for (const j of index.get(tok) ?? []) candidates.add(j);
    for (const j of candidates) {
      const y = sets[j]!;
      if (y.size < threshold * x.size - 1e-9) continue;
      const sim = jaccard(x, y);
      if (sim >= threshold - 1e-12) out.push({ a: Math.min(i, j), b: Math.max(i, j), similarity: sim });
    }
    for (const tok of prefix) {
      const list = index.get(tok);
      if (list) list.push(i);
      else index.set(tok, [i]);
    }
  }
  return out.sort((p, q) => p.b - q.b || p.a - q.a);
}

export const duplicatesRule: Rule = (ctx) => {
  const tasks = ctx.suite.tasks;
  const out: Finding[] = [];
  for (const p of similarPairs(tasks.map((t) => t.prompt), ctx.options.similarity)) {
    const first = tasks[p.a]!;
    const second = tasks[p.b]!;
    const how = p.similarity === 1 ? 'has the same words as' : `is ${p.similarity.toFixed(2)} similar to`;
    const at = taskPlace(ctx, second);
    out.push({
      ...at,
      severity: 'warning',
      rule: 'duplicate-prompt',
      task: second.id,
      message: `prompt of "${second.id}" ${how} "${first.id}" (${placeLabel(at, taskPlace(ctx, first))})`,
      hint: 'a copy counts one case twice: drop it, or make it a different case (another cell, persona or edge)',
    });
  }
  return out;
};
