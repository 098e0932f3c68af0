// Text comparison for lint. Two kinds: word *sets* for near-duplicate prompts (order-free, so a reworded
// duplicate is still found), and normalised *runs* of text for leakage (order matters: a pasted case is
// a run of the same words in the same order). Normalisation: NFKC, lower case, whitespace collapsed —
// enough that re-wrapping or re-indenting a pasted case does not hide it.

const WORD = /[\p{L}\p{N}]+/gu;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Words in order (lower-cased); runs of CJK characters, which have no spaces, become their bigrams. */
export function words(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (!CJK.test(w)) {
      out.push(w);
      continue;
    }
    const chars = [...w];
    if (chars.length === 1) out.push(w);
    for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  }
  return out;
}

/** A text searchable for normalised runs, mapping a hit back to the 1-based line it starts on. */
export interface Haystack {
  /** Display name (a path). */
  name: string;
  text: string;
  /** Start offset in `text` of each kept source line, and that line's number. */
  starts: number[];
  lines: number[];
  /** Word n-grams (SHINGLE words joined by one space) for partial-paste detection. */
  shingles: Set<string>;
}

/** Consecutive words a prompt must share with a text to count as a partial paste. */
export const SHINGLE = 12;

export function haystack(name: string, source: string, firstLine = 1): Haystack {
  const parts: string[] = [];
  const starts: number[] = [];
  const lines: number[] = [];
  let offset = 0;
  source.split(/\r?\n/).forEach((raw, i) => {
    const n = normalise(raw);
    if (n === '') return;
    starts.push(offset);
    lines.push(firstLine + i);
    parts.push(n);
    offset += n.length + 1;
  });
  return { name, text: parts.join(' '), starts, lines, shingles: shinglesOf(words(source)) };
}

export function shinglesOf(ws: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + SHINGLE <= ws.length; i++) out.add(ws.slice(i, i + SHINGLE).join(' '));
  return out;
}

/** Line where the normalised `needle` occurs in the haystack, or undefined. */
export function findRun(h: Haystack, needle: string): number | undefined {
  const n = normalise(needle);
  if (n === '') return undefined;
  const at = h.text.indexOf(n);
  if (at === -1) return undefined;
  let lo = 0;
  let hi = h.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (h.starts[mid]! <= at) lo = mid;
    else hi = mid - 1;
  }
  return h.lines[lo];
}

/** The first run of SHINGLE words the text shares with the haystack, or undefined. */
export function sharedShingle(h: Haystack, text: string): string | undefined {
  const ws = words(text);
  for (let i = 0; i + SHINGLE <= ws.length; i++) {
    const s = ws.slice(i, i + SHINGLE).join(' ');
    if (h.shingles.has(s)) return s;
  }
  return undefined;
}

/** A short quoted excerpt for messages. */
export function excerpt(text: string, max = 60): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max - 1)}…` : flat);
}
