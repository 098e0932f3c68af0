import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { applyEdit, applyEdits, parseEditAction, type EditAction } from '../../src/skill/edits.js';
import { parseSkill } from '../../src/skill/markdown.js';

const DOC = ['---', 'name: demo', '---', '# Demo', '', 'Intro.', '', '## When to Use', '', '- a', '', '### Detail', '', 'd', '', '## Steps', '', '1. one', ''].join('\n');

describe('replace_section', () => {
  it('keeps the heading and replaces the whole extent, subsections included', () => {
    const out = applyEdit(DOC, { type: 'replace_section', section: 'when to use', body: 'New body.\n' });
    expect(out).toBe(DOC.replace('- a\n\n### Detail\n\nd\n\n', 'New body.\n\n'));
  });

  it('keep_subsections replaces only the text before the first subheading', () => {
    const out = applyEdit(DOC, { type: 'replace_section', section: 'When to Use', body: 'Only mine.', keep_subsections: true });
    expect(out).toBe(DOC.replace('- a\n\n### Detail', 'Only mine.\n\n### Detail'));
  });

  it('replaces the last section and keeps the absence of a final newline', () => {
    const text = '# A\n\nold\n## B\nold b';
    expect(applyEdit(text, { type: 'replace_section', section: 'B', body: 'new b\n\n' })).toBe('# A\n\nold\n## B\n\nnew b');
    expect(applyEdit('# A\nx\n', { type: 'replace_section', section: 'A', body: '' })).toBe('# A\n');
    expect(applyEdit('# A', { type: 'replace_section', section: 'A', body: 'b' })).toBe('# A\n\nb');
  });

  it('keeps markdown line breaks (two trailing spaces) but drops blank lines around the body', () => {
    expect(applyEdit('# A\nold\n', { type: 'replace_section', section: 'A', body: '\n\nfirst  \nsecond\n\n\n' })).toBe('# A\n\nfirst  \nsecond\n');
  });

  it('keeps a setext heading whole', () => {
    const text = 'Title\n=====\nold\n\nSub\n---\nsub body\n';
    expect(applyEdit(text, { type: 'replace_section', section: 'Title', body: 'new' })).toBe('Title\n=====\n\nnew\n');
    expect(applyEdit(text, { type: 'replace_section', section: 'Sub', body: 'new' })).toBe('Title\n=====\nold\n\nSub\n---\n\nnew\n');
  });

  it('writes CRLF into a CRLF document', () => {
    const text = '# A\r\n\r\nold\r\n# B\r\nb\r\n';
    const out = applyEdit(text, { type: 'replace_section', section: 'A', body: 'line 1\nline 2' });
    expect(out).toBe('# A\r\n\r\nline 1\r\nline 2\r\n\r\n# B\r\nb\r\n');
    expect(out.replace(/\r\n/g, '')).not.toMatch(/\n/);
  });

  it('errors with the action, the title and the available sections; duplicates need a path', () => {
    const err = catchError(() => applyEdit(DOC, { type: 'replace_section', section: 'Output', body: 'x' }));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toContain('replace_section: no section titled "Output"');
    expect(err.message).toContain('## When to Use (line 8)');
    const dup = '# A\n## Notes\none\n# B\n## Notes\ntwo\n';
    expect(() => applyEdit(dup, { type: 'replace_section', section: 'Notes', body: 'x' })).toThrow(/ambiguous.*matches 2 sections/);
    expect(applyEdit(dup, { type: 'replace_section', section: 'B > Notes', body: 'x' })).toBe('# A\n## Notes\none\n# B\n## Notes\n\nx\n');
  });
});

