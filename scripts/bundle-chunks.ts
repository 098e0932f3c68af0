// Which of the bundler's chunks to join (scripts/bundle.ts; issue 30: the package holds at most 150 files).
// Left to itself the bundler gives every distinct set of programs that share modules a chunk of its own:
// with five stage programs, `whet` and its lazily loaded command families that was ~180 files, half of them
// under 2 kB. The plan joins chunks only where no program pays for it in kind: a join may make a program
// (an entry or a dynamic import) load more code, but never a package, zod, a stage or a command it did not
// load before, never more than `maxExtraBytes` summed over the programs, and never so that two chunks
// import each other (a cycle among chunks can run a module before one it needs). The entries' own chunks
// are kept as they are (a dynamic import of a module inside a joined chunk would need a re-export file of
// its own, which saves nothing), and so is the bundler's runtime.

/** A chunk of a first bundling, as the bundler described it. */
export interface FirstChunk {
  file: string;
  entry: 'static' | 'dynamic' | undefined;
  /** Module ids, from the root. */
  modules: string[];
  /** Chunk files and packages it imports statically. */
  imports: string[];
  dynamicImports: string[];
  bytes: number;
}

export interface PlanOptions {
  /** The most code, in bytes summed over every program that would load more, one join may cost. */
  maxExtraBytes: number;
  /** What a program must not start to load through a join: its packages, `zod`, `stage:<name>`, … */
  tagsOf: (c: FirstChunk) => Iterable<string>;
}

/** A set of chunks, one bit each. */
class Bits {
  readonly w: Uint32Array;
  constructor(n: number, w?: Uint32Array) {
    this.w = w ?? new Uint32Array(Math.ceil(n / 32));
  }
  static of(n: number, items: Iterable<number>): Bits {
    const b = new Bits(n);
    for (const i of items) b.add(i);
    return b;
  }
  add(i: number): void {
    this.w[i >>> 5]! |= 1 << (i & 31);
  }
  has(i: number): boolean {
    return (this.w[i >>> 5]! & (1 << (i & 31))) !== 0;
  }
  or(o: Bits): Bits {
    return new Bits(0, this.w.map((x, i) => x | o.w[i]!));
  }
  and(o: Bits): Bits {
    return new Bits(0, this.w.map((x, i) => x & o.w[i]!));
  }
  minus(o: Bits): Bits {
    return new Bits(0, this.w.map((x, i) => x & ~o.w[i]!));
  }
  meets(o: Bits): boolean {
    return this.w.some((x, i) => (x & o.w[i]!) !== 0);
  }
  equals(o: Bits): boolean {
    return this.w.every((x, i) => x === o.w[i]);
  }
  items(): number[] {
    const out: number[] = [];
    this.w.forEach((x, k) => {
      for (let j = 0; x !== 0; j++, x >>>= 1) if (x & 1) out.push(k * 32 + j);
    });
    return out;
  }
}

