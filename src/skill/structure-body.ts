// Dimensions about the body as a whole: it is short enough to load every time the skill triggers
// (body_length), and no code fence is left open (fences_closed: an open fence silently turns every later
// heading and instruction into code).
//
// body_length's candidate fixes bring the body under the limit in one edit, least disruptive first. Each moves
// detail out to a references/ file and leaves a pointer (progressive disclosure); writing the reference file
// is the generator's job, which each edit's `reason` says. Candidates, in order:
//  1. one section (never the title section that holds all the others), the smallest that is big enough;
//  2. a run of trailing sibling sections (later sections are usually the reference-like ones), replaced by
//     one "Further reference" section that lists what moved;
//  3. for a body with no usable headings, its tail, cut outside code blocks.
import type { EditAction } from './edits.js';
import type { Section, SkillDocument } from './markdown.js';
import { splitLines } from './lines.js';
import { bodyLines, documentLanguage, MAX_BODY_LINES, type Check } from './structure-common.js';
import { matchSections } from './sections.js';
import { uniquePath } from './structure-sections.js';

export const bodyLength: Check = {
  id: 'body_length',
  measure(doc) {
    const n = bodyLines(doc).length;
    if (n <= MAX_BODY_LINES) return { score: 1, finding: `body is ${n} lines (guidance: under ${MAX_BODY_LINES})` };
    return {
      score: Math.max(0, 1 - (n - MAX_BODY_LINES) / MAX_BODY_LINES),
      finding: `body is ${n} lines, over the ${MAX_BODY_LINES}-line guidance: move detail into references/ files and point to them`,
    };
  },
  fixes(doc) {
    const excess = bodyLines(doc).length - MAX_BODY_LINES;
    return excess > 0 ? shorteningFixes(doc, excess) : [];
  },
};

export const fencesClosed: Check = {
  id: 'fences_closed',
  measure(doc) {
    const open = doc.unclosedFence;
    if (!open) return { score: 1, finding: `${doc.codeBlocks.length} code fence(s), all closed` };
    return { score: 0, finding: `the code fence ${open.marker} opened at line ${open.line} is never closed, so everything after it reads as code` };
  },
  fixes(doc) {
    const open = doc.unclosedFence;
    if (!open) return [];
    return [{ type: 'append_text', text: open.marker[0]!.repeat(open.marker.length), reason: 'close the code fence left open' }];
  },
};

const MAX_CANDIDATES = 8;
const REASON = 'move this detail to a references/ file (progressive disclosure); write that file with this edit';

export function shorteningFixes(doc: SkillDocument, excess: number): EditAction[] {
  const out: EditAction[] = [];
  const linesOf = (from: number, to: number): number => splitLines(doc.text, from, to).length;
  const holdsAll = (s: Section): boolean => s.start === doc.sections[0]?.start && s.end === doc.text.length && doc.sections.length > 1;
  const singles = doc.sections
    .filter((s) => !holdsAll(s) && linesOf(s.bodyStart, s.end) > excess + 3)
    .sort((a, b) => linesOf(a.start, a.end) - linesOf(b.start, b.end));
  for (const s of singles.slice(0, MAX_CANDIDATES)) {
    const path = uniquePath(doc, s);
    if (path) out.push({ type: 'replace_section', section: path, body: pointer(slugOf(s.title)), reason: REASON });
  }
  const runs = trailingRuns(doc, excess, linesOf).slice(0, MAX_CANDIDATES);
  for (const run of runs) out.push(runFix(doc, run));
  const tail = tailFix(doc, excess);
  if (tail) out.push(tail);
  return out;
}

/** For each parent (and the top level), the shortest run of its last children long enough to remove. */
function trailingRuns(doc: SkillDocument, excess: number, linesOf: (a: number, b: number) => number): Section[][] {
  const parents: Array<number | null> = [null, ...doc.sections.map((s) => s.index)];
  const runs: Array<{ run: Section[]; lines: number }> = [];
  for (const p of parents) {
    const children = doc.sections.filter((s) => s.parent === p);
    for (let j = children.length - 1; j >= 0; j--) {
      const run = children.slice(j);
      const lines = linesOf(run[0]!.start, run[run.length - 1]!.end);
      if (p === null && j === 0) break;
      if (lines > excess + 6) {
        runs.push({ run, lines });
        break;
      }
    }
  }
  return runs.sort((a, b) => a.lines - b.lines).map((r) => r.run);
}

function runFix(doc: SkillDocument, run: Section[]): EditAction {
  const first = run[0]!;
  const last = run[run.length - 1]!;
  const zh = documentLanguage(doc) === 'zh';
  let title = zh ? '延伸参考' : 'Further reference';
  for (let n = 2; matchSections(doc, title).length > 0; n++) title = `${zh ? '延伸参考' : 'Further reference'} (${n})`;
  const moved = run.map((s) => s.title).join('; ');
  const body = `${pointer('details')} Moved sections: ${moved}.`;
  const atEof = last.end === doc.text.length;
  const ending = atEof ? (doc.finalNewline ? '\n' : '') : '\n\n';
  const find = doc.text.slice(first.start, last.end);
  return { type: 'replace_text', find, replace: `${'#'.repeat(first.level)} ${title}\n\n${body}${ending}`, occurrence: occurrenceAt(doc, find, first.start), reason: REASON };
}

function tailFix(doc: SkillDocument, excess: number): EditAction | null {
  const lines = bodyLines(doc);
  let cut = lines.length - (excess + 2);
  if (cut < 1) return null;
  const at = lines[cut]!.number;
  const block = doc.codeBlocks.find((b) => b.startLine < at && at <= b.endLine);
  if (block) cut = lines.findIndex((l) => l.number === block.startLine);
  const start = lines[cut]?.start;
  if (start === undefined || start <= doc.bodyStart) return null;
  const find = doc.text.slice(start);
  const replace = pointer('details') + (doc.finalNewline ? '\n' : '');
  return { type: 'replace_text', find, replace, occurrence: occurrenceAt(doc, find, start), reason: REASON };
}

function pointer(slug: string): string {
  return `Moved to [references/${slug}.md](references/${slug}.md); read it when [the situation that needs this detail].`;
}

function slugOf(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '') || 'details';
}

/** Which occurrence (1-based) of `find` starts at `start`, for replace_text. */
function occurrenceAt(doc: SkillDocument, find: string, start: number): number {
  let n = 0;
  for (let i = doc.text.indexOf(find); i !== -1 && i <= start; i = doc.text.indexOf(find, i + 1)) n++;
  return n;
}
