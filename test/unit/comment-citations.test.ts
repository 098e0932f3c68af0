// Comments that resolve (issue 43): a comment in src/, stages/, scripts/ or test/ that cites a document
// cites a file in this repository, and a heading that file has — never a design note kept elsewhere.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { citationProblems, citationsIn, commentRuns } from '../support/comment-citations.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SOURCE = /\.(?:ts|cts|mts|js|mjs|cjs)$/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sources(path);
    if (SOURCE.test(e.name)) return [path];
    // Executables the tests put on PATH: comments in node scripts count too.
    return readFileSync(path, 'utf8').startsWith('#!/usr/bin/env node') ? [path] : [];
  });
}

describe('comment citations', () => {
  it('every document a comment cites is a file of the repository, with the heading it names', () => {
    const files = ['src', 'stages', 'scripts', 'test'].flatMap((d) => sources(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(500);
    const problems = files.flatMap((f) =>
      citationProblems(readFileSync(f, 'utf8'), ROOT).map((p) => `${relative(ROOT, f)}:${p}`),
    );
    expect(problems).toEqual([]);
  });

  it('fails on a file that is not in the repository, or a heading the file lacks', () => {
    const source = [
      '// The cache (DESIGN.md "The cache"): why it is keyed so.',
      'const x = 1; // see METHOD.md step 6',
      '/** Thresholds (docs/method.md: Thresholds fixed after results). */',
      '/*',
      ' * docs/no-such-page.md explains it.',
      ' */',
      '// A wrapped one: (docs/method.md:',
      '// Calibrating a judge) resolves; docs/reference/engines.md "The mock engine" too.',
    ].join('\n');
    expect(citationProblems(source, ROOT)).toEqual([
      '1: DESIGN.md is not a file in the repository',
      '2: METHOD.md is not a file in the repository',
      '3: docs/method.md has no heading "Thresholds fixed after results"',
      '4: docs/no-such-page.md is not a file in the repository',
    ]);
  });

  it('leaves alone another project\'s files, kinds of file and text outside comments', () => {
    const source = [
      '// openai/codex docs/exec.md "JSON output mode"; a skill\'s SKILL.md and CLAUDE.md; notes/SKILL.md',
      "const page = 'DESIGN.md'; const url = 'https://example.com/x.md';",
    ].join('\n');
    expect(citationProblems(source, ROOT)).toEqual([]);
    expect(commentRuns(source).map((r) => r.line)).toEqual([1]);
    expect(citationsIn('(AGENTS.md; docs/method.md: Never)', ROOT)).toEqual([
      { path: 'AGENTS.md', heading: undefined },
      { path: 'docs/method.md', heading: 'Never' },
    ]);
  });
});
