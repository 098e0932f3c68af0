import { describe, expect, it } from 'vitest';
import { normalizeTitle, parseSkill, serializeSkill, type SkillDocument } from '../../src/skill/markdown.js';
import { applyEdit } from '../../src/skill/edits.js';
import { findSection, matchSections, sectionPath } from '../../src/skill/sections.js';

const titles = (doc: SkillDocument): string[] => doc.sections.map((s) => `${s.level}:${s.title}`);

function roundTrips(text: string): SkillDocument {
  const doc = parseSkill(text);
  expect(serializeSkill(doc)).toBe(text);
  return doc;
}

describe('parseSkill: frontmatter, BOM, line endings', () => {
  it('splits BOM, frontmatter and body and parses the YAML', () => {
    const text = '\uFEFF---\nname: demo\ntriggers:\n  - a\n  - b\n---\n# Demo\n\nBody.\n';
    const doc = roundTrips(text);
    expect(doc.bom).toBe('\uFEFF');
    expect(doc.frontmatter?.yaml).toBe('name: demo\ntriggers:\n  - a\n  - b\n');
    expect(doc.frontmatter?.data).toEqual({ name: 'demo', triggers: ['a', 'b'] });
    expect(doc.bodyStart).toBe(text.indexOf('# Demo'));
    expect(titles(doc)).toEqual(['1:Demo']);
    expect(doc.sections[0]!.line).toBe(7);
  });

  it('takes no `...` for a closing delimiter (Claude Code, Codex and CommonMark do not) and reports malformed YAML without throwing', () => {
    expect(roundTrips('---\nname: x\n...\nbody\n').frontmatter).toBeNull();
    const bad = roundTrips('---\nname: [unclosed\n---\n# T\n');
    expect(bad.frontmatter?.data).toBeNull();
    expect(bad.frontmatter?.error).toMatch(/./);
    expect(titles(bad)).toEqual(['1:T']);
  });

  it('treats an opening --- with no closer as body, not frontmatter', () => {
    const doc = roundTrips('---\nname: x\n\n# Title\n');
    expect(doc.frontmatter).toBeNull();
    expect(titles(doc)).toEqual(['1:Title']);
  });

  it('keeps CRLF, mixed endings and a missing final newline byte for byte', () => {
    const crlf = roundTrips('---\r\nname: x\r\n---\r\n# A\r\n\r\ntext\r\n## B\r\nmore');
    expect(crlf.eol).toBe('\r\n');
    expect(crlf.finalNewline).toBe(false);
    expect(crlf.frontmatter?.data).toEqual({ name: 'x' });
    expect(titles(crlf)).toEqual(['1:A', '2:B']);
    expect(crlf.sections[0]!.heading).toBe('# A\r\n');
    const mixed = roundTrips('# A\r\none\ntwo\r\n## B\n');
    expect(titles(mixed)).toEqual(['1:A', '2:B']);
    expect(roundTrips('').sections).toEqual([]);
    expect(roundTrips('\uFEFF').bom).toBe('\uFEFF');
    expect(roundTrips('no heading at all').preamble).toBe('no heading at all');
  });
});

describe('parseSkill: headings', () => {
  it('reads ATX headings with closing #s and keeps `C#` intact', () => {
    const doc = roundTrips('# Title ##\n## When to Use #####   \n### C#\n#### \n#hashtag\n####### seven\n    # indented code\n');
    expect(titles(doc)).toEqual(['1:Title', '2:When to Use', '3:C#', '4:']);
  });

  it('reads setext headings, including multi-line ones, but not a thematic break after a blank line', () => {
    const doc = roundTrips('Title\n=====\n\nIntro.\n\nSub part\ncontinued\n---\ntext\n\n---\n\n- item\n---\n');
    expect(titles(doc)).toEqual(['1:Title', '2:Sub part continued']);
    expect(doc.sections[0]!.style).toBe('setext');
    expect(doc.sections[1]!.heading).toBe('Sub part\ncontinued\n---\n');
  });

  it('never finds headings inside ``` or ~~~ fences, longer fences, or indented fences', () => {
    const text = [
      '# Real',
      '```bash',
      '# comment, not a heading',
      '```',
      '  ~~~~ info string',
      '## inside tilde',
      '~~~',
      '## still inside: a shorter closer does not close',
      '~~~~',
      '````markdown',
      '```',
      '# inside the outer fence',
      '```',
      '````',
      '```js `not a fence, backtick in info`',
      '## After',
      '',
    ].join('\n');
    const doc = roundTrips(text);
    expect(titles(doc)).toEqual(['1:Real', '2:After']);
    expect(doc.codeBlocks.map((b) => [b.startLine, b.endLine, b.marker])).toEqual([
      [2, 4, '```'],
      [5, 9, '~~~~'],
      [10, 14, '````'],
    ]);
    expect(doc.unclosedFence).toBeNull();
  });

  it('an unclosed fence runs to the end of the document', () => {
    const doc = roundTrips('# A\n\n```python\n# not a heading\n## nor this\n');
    expect(titles(doc)).toEqual(['1:A']);
    expect(doc.unclosedFence).toEqual({ line: 3, marker: '```' });
    expect(doc.codeBlocks[0]).toMatchObject({ startLine: 3, endLine: 5, closed: false });
  });

  it('ignores headings inside HTML comments', () => {
    const doc = roundTrips('# A\n<!--\n## hidden\n-->\n## Shown\n<!-- one line --> \n');
    expect(titles(doc)).toEqual(['1:A', '2:Shown']);
  });

  it('reads Chinese headings', () => {
    const doc = roundTrips('# 技能\n\n## 何时使用\n\n- 场景\n\n## 何时不使用\n');
    expect(titles(doc)).toEqual(['1:技能', '2:何时使用', '2:何时不使用']);
  });
});

