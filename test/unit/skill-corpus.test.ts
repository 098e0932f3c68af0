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
// The reference and the expected name: test/support/skill-reference.ts; skill-corpus-cli.test.ts runs
// `whet evaluate` on the corpus for the name an engine is handed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

import { contentLines, quotableLines } from '../../src/engines/mock-text.js';
import { updateFrontmatter } from '../../src/skill/frontmatter.js';
import { parseSkill } from '../../src/skill/markdown.js';
import { readSkill, skillName } from '../../src/skill/read.js';
import { nameOfSkill } from '../../src/skill/skill-md.js';
import { scoreStructure } from '../../src/skill/structure.js';
import { corpus, corpusDirs as dirs, expectedName, reference, squash } from '../support/skill-reference.js';

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
      const lf = (y: string): string => y.replace(/\r\n/g, '\n');
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
