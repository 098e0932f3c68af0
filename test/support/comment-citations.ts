// What a comment cites: every markdown path a comment names in this repository must be a file in it, and a
// heading it names (`(docs/method.md: <heading>)`, `docs/<page>.md "<heading>"`) must be a heading of it. A
// reader who clones the repository follows each citation somewhere. Another project's file is cited with
// its repository in front (`openai/codex docs/exec.md`) and is not looked for here; names that stand for a
// kind of file (a skill's SKILL.md, Claude Code's CLAUDE.md) are not citations.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** File names that name a kind of file a user has, never a document of this repository. */
const FILE_KINDS = new Set(['SKILL.md', 'CLAUDE.md']);

export interface Citation {
  line: number;
  path: string;
  heading?: string;
}

/** Comment text of a source file, one entry per run of comment lines (joined, so a wrapped citation reads whole). */
export function commentRuns(source: string): { line: number; text: string }[] {
  const runs: { line: number; text: string }[] = [];
  let current: { line: number; parts: string[] } | undefined;
  let inBlock = false;
  const flush = () => {
    if (current) runs.push({ line: current.line, text: current.parts.join(' ') });
    current = undefined;
  };
  source.split('\n').forEach((raw, i) => {
    let text: string | undefined;
    const line = raw.trim();
    if (inBlock) {
      text = line.replace(/^\*+\s?/, '');
      if (line.includes('*/')) { inBlock = false; text = text.slice(0, text.indexOf('*/')); }
    } else if (line.startsWith('//')) {
      text = line.replace(/^\/\/+\s?/, '');
    } else if (line.startsWith('/*')) {
      flush();
      text = line.replace(/^\/\*+\s?/, '');
      if (text.includes('*/')) text = text.slice(0, text.indexOf('*/'));
      else inBlock = true;
    } else {
      const at = trailingComment(raw);
      if (at >= 0) { flush(); runs.push({ line: i + 1, text: raw.slice(at + 2).trim() }); return; }
    }
    if (text === undefined) { flush(); return; }
    if (!current) current = { line: i + 1, parts: [] };
    current.parts.push(text);
  });
  flush();
  return runs;
}

/** Where a ` // ` comment starts after code on a line, outside any string; -1 when none does. */
function trailingComment(line: string): number {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '/' && line[i + 1] === '/' && /\s/.test(line[i - 1] ?? '')) return i;
  }
  return -1;
}

/** Every in-repository markdown citation in a comment text. */
export function citationsIn(text: string, root: string): Omit<Citation, 'line'>[] {
  const found: Omit<Citation, 'line'>[] = [];
  for (const m of text.matchAll(/(?<![\w./-])((?:[\w.-]+\/)*[\w.-]+\.md)(?![\w-])/g)) {
    const path = m[1]!;
    const before = text.slice(0, m.index);
    if (/[\w.-]+\/[\w.-]+(?:'s)?\s+$/.test(before)) continue; // another project's file: owner/repo path
    const first = path.split('/')[0]!;
    const ours = path.includes('/')
      ? existsSync(join(root, first)) && statSync(join(root, first)).isDirectory()
      : /^[A-Z][A-Z0-9_-]*\.md$/.test(path) && !FILE_KINDS.has(path);
    if (!ours) continue;
    const after = text.slice(m.index + path.length);
    const open = (before.match(/\(/g)?.length ?? 0) > (before.match(/\)/g)?.length ?? 0);
    const colon = open ? /^:\s*([^\s<"“(][^);]*?)\s*[);]/.exec(after) : null;
    const quoted = /^,?\s*\(?"([^"]+)"/.exec(after);
    found.push({ path, heading: (colon ?? quoted)?.[1] });
  }
  return found;
}

/** The headings of a markdown file, backticks and trailing punctuation as written. */
function headings(file: string): Set<string> {
  const out = new Set<string>();
  for (const m of readFileSync(file, 'utf8').matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    out.add(m[1]!);
    out.add(m[1]!.replaceAll('`', ''));
  }
  return out;
}

/** A heading cited by its words, or by the words before its parenthesis (AGENTS.md: Layers). */
function hasHeading(all: Set<string>, cited: string): boolean {
  return all.has(cited) || [...all].some((h) => h.startsWith(`${cited} (`));
}

/** What is wrong with a file's citations: a missing file, or a heading its file does not have. */
export function citationProblems(source: string, root: string): string[] {
  const problems: string[] = [];
  for (const run of commentRuns(source)) {
    for (const c of citationsIn(run.text, root)) {
      const file = join(root, c.path);
      if (!existsSync(file)) problems.push(`${run.line}: ${c.path} is not a file in the repository`);
      else if (c.heading !== undefined && !hasHeading(headings(file), c.heading)) {
        problems.push(`${run.line}: ${c.path} has no heading "${c.heading}"`);
      }
    }
  }
  return problems;
}
