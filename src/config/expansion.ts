// Bounds on what a YAML or JSON input may make of itself (issue 42). An alias bomb — nine anchors each a
// list of nine aliases of the one before — is a few hundred bytes that parse (js-yaml and yaml both keep
// an alias as one shared value), then grows to 9^9 nodes wherever the value is walked as a tree: hashing
// a json judge's inline `schema` took 29 s and 1.9 GB and ended in "RangeError: Invalid string length".
// So a parsed value is weighed as the tree it stands for — every node, and every string's characters, as
// often as aliases repeat them — computed once per shared node, and refused when it outweighs its text by
// far; an alias that names its own ancestor (a cycle: no tree at all) is refused too. A file larger than
// MAX_INPUT_BYTES is refused before it is read.
import type { Document, LineCounter, Node } from 'yaml';
import { ConfigError } from '../core/errors.js';
import { yaml } from './locate.js';

/** A suite, config or label file larger than this is refused unread (a 100,000-task suite is ~20 MB). */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** What aliases may add to a document's tree, beyond a few times its own text. */
export const MAX_EXPANSION = 4_000_000;

/** The weight a document of `textLength` characters may have, aliases expanded. */
export const expansionLimit = (textLength: number) => MAX_EXPANSION + 4 * textLength;

const CYCLE = Number.POSITIVE_INFINITY;

/**
 * The tree weight of a parsed value (nodes plus string characters, shared values counted each time they
 * appear), computed iteratively with one visit per shared value; stops early once over `limit`.
 * Infinity for a cycle.
 */
export function treeWeight(value: unknown, limit: number): number {
  const memo = new Map<object, number>();
  const onPath = new Set<object>();
  const stack: { node: object; kids: unknown[]; i: number; sum: number }[] = [];
  const leaf = (v: unknown) => (typeof v === 'string' ? 1 + v.length : 1);
  if (!value || typeof value !== 'object') return leaf(value);
  const open = (node: object) => {
    onPath.add(node);
    stack.push({ node, kids: Array.isArray(node) ? node : [...Object.keys(node), ...Object.values(node)], i: 0, sum: 1 });
  };
  open(value);
  let result = 0;
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    if (top.sum > limit) return top.sum;
    if (top.i < top.kids.length) {
      const k = top.kids[top.i++];
      if (!k || typeof k !== 'object') top.sum += leaf(k);
      else if (onPath.has(k)) return CYCLE;
      else if (memo.has(k)) top.sum += memo.get(k)!;
      else open(k);
      continue;
    }
    stack.pop();
    onPath.delete(top.node);
    memo.set(top.node, top.sum);
    if (stack.length) stack[stack.length - 1]!.sum += top.sum;
    else result = top.sum;
  }
  return result;
}

/** Whether `value`, parsed from `text`, expands past what its text can hold as a tree. */
export function overExpanded(value: unknown, textLength: number): boolean {
  if (!value || typeof value !== 'object') return false;
  return treeWeight(value, expansionLimit(textLength)) > expansionLimit(textLength);
}

/**
 * The refusal, at the alias that expands the most (the first such in the file): its own weight is what
 * a reader of the line can act on. `tree` builds yaml's located document (no alias is expanded by it).
 */
export function aliasBomb(textLength: number, shown: string, tree: () => { doc: Document; lc: LineCounter }): ConfigError {
  const { doc, lc } = tree();
  const { isAlias, isMap, isPair, isScalar, isSeq, visit } = yaml();
  const memo = new Map<Node, number>();
  const onPath = new Set<Node>();
  // Recursion is safe here: the document passed the nesting check, and each node is weighed once.
  const weigh = (n: unknown): number => {
    if (isScalar(n)) return 1 + (typeof n.value === 'string' ? n.value.length : 0);
    if (isAlias(n)) {
      const target = n.resolve(doc);
      return target ? weigh(target) : 1;
    }
    if (!isMap(n) && !isSeq(n)) return 1;
    if (onPath.has(n)) return CYCLE;
    const known = memo.get(n);
    if (known !== undefined) return known;
    onPath.add(n);
    let sum = 1;
    for (const it of n.items as unknown[]) sum += isPair(it) ? weigh(it.key) + weigh(it.value) : weigh(it);
    onPath.delete(n);
    memo.set(n, sum);
    return sum;
  };
  let worst: { weight: number; offset: number } | undefined;
  visit(doc, {
    Alias(_, n) {
      const w = weigh(n);
      if (!worst || w > worst.weight) worst = { weight: w, offset: n.range?.[0] ?? 0 };
    },
  });
  const p = lc.linePos(worst?.offset ?? 0);
  const what = worst?.weight === CYCLE ? 'this alias names a value that contains it (a cycle, which no tree can hold)' : `this alias repeats ${worst ? `${worst.weight.toLocaleString('en-US')} nodes and characters` : 'a value'}, and the document's aliases expand it past ${expansionLimit(textLength).toLocaleString('en-US')} (an alias bomb)`;
  return new ConfigError(`${what}; refused before anything reads it: write the repeated part out, or anchor something smaller`, `${shown}:${p.line}:${p.col}`);
}