describe('parseSkill: section extent and nesting', () => {
  const text = '---\nname: x\n---\nIntro\n# T\nt\n## A\na\n### A1\na1\n## B\nb\n# U\nu\n';
  const doc = parseSkill(text);

  it('runs a section to the next heading of the same or higher level, subsections included', () => {
    const [t, a, a1, b, u] = doc.sections;
    expect(text.slice(a!.start, a!.end)).toBe('## A\na\n### A1\na1\n');
    expect(text.slice(a!.start, a!.contentEnd)).toBe('## A\na\n');
    expect(text.slice(a1!.start, a1!.end)).toBe('### A1\na1\n');
    expect(text.slice(t!.start, t!.end)).toBe('# T\nt\n## A\na\n### A1\na1\n## B\nb\n');
    expect(text.slice(u!.start, u!.end)).toBe('# U\nu\n');
    expect([a!.line, a!.endLine, b!.line, b!.endLine]).toEqual([7, 10, 11, 12]);
    expect(doc.preamble).toBe('Intro\n');
  });

  it('records parents and builds paths', () => {
    expect(doc.sections.map((s) => s.parent)).toEqual([null, 0, 1, 0, null]);
    expect(sectionPath(doc, doc.sections[2]!)).toBe('T > A > A1');
  });

  it('normalises titles for matching', () => {
    expect(normalizeTitle('  When  to USE:  ')).toBe('when to use');
    expect(normalizeTitle('Ｗｈｅｎ ##')).toBe('when');
    expect(findSection(doc, 'a1', 'test').title).toBe('A1');
    expect(findSection(doc, '## B', 'test').title).toBe('B');
  });

  it('reports missing and ambiguous titles with the available sections, and resolves paths', () => {
    const dup = parseSkill('# X\n## Steps\n# Y\n## Steps\n');
    expect(() => findSection(dup, 'Steps', 'replace_section')).toThrow(/replace_section: section title "Steps" is ambiguous.*"X > Steps" \(line 2\).*"Y > Steps" \(line 4\)/);
    expect(findSection(dup, 'Y > Steps', 'x').line).toBe(4);
    expect(() => findSection(dup, 'Nope', 'replace_section')).toThrow(/replace_section: no section titled "Nope"\. Available sections: # X \(line 1\); ## Steps/);
  });
});

describe('parseSkill on generated documents', () => {
  // A seeded generator of awkward markdown: fences of both kinds, setext underlines, comments, CRLF and LF,
  // frontmatter delimiters in odd places, missing final newlines.
  const pieces = ['# A', '## B', '### C #', 'Para', '===', '---', '```', '````md', '~~~', '<!--', '-->', '- item', '    # code', '', 'name: x', '...', '#'];
  function generate(seed: number): string {
    let state = seed;
    const next = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state % n;
    };
    const lines = Array.from({ length: 5 + next(30) }, () => pieces[next(pieces.length)]!);
    const eols = lines.map(() => (next(4) === 0 ? '\r\n' : '\n'));
    const body = lines.map((l, i) => l + eols[i]).join('');
    return (next(5) === 0 ? '\uFEFF' : '') + (next(2) === 0 ? body : body.replace(/\r?\n$/, ''));
  }

  it('round-trips, keeps sections ordered and outside code, and replaces a section in place', () => {
    let replaced = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const text = generate(seed);
      const doc = parseSkill(text);
      expect(serializeSkill(doc), `seed ${seed}`).toBe(text);
      let last = doc.bodyStart;
      for (const s of doc.sections) {
        expect(s.start, `seed ${seed}`).toBeGreaterThanOrEqual(last);
        expect(s.bodyStart).toBeLessThanOrEqual(s.contentEnd);
        expect(s.contentEnd).toBeLessThanOrEqual(s.end);
        for (const b of doc.codeBlocks) expect(s.line < b.startLine || s.line > b.endLine, `seed ${seed}`).toBe(true);
        last = s.contentEnd;
        if (s.title === '' || matchSections(doc, s.title).length !== 1) continue;
        const out = applyEdit(text, { type: 'replace_section', section: s.title, body: 'new' });
        expect(out.slice(0, s.bodyStart), `seed ${seed}`).toBe(text.slice(0, s.bodyStart));
        expect(out.endsWith(text.slice(s.end)), `seed ${seed}`).toBe(true);
        expect(serializeSkill(parseSkill(out))).toBe(out);
        replaced++;
      }
    }
    expect(replaced).toBeGreaterThan(100);
  });
});
