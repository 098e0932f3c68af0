// The reference reading of a SKILL.md for test/unit/skill-corpus.test.ts and skill-corpus-cli.test.ts:
// CommonMark (mdast-util-from-markdown with micromark's frontmatter extension, devDependencies used only
// by tests) for the frontmatter and the top-level headings, and the name rule read with the `yaml`
// library — another YAML parser than the reader's js-yaml: the frontmatter's `name` when a non-blank
// string, else the folder's name.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { frontmatter } from 'micromark-extension-frontmatter';
import { parse as parseYaml } from 'yaml';
import { repoRoot } from './cli.js';

/** The awkward SKILL.md files, one folder each (the folder's name differs from any frontmatter `name`). */
export const corpus = join(repoRoot, 'test/fixtures/skill-corpus');
export const corpusDirs = readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

interface Node {
  type: string;
  value?: string;
  depth?: number;
  children?: Node[];
  position?: { start: { line: number; offset?: number }; end: { offset?: number } };
}

/** What CommonMark makes of the file: the frontmatter's YAML and body start, and the top-level headings. */
export function reference(text: string): { yaml: string | null; bodyStart: number; headings: string[] } {
  // micromark drops a BOM before it counts offsets: they are offsets into the text without it.
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const src = text.slice(bom);
  const withFm = fromMarkdown(src, { extensions: [frontmatter(['yaml'])], mdastExtensions: [frontmatterFromMarkdown(['yaml'])] }) as Node;
  const fm = withFm.children?.[0]?.type === 'yaml' ? withFm.children[0] : undefined;
  // Without frontmatter the document is plain CommonMark: read again without the extension, whose failed
  // attempt at an unclosed `---` leaves the next line's container unread (`---` then `> quote` is a paragraph there).
  const kids = (fm ? withFm : (fromMarkdown(src) as Node)).children ?? [];
  let bodyStart = 0;
  if (fm) {
    bodyStart = fm.position!.end.offset!;
    if (src.startsWith('\r\n', bodyStart)) bodyStart += 2;
    else if (src[bodyStart] === '\n') bodyStart += 1;
  }
  const headings = kids
    .filter((n) => n.type === 'heading')
    .map((h) => {
      const c = h.children ?? [];
      const raw = c.length ? src.slice(c[0]!.position!.start.offset, c[c.length - 1]!.position!.end.offset) : '';
      return `${h.position!.start.line} h${h.depth}: ${squash(raw)}`;
    });
  return { yaml: fm ? (fm.value ?? '') : null, bodyStart: bom + bodyStart, headings };
}

export const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();

export function expectedName(yaml: string | null, dir: string): string {
  let data: unknown;
  try {
    data = yaml === null ? undefined : parseYaml(yaml);
  } catch {
    data = undefined;
  }
  const name = data && typeof data === 'object' ? (data as Record<string, unknown>)['name'] : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name : dir;
}
