// Finds the headings of a markdown body the way CommonMark does for the cases that matter in SKILL.md files:
// ATX (`## Title ##`) and setext (`Title` over `===` / `---`) headings, never inside fenced code (``` or ~~~,
// any length, indented up to 3 spaces, closed only by the same character at least as long; an unclosed fence
// runs to the end), never inside an HTML comment, and never in an indented code block.
import type { Line } from './lines.js';

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export interface HeadingHit {
  /** Index (into the scanned lines) of the heading's first and last line; they differ for setext. */
  first: number;
  last: number;
  level: HeadingLevel;
  style: 'atx' | 'setext';
  title: string;
}

export interface FenceHit {
  /** Indices of the opening and closing line (the last line when it never closes). */
  open: number;
  close: number;
  marker: string;
  info: string;
  closed: boolean;
}

export interface HeadingScan {
  headings: HeadingHit[];
  fences: FenceHit[];
  unclosedFence: { line: number; marker: string } | null;
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const ATX = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BLANK = /^[ \t]*$/;
const INDENTED_CODE = /^(?: {4}| {0,3}\t)/;
// Paragraphs inside list items and block quotes cannot carry a setext underline that sits outside them.
const CONTAINER_START = /^ {0,3}(?:[-+*]|\d{1,9}[.)])(?:[ \t]|$)|^ {0,3}>/;
const HTML_COMMENT_OPEN = /^ {0,3}<!--/;

export function scanHeadings(lines: Line[]): HeadingScan {
  const headings: HeadingHit[] = [];
  const fences: FenceHit[] = [];
  let fence: { char: string; length: number; line: number; marker: string } | null = null;
  let inComment = false;
  // First line of the paragraph in progress (a setext underline turns it into a heading), or null.
  let paragraph: number | null = null;
  let inContainer = false;

  lines.forEach((line, i) => {
    const text = line.text;
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence.char === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
      if (close.test(text)) {
        fences[fences.length - 1]!.close = i;
        fences[fences.length - 1]!.closed = true;
        fence = null;
      }
      return;
    }
    if (inComment) {
      if (text.includes('-->')) inComment = false;
      return;
    }
    if (BLANK.test(text)) {
      paragraph = null;
      inContainer = false;
      return;
    }
    const open = FENCE_OPEN.exec(text);
    if (open && !(open[1]!.startsWith('`') && open[2]!.includes('`'))) {
      const marker = open[1]!;
      fence = { char: marker[0]!, length: marker.length, line: i, marker };
      fences.push({ open: i, close: lines.length - 1, marker, info: open[2]!.trim(), closed: false });
      paragraph = null;
      return;
    }
    const atx = ATX.exec(text);
    if (atx) {
      headings.push({ first: i, last: i, level: atx[1]!.length as HeadingLevel, style: 'atx', title: atxTitle(atx[2] ?? '') });
      paragraph = null;
      inContainer = false;
      return;
    }
    const underline = SETEXT_UNDERLINE.exec(text);
    if (underline && paragraph !== null) {
      const title = lines
        .slice(paragraph, i)
        .map((l) => l.text.trim())
        .join(' ');
      headings.push({ first: paragraph, last: i, level: underline[1]!.startsWith('=') ? 1 : 2, style: 'setext', title });
      paragraph = null;
      return;
    }
    if (HTML_COMMENT_OPEN.test(text)) {
      inComment = !text.slice(text.indexOf('<!--') + 4).includes('-->');
      paragraph = null;
      return;
    }
    if (THEMATIC_BREAK.test(text)) {
      paragraph = null;
      return;
    }
    if (CONTAINER_START.test(text)) {
      inContainer = true;
      paragraph = null;
      return;
    }
    if (paragraph === null && (inContainer || INDENTED_CODE.test(text))) return;
    if (paragraph === null) paragraph = i;
  });

  const open = fence as { line: number; marker: string } | null;
  return { headings, fences, unclosedFence: open ? { line: open.line, marker: open.marker } : null };
}

/** Strips an ATX heading's optional closing sequence: `## Title ##` → `Title`; `# C#` keeps its `#`. */
function atxTitle(rest: string): string {
  const trimmed = rest.trim();
  if (/^#+$/.test(trimmed)) return '';
  return trimmed.replace(/[ \t]+#+$/, '').trim();
}