/** Groups of first-pass chunk files, each to become one chunk; entry chunks and chunks left alone are not listed. */
export function chunkPlan(chunks: FirstChunk[], o: PlanOptions): string[][] {
  const n = chunks.length;
  const at = new Map(chunks.map((c, i) => [c.file, i]));
  const imports = chunks.map((c) => c.imports.flatMap((f) => (at.has(f) ? [at.get(f)!] : [])));
  const tags = chunks.map((c) => new Set(o.tagsOf(c)));
  const entries = chunks.flatMap((c, i) => (c.entry ? [i] : []));
  const all = Bits.of(n, chunks.keys());

  const groupOf = chunks.map((_, i) => i);
  const members: number[][] = chunks.map((_, i) => [i]);
  /** The chunks loading `seed` loads: what they import, and every chunk of a group any of them is in. */
  const closure = (seed: number[]): Bits => {
    const seen = new Bits(n);
    const todo = [...seed];
    while (todo.length > 0) {
      const c = todo.pop()!;
      if (seen.has(c)) continue;
      seen.add(c);
      todo.push(...imports[c]!, ...members[groupOf[c]!]!);
    }
    return seen;
  };

  // What each program loads as the bundler left it: its static closure, plus what was surely loaded before
  // its dynamic import ran (what every program that imports it loads), a greatest fixpoint.
  const own = new Map(entries.map((e) => [e, closure([e])]));
  const importers = new Map(entries.map((e) => [e, chunks.flatMap((c, i) => (c.dynamicImports.includes(chunks[e]!.file) ? [i] : []))]));
  const before = new Map(entries.map((e) => [e, chunks[e]!.entry === 'static' ? new Bits(n) : all]));
  const meet = (sets: Bits[]) => (sets.length === 0 ? new Bits(n) : sets.reduce((a, b) => a.and(b)));
  for (let changed = true; changed; ) {
    changed = false;
    for (const e of entries) {
      if (chunks[e]!.entry === 'static') continue;
      const sure = meet(importers.get(e)!.map((i) => meet(entries.filter((p) => own.get(p)!.has(i)).map((p) => own.get(p)!.or(before.get(p)!)))));
      if (!sure.equals(before.get(e)!)) (before.set(e, sure), (changed = true));
    }
  }
  // Per program, the chunks it must never come to load: those with a tag none of its chunks has.
  const forbidden = new Map(
    entries.map((e) => {
      const allowed = new Set(own.get(e)!.or(before.get(e)!).items().flatMap((c) => [...tags[c]!]));
      return [e, Bits.of(n, [...chunks.keys()].filter((c) => [...tags[c]!].some((t) => !allowed.has(t))))];
    }),
  );

  // The bundler's own helpers (`\0rolldown/runtime.js`) it places in a file of its own whatever the groups say.
  const fixed = (g: number) => chunks[g]!.entry !== undefined || chunks[g]!.modules.every((m) => m.startsWith('\0'));
  const bytes = (set: Iterable<number>) => [...set].reduce((s, c) => s + chunks[c]!.bytes, 0);
  /** Whether a path runs from group a to group b through some third group: joining them would close a cycle. */
  const through = (a: number, b: number): boolean => {
    const next = (g: number) => new Set(members[g]!.flatMap((c) => imports[c]!.map((i) => groupOf[i]!)));
    const seen = new Set<number>();
    const todo = [...next(a)].filter((g) => g !== a && g !== b);
    while (todo.length > 0) {
      const g = todo.pop()!;
      if (g === b) return true;
      if (seen.has(g)) continue;
      seen.add(g);
      for (const h of next(g)) if (h !== a) todo.push(h);
    }
    return false;
  };

  // Each round joins the cheapest pair of groups: what costs nothing first, then what costs least.
  for (;;) {
    const open = [...new Set(groupOf)].filter((g) => !fixed(g));
    const reach = new Map(open.map((g) => [g, closure(members[g]!)]));
    const held = new Map(open.map((g) => [g, Bits.of(n, members[g]!)]));
    const loads = entries.map((e) => closure([e]).or(before.get(e)!));
    const size = new Map(open.map((g) => [g, bytes(members[g]!)]));
    const pairs: { g: number; h: number; cost: number }[] = [];
    for (const [i, g] of open.entries()) {
      for (const h of open.slice(i + 1)) {
        const joined = reach.get(g)!.or(reach.get(h)!);
        const touched = held.get(g)!.or(held.get(h)!);
        let cost = 0;
        for (const [k, e] of entries.entries()) {
          if (!loads[k]!.meets(touched)) continue;
          const extra = joined.minus(loads[k]!);
          if (extra.meets(forbidden.get(e)!)) {
            cost = Infinity;
            break;
          }
          cost += bytes(extra.items());
        }
        if (cost !== Infinity && cost <= o.maxExtraBytes) pairs.push({ g, h, cost });
      }
    }
    pairs.sort((x, y) => x.cost - y.cost || size.get(x.g)! + size.get(x.h)! - size.get(y.g)! - size.get(y.h)!);
    const pick = pairs.find(({ g, h }) => !through(g, h) && !through(h, g));
    if (!pick) break;
    for (const c of members[pick.h]!) groupOf[c] = pick.g;
    members[pick.g]!.push(...members[pick.h]!);
    members[pick.h] = [];
  }
  return [...new Set(groupOf)].filter((g) => !fixed(g) && members[g]!.length > 1).map((g) => members[g]!.map((c) => chunks[c]!.file));
}
