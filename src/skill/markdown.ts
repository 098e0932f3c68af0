// A lossless model of a SKILL.md: optional BOM, optional YAML frontmatter, and a body split into sections at
// its headings. Every part keeps its raw text, so serialize(parse(text)) === text for any input, and the
// edit actions can change one region while every other byte stays as it was.
//
// Section extent (the unit replace/remove act on): a section runs from its heading line to the line before
// the next heading of the same or a higher level (fewer #s), so it includes its subsections. `contentEnd`
// marks where its own text stops (the next heading of any level), for edits that keep subsections.
//
// The frontmatter is skill-md.ts's, the one reading every command shares; the headings are headings.ts's,
// CommonMark's top-level headings of the body after it.
import type { HeadingLevel } from './headings.js';
import { dominantEol, splitLines, type Eol, type Line } from './lines.js';
import { scanHeadings } from './headings.js';
import { readFrontmatter, splitSkillMd, type Frontmatter } from './skill-md.js';

export type { HeadingLevel } from './headings.js';
export type { Frontmatter } from './skill-md.js';

export interface Section {
  index: number;
  level: HeadingLevel;
  style: 'atx' | 'setext';
  /** Heading text as written, without #s (opening and closing) or setext underline. */
  title: string;
  /** `title` normalised for matching (see normalizeTitle). */
  key: string;
  /** Offsets into the document text (UTF-16 code units). */
  start: number;
  bodyStart: number;
  contentEnd: number;
  end: number;
  /** 1-based line of the heading's first line, and the last line of the extent (inclusive). */
  line: number;
  endLine: number;
  parent: number | null;
  /** Raw heading line(s) with line endings, and the raw text up to the next heading of any level. */
  heading: string;
  content: string;
}

export interface SkillDocument {
  text: string;
  bom: '' | '\uFEFF';
  frontmatter: Frontmatter | null;
  /** Offset where the markdown body starts (after BOM and frontmatter). */
  bodyStart: number;
  /** Body text before the first heading. */
  preamble: string;
  sections: Section[];
  eol: Eol;
  finalNewline: boolean;
  /** Fenced code blocks, by 1-based line of their opening and closing (or last) line. */
  codeBlocks: Array<{ startLine: number; endLine: number; marker: string; info: string; closed: boolean }>;
  /** The first fence that never closes (it swallows the rest of the document), if any. */
  unclosedFence: { line: number; marker: string } | null;
}

export function parseSkill(text: string): SkillDocument {
  const split = splitSkillMd(text);
  const { bom, bodyStart } = split;
  const frontmatter = split.frontmatter ? readFrontmatter(split.frontmatter) : null;
  const lines = splitLines(text, bom.length);
  const bodyLines = lines.filter((l) => l.start >= bodyStart);
  const scan = scanHeadings(bodyLines);
  const sections: Section[] = [];
  const stack: Section[] = [];
  scan.headings.forEach((h, index) => {
    const first = bodyLines[h.first]!;
    const after = bodyLines[h.last]!.next;
    const nextHeading = scan.headings[index + 1];
    const contentEnd = nextHeading ? bodyLines[nextHeading.first]!.start : text.length;
    while (stack.length > 0 && stack[stack.length - 1]!.level >= h.level) stack.pop();
    const section: Section = {
      index,
      level: h.level,
      style: h.style,
      title: h.title,
      key: normalizeTitle(h.title),
      start: first.start,
      bodyStart: after,
      contentEnd,
      end: text.length,
      line: first.number,
      endLine: 0,
      parent: stack.length > 0 ? stack[stack.length - 1]!.index : null,
      heading: text.slice(first.start, after),
      content: text.slice(after, contentEnd),
    };
    stack.push(section);
    sections.push(section);
  });
  for (const s of sections) {
    const closer = sections.find((o) => o.index > s.index && o.level <= s.level);
    s.end = closer ? closer.start : text.length;
    s.endLine = lastLineNumber(bodyLines, s.end);
  }
  const firstHeading = sections[0]?.start ?? text.length;
  const fence = scan.unclosedFence === null ? null : bodyLines[scan.unclosedFence.line]!;
  return {
    text,
    bom,
    frontmatter,
    bodyStart,
    preamble: text.slice(bodyStart, firstHeading),
    sections,
    eol: dominantEol(text),
    finalNewline: text.endsWith('\n'),
    codeBlocks: scan.fences.map((f) => ({
      startLine: bodyLines[f.open]!.number,
      endLine: bodyLines[f.close]!.number,
      marker: f.marker,
      info: f.info,
      closed: f.closed,
    })),
    unclosedFence: fence && scan.unclosedFence ? { line: fence.number, marker: scan.unclosedFence.marker } : null,
  };
}

/** Writes the model back out from its parts; byte-identical to the parsed text. */
export function serializeSkill(doc: SkillDocument): string {
  let out = doc.bom + (doc.frontmatter?.raw ?? '') + doc.preamble;
  for (const s of doc.sections) out += s.heading + s.content;
  return out;
}

/**
 * The form titles are matched in: Unicode-normalised, case-folded, whitespace collapsed, closing #s and a
 * trailing colon dropped. "## When to Use:" and "when TO use ##" match each other.
 */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKC')
    .replace(/[ \t]+#+[ \t]*$/, '')
    .replace(/[:：][ \t]*$/, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** The body: everything after the BOM and the frontmatter. */
export function bodyOf(doc: SkillDocument): string {
  return doc.text.slice(doc.bodyStart);
}

function lastLineNumber(lines: Line[], end: number): number {
  let n = lines[0]?.number ?? 1;
  for (const l of lines) {
    if (l.start >= end) break;
    n = l.number;
  }
  return n;
}
