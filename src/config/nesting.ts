// Nesting depth of YAML and JSON inputs. Parsers and validators recurse once per level, so ten thousand
// `[` or `- ` ran them out of stack ("Maximum call stack size exceeded"); no suite, config or ranking
// needs more than a few dozen levels. A document deeper than MAX_NESTING is refused with
// `file:line:col: nested too deeply`, the place found by a linear scan of the text (no recursion).
import { ConfigError } from '../core/errors.js';

export const MAX_NESTING = 128;

/** Whether a parsed value nests lists and maps deeper than `max` (iterative; shared nodes visited once). */
export function nestsDeeper(value: unknown, max = MAX_NESTING): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  const seen = new Set<object>();
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (!v || typeof v !== 'object' || seen.has(v)) continue;
    if (d + 1 > max) return true;
    seen.add(v);
    for (const x of Array.isArray(v) ? v : Object.values(v)) if (x && typeof x === 'object') stack.push([x, d + 1]);
  }
  return false;
}

/**
 * The same for a value known to be a tree (parsed from text with no anchors or aliases, so no node is
 * shared): plain recursion, stopped at `max` levels so it cannot run out of stack, with no bookkeeping —
 * a large suite's slices are checked at a fraction of nestsDeeper's cost.
 */
export function treeNestsDeeper(value: unknown, max = MAX_NESTING): boolean {
  if (!value || typeof value !== 'object') return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const x of value) if (x && typeof x === 'object' && treeNestsDeeper(x, max - 1)) return true;
    return false;
  }
  for (const k in value) {
    const x = (value as Record<string, unknown>)[k];
    if (x && typeof x === 'object' && treeNestsDeeper(x, max - 1)) return true;
  }
  return false;
}

/**
 * The offset where the text first opens more than `max` levels: flow brackets (outside quotes and
 * comments) on top of block levels (indentation, and `- ` / `? ` / `key:` opening a level on a line).
 * Approximate on exotic YAML, exact on the shapes that matter: long runs of `[`, `{` or `- `.
 */
export function deepestOffset(text: string, max = MAX_NESTING): number | undefined {
  const blocks: { indent: number; depth: number }[] = [];
  let flow = 0;
  let flowBase = 0;
  let scalarParent: number | undefined; // inside a block scalar (| or >) opened on a line with this indent
  let offset = 0;
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    const indent = line.length - line.trimStart().length;
    const content = line.trim();
    if (flow === 0) {
      if (scalarParent !== undefined && (content === '' || indent > scalarParent)) continue;
      scalarParent = undefined;
      if (content === '' || content.startsWith('#')) continue;
      while (blocks.length && blocks[blocks.length - 1]!.indent >= indent) blocks.pop();
      flowBase = blocks[blocks.length - 1]?.depth ?? 0;
    }
    let depth = flowBase;
    let i = flow === 0 ? indent : 0;
    // Block indicators opening levels at the start of the line: "- - - x", "? key".
    while (flow === 0 && i < line.length && (line[i] === '-' || line[i] === '?') && (i + 1 === line.length || line[i + 1] === ' ')) {
      if (++depth > max) return start + i;
      i += 2;
      while (line[i] === ' ') i++;
    }
    let keyed = false;
    for (; i < line.length; i++) {
      const c = line[i]!;
      if (c === '"' || c === "'") {
        // A quoted scalar: skip to its end on this line ('' and \" escapes).
        for (i++; i < line.length; i++) {
          if (c === '"' && line[i] === '\\') i++;
          else if (line[i] === c) {
            if (c === "'" && line[i + 1] === "'") i++;
            else break;
          }
        }
      } else if (c === '#' && (i === 0 || line[i - 1] === ' ')) break;
      else if (c === '[' || c === '{') {
        if (flow === 0) flowBase = depth;
        if (flowBase + ++flow > max) return start + i;
      } else if ((c === ']' || c === '}') && flow > 0) flow--;
      else if (c === ':' && flow === 0 && !keyed && (i + 1 === line.length || line[i + 1] === ' ')) {
        keyed = true;
        if (++depth > max) return start + i;
        const rest = line.slice(i + 1).trim();
        if (/^[|>]/.test(rest)) scalarParent = indent;
      }
    }
    if (flow === 0) blocks.push({ indent, depth });
  }
  return undefined;
}

/** `line:col` (1-based) of an offset. */
function lineCol(text: string, offset: number): string {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return `${line}:${offset - last}`;
}

/** The error for a document nested too deeply; `fallback` is where a parser gave up, when the scan finds nothing. */
export function nestedTooDeeply(text: string, shown: string, fallback?: string): ConfigError {
  const at = deepestOffset(text);
  const where = at !== undefined ? `${shown}:${lineCol(text, at)}` : (fallback ?? `${shown}:1:1`);
  return new ConfigError(`nested too deeply: more than ${MAX_NESTING} levels of lists and maps`, where);
}

/** A stack overflow from a recursive parser or validator. */
export const isStackOverflow = (err: unknown) => err instanceof RangeError && /call stack/i.test(err.message);
