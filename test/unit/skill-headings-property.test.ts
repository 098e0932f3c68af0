// The SKILL.md reader against CommonMark on generated documents, beside the hand-made corpus
// (skill-corpus.test.ts): seeded random documents built from lines that start, end or confuse blocks
// (fences, HTML blocks of every kind, quotes, list items, setext underlines, indented code, tabs, ATX
// oddities), sometimes behind a frontmatter block, a BOM or CRLF line endings. For each, the frontmatter,
// the body's start and the top-level headings parseSkill finds must be the reference's (micromark, through
// test/support/skill-reference.ts). A fixed seed: a failure names its document and stays reproducible.
import { describe, expect, it } from 'vitest';
import { parseSkill } from '../../src/skill/markdown.js';
import { reference, squash } from '../support/skill-reference.js';

const LINES = [
  '# H', '## H2 ##', '### x #', '# x \\#', '#5', '#', '#\t', '## ', '\t# tab', '   # three', 'text', 'more text', '  text', 'a\tb', 'Title',
  '', '', '', '---', '   ---', '--', '===', '==', '***', '___', '* * *', '- - -', '- ---',
  '- item', '- # li', '-', '+ plus', '1. one', '1.', '2) two', '10. ten', '1) # h', '  - nested', '\t- tab item', '-   # wide', '-     five',
  '> quote', '> # qh', '>', '> > deep', '  > quote2', '> ```', '> text', '>     code',
  '    code', '     five', '    ```', '```', '```js', '``` `x`', '~~~', '~~~~', '```` ````',
  '<pre>', '<pre class="a">', '</pre>', '</pre> x', '<script>', '</script>', '<textarea>', '<!--', '-->', '<!-- c -->', '<!-->',
  '<?php', '?>', '<? x ?>', '<!DOCTYPE html>', '<![CDATA[', ']]>', '<div>', '</div>', '<details>', '<p>', '</td>', '<x-y>', '<a href="x">', '<span>',
];
const FRONT = ['', '', '---\nname: n\n---\n', '--- \nname: n\n---  \n', '---\nname: n\n...\n', '---\n---\n', '---\n', '----\nx: 1\n----\n'];

function documents(count: number, seed: number): string[] {
  let s = seed;
  const rnd = (n: number) => Math.floor(((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648) * n);
  return Array.from({ length: count }, () => {
    const body = Array.from({ length: 2 + rnd(10) }, () => LINES[rnd(LINES.length)]!).join('\n') + (rnd(4) ? '\n' : '');
    let text = FRONT[rnd(FRONT.length)]! + body;
    if (rnd(5) === 0) text = text.replace(/\n/g, '\r\n');
    if (rnd(8) === 0) text = `\uFEFF${text}`;
    return text;
  });
}

describe('parseSkill on generated documents', () => {
  it('finds the frontmatter and the top-level headings CommonMark finds, in every one', () => {
    const wrong: string[] = [];
    for (const text of documents(3000, 20261204)) {
      const ref = reference(text);
      const doc = parseSkill(text);
      const ours = { yaml: doc.frontmatter ? doc.frontmatter.yaml.replace(/\r\n/g, '\n').replace(/\n$/, '') : null, body: doc.bodyStart, headings: doc.sections.map((s) => `${s.line} h${s.level}: ${squash(s.title)}`) };
      const theirs = { yaml: ref.yaml === null ? null : ref.yaml.replace(/\r\n/g, '\n'), body: ref.bodyStart, headings: ref.headings };
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) wrong.push(`${JSON.stringify(text)}\n  ours ${JSON.stringify(ours)}\n  ref  ${JSON.stringify(theirs)}`);
    }
    expect(wrong.slice(0, 5).join('\n'), `${wrong.length} of 3000 differ`).toBe('');
  }, 60_000);
});
