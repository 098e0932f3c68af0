// Line-level helpers shared by the SKILL.md model and the edit actions. Every offset is an index into the
// JavaScript string (UTF-16 code units), so slicing with them can never split a line ending or lose a byte.

export type Eol = '\n' | '\r\n';

export interface Line {
  /** Offset of the first character of the line. */
  start: number;
  /** Offset just past the line's content, before its terminator. */
  contentEnd: number;
  /** Offset of the next line (after the terminator); equals contentEnd on a last line with no newline. */
  next: number;
  /** The content without its terminator. */
  text: string;
  /** 1-based line number in the whole document. */
  number: number;
}

/**
 * Splits text[from, to) into lines. Only `\n` and `\r\n` end a line: a lone `\r` stays inside the line's text,
 * which keeps the split lossless on any input without guessing at old Mac files.
 */
export function splitLines(text: string, from = 0, to = text.length, firstNumber = 1): Line[] {
  const lines: Line[] = [];
  let start = from;
  let number = firstNumber;
  while (start < to) {
    const nl = text.indexOf('\n', start);
    const stop = nl === -1 || nl >= to ? to : nl;
    const contentEnd = stop > start && text[stop - 1] === '\r' && stop !== to ? stop - 1 : stop;
    const next = stop === to ? to : stop + 1;
    lines.push({ start, contentEnd, next, text: text.slice(start, contentEnd), number });
    start = next;
    number++;
  }
  return lines;
}

/** The line ending most of the document uses; LF when it has none or a tie. */
export function dominantEol(text: string): Eol {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text[i - 1] === '\r') crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** Rewrites every line ending in `s` to `eol`, so inserted text matches the document it goes into. */
export function withEol(s: string, eol: Eol): string {
  return s.replace(/\r?\n/g, eol);
}

/** 1-based line number of an offset. */
export function lineAt(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** True when `s` ends with an empty line (two line endings in a row), or is empty. */
export function endsWithBlankLine(s: string): boolean {
  return s.length === 0 || /\n[ \t]*\r?\n$/.test(s) || /^[ \t]*\r?\n$/.test(s);
}
