// Where a new section goes and how it is separated from its neighbours. Insertion never edits existing
// bytes: it only adds a blank line before the new heading when the text above does not already end with
// one, and a blank line after the new section when another heading follows.
import { endsWithBlankLine, type Eol } from './lines.js';
import type { SkillDocument } from './markdown.js';

/** `## Title`, a blank line and the body (no trailing line ending); just the heading when body is empty. */
export function sectionBlock(title: string, level: number, body: string, eol: Eol): string {
  const heading = `${'#'.repeat(level)} ${title}`;
  return body === '' ? heading : heading + eol + eol + body;
}

/**
 * Inserts `block` at `at`, which is the start of a line (a heading's first line) or the end of the text.
 * At the end, the document keeps its convention for a final newline (none stays none).
 */
export function separatedInsert(doc: SkillDocument, at: number, block: string): string {
  const { text, eol } = doc;
  const before = text.slice(0, at);
  const after = text.slice(at);
  let pre = '';
  if (before.length > doc.bom.length) {
    if (!before.endsWith('\n')) pre += eol;
    if (!endsWithBlankLine(before + pre)) pre += eol;
  }
  if (after.length > 0) return before + pre + block + eol + eol + after;
  const emptyBody = text.length === doc.bodyStart;
  return before + pre + block + (doc.finalNewline || emptyBody ? eol : '');
}
