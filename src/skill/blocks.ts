// CommonMark's block starts (spec 0.31) as the heading scan (headings.ts) needs them, and the two
// containers it must see the end of: a block quote and a list item. Inside a container nothing is a
// section heading; what matters is which lines still belong to it — a line starting with `>`, or indented
// to the list item's content, or a lazy line continuing the paragraph open inside it — and its fenced code,
// which the document's code blocks include.
import { htmlBlockStart } from './html-block.js';

export const ATX = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/;
export const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
export const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
export const BLANK = /^[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const QUOTE = /^ {0,3}> ?/;
const LIST_ITEM = /^( {0,3})([-+*]|\d{1,9}[.)])([ \t]+|$)(.*)$/;

export interface Fence {
  char: string;
  length: number;
  marker: string;
  info: string;
}

/** An opening fence in `text`, or null (a backtick fence's info string may not hold a backtick). */
export function fenceOpen(text: string): Fence | null {
  const m = FENCE_OPEN.exec(text);
  if (!m || (m[1]!.startsWith('`') && m[2]!.includes('`'))) return null;
  return { char: m[1]![0]!, length: m[1]!.length, marker: m[1]!, info: m[2]!.trim() };
}

export const closesFence = (text: string, f: Fence): boolean => new RegExp(`^ {0,3}${f.char === '`' ? '`' : '~'}{${f.length},}[ \\t]*$`).test(text);

/** Columns of leading whitespace, a tab to the next multiple of 4. */
export function indentOf(text: string): number {
  let col = 0;
  for (const ch of text) {
    if (ch === ' ') col++;
    else if (ch === '\t') col += 4 - (col % 4);
    else break;
  }
  return col;
}

/** `text` with its first `cols` columns of indentation removed (a tab split as CommonMark splits it). */
function dedent(text: string, cols: number): string {
  let col = 0;
  let i = 0;
  while (i < text.length && col < cols && (text[i] === ' ' || text[i] === '\t')) {
    col += text[i] === '\t' ? 4 - (col % 4) : 1;
    i++;
  }
  return ' '.repeat(Math.max(0, col - cols)) + text.slice(i);
}

/** A list item's start: its content's column, whether it has content, whether it may interrupt a paragraph. */
export function listItem(text: string): { width: number; content: string; interrupts: boolean } | null {
  if (THEMATIC_BREAK.test(text)) return null;
  const m = LIST_ITEM.exec(text);
  if (!m) return null;
  const lead = m[1]!.length + m[2]!.length;
  const spaces = indentOf(' '.repeat(lead) + m[3]!) - lead;
  const empty = m[4]!.trim() === '';
  // Five or more columns after the marker: the content is indented code one column in.
  const width = empty || spaces > 4 ? lead + 1 : lead + spaces;
  const ordered = /\d/.test(m[2]![0]!);
  // The content as it stands from the item's content column on (spaces past it kept: indented code).
  const content = empty ? '' : ' '.repeat(Math.max(0, lead + spaces - width)) + m[4]!;
  return { width, content, interrupts: !empty && (!ordered || /^0*1[.)]$/.test(m[2]!)) };
}

/** Whether `text` starts a block that ends an open paragraph (else it continues it, lazily if need be). */
export function interrupts(text: string): boolean {
  if (indentOf(text) >= 4) return false;
  if (ATX.test(text) || fenceOpen(text) || THEMATIC_BREAK.test(text) || QUOTE.test(text)) return true;
  if (htmlBlockStart(text, true) !== null) return true;
  return listItem(text)?.interrupts ?? false;
}

/** Where fences found inside a container are recorded (the scan's list of code blocks). */
export interface FenceLog {
  open(line: number, f: Fence): void;
  close(line: number, closed: boolean): void;
}

export interface Container {
  /** Whether line `i` belongs to the container; when not, the container has ended before it. */
  take(text: string, i: number): boolean;
  /** The fence open inside it at the end of the document, if any. */
  openFence(): { line: number; marker: string } | null;
}

/** The container line `i` opens (a quote, a list item), or null. */
export function containerOf(text: string, i: number, log: FenceLog): Container | null {
  const quote = QUOTE.exec(text);
  let item = quote ? null : listItem(text);
  if (!quote && !item) return null;
  let paragraph = false;
  let fence: (Fence & { line: number }) | null = null;
  let last = i;

  /** Classifies the container's content on line `at`, so the next line knows what it may continue. */
  const inner = (content: string, at: number): void => {
    last = at;
    if (fence) {
      if (closesFence(content, fence)) {
        log.close(at, true);
        fence = null;
      }
      return;
    }
    if (BLANK.test(content)) return void (paragraph = false);
    if (paragraph && SETEXT_UNDERLINE.test(content)) return void (paragraph = false);
    if (paragraph && !interrupts(content)) return;
    if (indentOf(content) >= 4) return void (paragraph = false);
    const f = fenceOpen(content);
    if (f) {
      fence = { ...f, line: at };
      log.open(at, f);
      return void (paragraph = false);
    }
    // A nested quote or list item: what counts is the content inside it.
    const nestedQuote = QUOTE.exec(content);
    if (nestedQuote) return inner(content.slice(nestedQuote[0].length), at);
    const nestedItem = listItem(content);
    if (nestedItem) return inner(nestedItem.content.trimStart(), at);
    paragraph = !(ATX.test(content) || THEMATIC_BREAK.test(content) || htmlBlockStart(content, false) !== null);
  };
  /** The container has ended: an inner fence still open ends with it, unclosed. */
  const end = (): false => {
    if (fence) log.close(last, false);
    fence = null;
    return false;
  };

  inner(quote ? text.slice(quote[0].length) : item!.content, i);
  return {
    take(line, at) {
      if (quote) {
        const q = QUOTE.exec(line);
        if (q) return inner(line.slice(q[0].length), at), true;
      } else if (BLANK.test(line)) {
        return inner('', at), true;
      } else if (indentOf(line) >= item!.width) {
        return inner(dedent(line, item!.width), at), true;
      } else if (!THEMATIC_BREAK.test(line) && listItem(line)) {
        end();
        item = listItem(line);
        paragraph = false;
        return inner(item!.content, at), true;
      }
      // A lazy continuation line: the paragraph inside goes on, whatever the line's indentation. micromark
      // lets a lazy line start an HTML block of kind 7 inside the container instead (which a paragraph
      // line could not), after which no line is lazy.
      if (paragraph && !fence && !BLANK.test(line) && !interrupts(line)) {
        last = at;
        if (htmlBlockStart(line, false) === 7) paragraph = false;
        return true;
      }
      return end();
    },
    openFence: () => (fence ? { line: fence.line, marker: fence.marker } : null),
  };
}