describe('append_section and insert_before_section', () => {
  it('appends at the end with a blank line before, at level 2 by default', () => {
    expect(applyEdit('# A\ntext\n', { type: 'append_section', heading: 'Output', body: 'o' })).toBe('# A\ntext\n\n## Output\n\no\n');
    expect(applyEdit('# A\ntext', { type: 'append_section', heading: 'Output', body: 'o', level: 3 })).toBe('# A\ntext\n\n### Output\n\no');
    expect(applyEdit('', { type: 'append_section', heading: 'First', body: '' })).toBe('## First\n');
    // An empty body has no last line whose missing newline could be kept, so the new section ends with one.
    expect(applyEdit('---\nname: x\n---', { type: 'append_section', heading: 'A', body: 'b' })).toBe('---\nname: x\n---\n\n## A\n\nb\n');
  });

  it('with `after`, goes right after that section and its subsections, as a sibling by default', () => {
    const out = applyEdit(DOC, { type: 'append_section', heading: 'When NOT to Use', after: 'When to Use', body: '- b' });
    expect(out).toBe(DOC.replace('d\n\n## Steps', 'd\n\n## When NOT to Use\n\n- b\n\n## Steps'));
    const child = applyEdit(DOC, { type: 'append_section', heading: 'More', after: 'When to Use', level: 3, body: 'm' });
    expect(parseSkill(child).sections.find((s) => s.title === 'More')?.parent).toBe(1);
  });

  it('inserts before a section at its level, and takes the level from #s in the heading', () => {
    const out = applyEdit(DOC, { type: 'insert_before_section', section: 'Steps', heading: 'Output', body: 'o' });
    expect(out).toBe(DOC.replace('## Steps', '## Output\n\no\n\n## Steps'));
    const deeper = applyEdit(DOC, { type: 'insert_before_section', section: 'Detail', heading: '#### Deep', body: '' });
    expect(deeper).toBe(DOC.replace('### Detail', '#### Deep\n\n### Detail'));
    const explicit = applyEdit(DOC, { type: 'insert_before_section', section: 'Detail', heading: '#### Deep', level: 3, body: '' });
    expect(explicit).toBe(DOC.replace('### Detail', '### Deep\n\n### Detail'));
    expect(() => applyEdit(DOC, { type: 'append_section', heading: '#', body: '' })).toThrow(/would not read back/);
  });

  it('separates from a paragraph with no blank line, and uses CRLF in a CRLF file with a BOM', () => {
    expect(applyEdit('# A\npara\n## B\n', { type: 'insert_before_section', section: 'B', heading: 'N', body: 'n' })).toBe('# A\npara\n\n## N\n\nn\n\n## B\n');
    const text = '\uFEFF# A\r\n\r\nx\r\n';
    expect(applyEdit(text, { type: 'append_section', heading: 'B', body: 'one\ntwo\n' })).toBe('\uFEFF# A\r\n\r\nx\r\n\r\n## B\r\n\r\none\r\ntwo\r\n');
  });

  it('refuses new text that leaves a code fence open', () => {
    expect(() => applyEdit(DOC, { type: 'replace_section', section: 'When to Use', body: '```js\nx' })).toThrow(/opens a code fence \(``` at line 10\) that is never closed/);
    expect(() => applyEdit(DOC, { type: 'replace_text', find: '1. one', replace: '~~~' })).toThrow(/never closed/);
    expect(applyEdit(DOC, { type: 'replace_section', section: 'Steps', body: '```js\nx\n```' })).toContain('## Steps\n\n```js\nx\n```\n');
  });

  it('refuses a duplicate title and appending into an unclosed fence', () => {
    expect(() => applyEdit(DOC, { type: 'append_section', heading: 'steps', body: '' })).toThrow(/already exists/);
    expect(() => applyEdit('# A\n```\ncode\n', { type: 'append_section', heading: 'B', body: '' })).toThrow(/never closed.*append_text/);
  });
});

describe('replace_text and append_text', () => {
  it('replaces one exact span and refuses ambiguity without `occurrence`', () => {
    expect(applyEdit('a x b x', { type: 'replace_text', find: 'x', replace: 'y', occurrence: 2 })).toBe('a x b y');
    expect(() => applyEdit('a x\nb x', { type: 'replace_text', find: 'x', replace: 'y' })).toThrow(/ambiguous, found 2 times \(lines 1, 2\)/);
    expect(() => applyEdit('abc', { type: 'replace_text', find: 'zzz', replace: 'y' })).toThrow(/replace_text: text not found/);
    expect(() => applyEdit('abc', { type: 'replace_text', find: 'b', replace: 'y', occurrence: 2 })).toThrow(/occurs 1 time/);
  });

  it('matches LF text against a CRLF document and writes CRLF', () => {
    expect(applyEdit('a\r\nb\r\nc\r\n', { type: 'replace_text', find: 'a\nb', replace: 'x\ny' })).toBe('x\r\ny\r\nc\r\n');
  });

  it('append_text adds at the very end and keeps the final-newline convention', () => {
    expect(applyEdit('# A\n```\ncode\n', { type: 'append_text', text: '```' })).toBe('# A\n```\ncode\n```\n');
    expect(applyEdit('x', { type: 'append_text', text: 'y\n' })).toBe('x\ny');
  });
});

describe('action validation and sequencing', () => {
  it('parses valid actions and rejects malformed ones with the field named', () => {
    expect(parseEditAction({ type: 'replace_text', find: 'a', replace: 'b' })).toEqual({ type: 'replace_text', find: 'a', replace: 'b' });
    expect(parseEditAction({ type: 'update_frontmatter', remove: ['x'] })).toEqual({ type: 'update_frontmatter', remove: ['x'] });
    expect(parseEditAction({ type: 'append_section', heading: '  Output  ', body: '' })).toEqual({ type: 'append_section', heading: 'Output', body: '' });
    expect(() => parseEditAction({ type: 'append_section', heading: 'a\nb', body: '' })).toThrow(/heading: must be a single line/);
    expect(() => parseEditAction({ type: 'replace_section', section: 'A' })).toThrow(/body/);
    expect(() => parseEditAction({ type: 'delete_everything' })).toThrow(ConfigError);
    expect(() => parseEditAction({ type: 'append_section', heading: 'A', body: '', level: 7 })).toThrow(/level/);
  });

  it('applies edits in order and names the failing one', () => {
    const actions: EditAction[] = [
      { type: 'append_section', heading: 'Output', body: 'o' },
      { type: 'replace_section', section: 'Output', body: 'p' },
    ];
    expect(applyEdits('# A\n', actions)).toBe('# A\n\n## Output\n\np\n');
    expect(() => applyEdits('# A\n', [actions[0]!, { type: 'replace_section', section: 'Missing', body: '' }])).toThrow(/^edit 2 of 2: replace_section/);
  });
});

function catchError(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}
