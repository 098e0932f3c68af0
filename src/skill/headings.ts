// Finds a SKILL.md body's top-level headings — the ones that make sections — as CommonMark (spec 0.31) reads
// them: ATX (`## Title ##`) and setext (`Title` over `===` / `---`) headings, and none inside what holds
// other text: fenced code (``` or ~~~, closed only by the same character at least as long; an unclosed
// fence runs to the end), indented code, HTML blocks (html-block.ts: a `# comment` in a `<pre>`), block
// quotes and list items. A heading inside a quote or a list item (`> # x`, `- # x`) is CommonMark's
// heading but not a section of the skill, and is not reported. test/unit/skill-corpus.test.ts holds this to
// mdast-util-from-markdown (micromark) on test/fixtures/skill-corpus; what it leaves out: link reference
// definitions (a paragraph of only `[x]: /url` over `===` is no heading there) and a lone CR as a line end.
//
// Containers are followed only as far as their ends: a quote runs while lines start with `>` or continue
// its paragraph lazily; a list item while lines are blank, indented to its content, or lazy; what is inside
// is classified just enough to know whether a lazy line may follow (an open paragraph) and where an inner
// fence is (its lines are code, and it is a code block of the document).
import type { Line } from './lines.js';
import { endSearchFrom, htmlBlockEnds, htmlBlockStart, type HtmlKind } from './html-block.js';
import { ATX, BLANK, closesFence, containerOf, fenceOpen, indentOf, interrupts, listItem, SETEXT_UNDERLINE, THEMATIC_BREAK, type Container, type Fence } from './blocks.js';

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

export function scanHeadings(lines: Line[]): HeadingScan {
  const headings: HeadingHit[] = [];
  const fences: FenceHit[] = [];
  let fence: (Fence & { line: number }) | null = null;
  let html: { kind: HtmlKind } | null = null;
  /** First line of the top-level paragraph in progress (a setext underline turns it into a heading), or null. */
  let paragraph: number | null = null;
  let container: Container | null = null;
  /** The last block was indented code (blank lines after it included). */
  let afterCode = false;

  const log = {
    open(i: number, f: Fence) {
      fences.push({ open: i, close: lines.length - 1, marker: f.marker, info: f.info, closed: false });
    },
    close(i: number, closed: boolean) {
      Object.assign(fences[fences.length - 1]!, { close: i, closed });
    },
  };

  lines.forEach((line, i) => {
    const text = line.text;
    if (fence) {
      if (closesFence(text, fence)) {
        log.close(i, true);
        fence = null;
      }
      return;
    }
    if (html) {
      if (html.kind >= 6 ? BLANK.test(text) : htmlBlockEnds(html.kind, text)) html = null;
      return;
    }
    if (container) {
      const stays = container.take(text, i);
      if (stays) return;
      container = null;
    }
    if (BLANK.test(text)) {
      paragraph = null;
      return;
    }
    const wasCode = afterCode;
    afterCode = false;
    if (paragraph !== null && indentOf(text) < 4) {
      const underline = SETEXT_UNDERLINE.exec(text);
      if (underline) {
        const title = lines.slice(paragraph, i).map((l) => l.text.trim()).join(' ');
        headings.push({ first: paragraph, last: i, level: underline[1]!.startsWith('=') ? 1 : 2, style: 'setext', title });
        paragraph = null;
        return;
      }
    }
    if (paragraph !== null && !interrupts(text)) return;
    paragraph = null;
    if (indentOf(text) >= 4) return void (afterCode = true);
    const f = fenceOpen(text);
    if (f) {
      log.open(i, f);
      fence = { ...f, line: i };
      return;
    }
    const atx = ATX.exec(text);
    if (atx) {
      headings.push({ first: i, last: i, level: atx[1]!.length as HeadingLevel, style: 'atx', title: atxTitle(atx[2] ?? '') });
      return;
    }
    if (THEMATIC_BREAK.test(text)) return;
    const kind = htmlBlockStart(text, false);
    if (kind !== null) {
      if (!htmlBlockEnds(kind, text, endSearchFrom(kind, text))) html = { kind };
      return;
    }
    // micromark reads the first block after indented code as if it interrupted a paragraph: `2. x` or a
    // lone `-` there is paragraph text, not a list item.
    const opened = wasCode && listItem(text)?.interrupts === false ? null : containerOf(text, i, log);
    if (opened) {
      container = opened;
      return;
    }
    paragraph = i;
  });

  const open = (fence as { line: number; marker: string } | null) ?? (container as Container | null)?.openFence() ?? null;
  return { headings, fences, unclosedFence: open ? { line: open.line, marker: open.marker } : null };
}

/** Strips an ATX heading's optional closing sequence: `## Title ##` → `Title`; `# C#` keeps its `#`. */
function atxTitle(rest: string): string {
  const trimmed = rest.trim();
  if (/^#+$/.test(trimmed)) return '';
  return trimmed.replace(/[ \t]+#+$/, '').trim();
}
