// A lossless model of a SKILL.md: optional BOM, optional YAML frontmatter, and a body split into sections at
// its headings. Every part keeps its raw text, so serialize(parse(text)) === text for any input, and the
// edit actions can change one region while every other byte stays as it was.
//
// Section extent (the unit replace/remove act on): a section runs from its heading line to the line before
// the next heading of the same or a higher level (fewer #s), so it includes its subsections. `contentEnd`
// marks where its own text stops (the next heading of any level), for edits that keep subsections.
import type { HeadingLevel } from './headings.js';
import { yamlLib } from '../core/lazy.js';
import { dominantEol, splitLines, type Eol, type Line } from './lines.js';
import { scanHeadings } from './headings.js';

export type { HeadingLevel } from './headings.js';

export interface Frontmatter {
  /** The whole block: opening line, YAML, closing line, each with its line ending. */
  raw: string;
  open: string;
  /** The YAML between the delimiters, each line with its line ending ('' when empty). */
  yaml: string;
  close: string;
  /** Offset of `yaml` in the document text. */
  yamlStart: number;
  /** The parsed mapping; null when the YAML does not parse or is not a mapping. */
  data: Record<string, unknown> | null;
  error: string | null;
}

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

const FM_OPEN = /^---[ \t]*$/;
// `...` is YAML's own document-end marker and pandoc accepts it as a closer, so we do too.
const FM_CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

export function parseSkill(text: string): SkillDocument {
  const bom = text.startsWith('\uFEFF') ? '\uFEFF' : '';
  const lines = splitLines(text, bom.length);
  const frontmatter = readFrontmatter(text, lines);
  const bodyStart = frontmatter ? bom.length + frontmatter.raw.length : bom.length;
  const bodyLines = frontmatter ? lines.slice(lineCount(frontmatter.raw)) : lines;
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

function readFrontmatter(text: string, lines: Line[]): Frontmatter | null {
  const open = lines[0];
  if (!open || !FM_OPEN.test(open.text) || open.next === open.contentEnd) return null;
  const closeIdx = lines.findIndex((l, i) => i > 0 && FM_CLOSE.test(l.text));
  if (closeIdx === -1) return null;
  const close = lines[closeIdx]!;
  const yamlStart = open.next;
  const yaml = text.slice(yamlStart, close.start);
  let data: Record<string, unknown> | null = null;
  let error: string | null = null;
  try {
    const parsed = yamlLib().parse(yaml) as unknown;
    if (parsed === null || parsed === undefined) data = {};
    else if (typeof parsed === 'object' && !Array.isArray(parsed)) data = parsed as Record<string, unknown>;
    else error = 'frontmatter is not a YAML mapping';
  } catch (e) {
    error = (e as Error).message.split('\n')[0] ?? String(e);
  }
  return {
    raw: text.slice(open.start, close.next),
    open: text.slice(open.start, open.next),
    yaml,
    close: text.slice(close.start, close.next),
    yamlStart,
    data,
    error,
  };
}

function lineCount(s: string): number {
  return splitLines(s).length;
}

function lastLineNumber(lines: Line[], end: number): number {
  let n = lines[0]?.number ?? 1;
  for (const l of lines) {
    if (l.start >= end) break;
    n = l.number;
  }
  return n;
}
