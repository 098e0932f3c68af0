// One reading of a SKILL.md (src/skill/skill-md.ts, issue 32): on a corpus of awkward files
// (test/fixtures/skill-corpus: `...` and `--- ` closers, a file ending at `---`, CRLF, a BOM, `# lines` in
// <pre>, HTML comments, fences, indented code, quotes and list items, setext and odd ATX headings), the
// frontmatter and the top-level headings agree with a CommonMark parser (mdast-util-from-markdown with
// micromark's frontmatter extension, a devDependency used only here), and every command path that reads a
// SKILL.md gets the same name, frontmatter and body from it:
//   readSkill / skillName (src/skill/read.ts: every stage, evaluate, report, the engines' skill name),
//   parseSkill (src/skill/markdown.ts: edits, structure scores, the generate proposers),
//   updateFrontmatter (src/skill/frontmatter.ts: the update_frontmatter action),
//   scoreStructure (src/skill/structure.ts: generate, discriminate, learn),
//   contentLines (src/engines/mock-text.ts: what the mock engine and the intents floor quote).
// The expected name is the reference's frontmatter `name` read with the `yaml` library — another YAML
// parser than the reader's js-yaml — when a non-blank string, else the folder's name.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { frontmatterFromMarkdown } from 'mdast-util-frontmatter';
import { frontmatter } from 'micromark-extension-frontmatter';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';

import { contentLines, quotableLines } from '../../src/engines/mock-text.js';
import { updateFrontmatter } from '../../src/skill/frontmatter.js';
import { parseSkill } from '../../src/skill/markdown.js';
import { readSkill, skillName } from '../../src/skill/read.js';
import { nameOfSkill } from '../../src/skill/skill-md.js';
import { scoreStructure } from '../../src/skill/structure.js';
import { repoRoot } from '../support/cli.js';

const corpus = join(repoRoot, 'test/fixtures/skill-corpus');
const dirs = readdirSync(corpus, { withFileTypes: true })
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
function reference(text: string): { yaml: string | null; bodyStart: number; headings: string[] } {
  // micromark drops a BOM before it counts offsets: they are offsets into the text without it.
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  const src = text.slice(bom);
  const tree = fromMarkdown(src, { extensions: [frontmatter(['yaml'])], mdastExtensions: [frontmatterFromMarkdown(['yaml'])] }) as Node;
  const kids = tree.children ?? [];
  const fm = kids[0]?.type === 'yaml' ? kids[0] : undefined;
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

const squash = (s: string): string => s.replace(/\s+/g, ' ').trim();
const lf = (s: string): string => s.replace(/\r\n/g, '\n');

function expectedName(yaml: string | null, dir: string): string {
  let data: unknown;
  try {
    data = yaml === null ? undefined : parseYaml(yaml);
  } catch {
    data = undefined;
  }
  const name = data && typeof data === 'object' ? (data as Record<string, unknown>)['name'] : undefined;
  return typeof name === 'string' && name.trim() !== '' ? name : dir;
}

describe('the awkward SKILL.md corpus', () => {
  it('holds the cases issue 32 names', () => {
    for (const d of ['dots-closer', 'trailing-space-closer', 'ends-at-closer', 'crlf', 'bom', 'pre-block', 'fenced']) expect(dirs).toContain(d);
  });

  describe.each(dirs)('%s', (dir) => {
    const path = join(corpus, dir);
    const text = readFileSync(join(path, 'SKILL.md'), 'utf8');
    const ref = reference(text);
    const doc = parseSkill(text);

    it('frontmatter and headings agree with CommonMark', () => {
      expect(doc.frontmatter === null ? null : lf(doc.frontmatter.yaml).replace(/\n$/, '')).toEqual(ref.yaml === null ? null : lf(ref.yaml));
      expect(doc.bodyStart).toBe(ref.bodyStart);
      expect(doc.sections.map((s) => `${s.line} h${s.level}: ${squash(s.title)}`)).toEqual(ref.headings);
    });

    it('every command path reads the same name and body', () => {
      const name = expectedName(ref.yaml, dir);
      expect(readSkill(path).name).toBe(name);
      expect(skillName(text, path)).toBe(name);
      expect(nameOfSkill(doc.frontmatter, path)).toBe(name);
      expect(contentLines(text)).toEqual(quotableLines(text.slice(ref.bodyStart)));
      const findings = scoreStructure(text).dimensions.find((d) => d.id === 'frontmatter_fields')?.finding ?? '';
      expect(findings.startsWith('no YAML frontmatter')).toBe(ref.yaml === null);
    });

    it('update_frontmatter edits that frontmatter and leaves the body as it was', () => {
      if (doc.frontmatter?.data === null) {
        expect(() => updateFrontmatter(doc, { description: 'set' })).toThrow(/not a YAML mapping/);
        return;
      }
      const after = parseSkill(updateFrontmatter(doc, { description: 'set by the test' }));
      expect(after.frontmatter?.data?.['description']).toBe('set by the test');
      if (doc.frontmatter) {
        expect(nameOfSkill(after.frontmatter, path)).toBe(nameOfSkill(doc.frontmatter, path));
        expect(after.text.slice(after.bodyStart)).toBe(text.slice(doc.bodyStart));
      }
    });
  });
});
