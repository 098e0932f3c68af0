// Edit actions: the only way the improvement loop changes a SKILL.md. Each is data (zod-validated, so a
// generator's JSON can be checked before use), applied purely (text in, text out), and touches only its
// target region: every byte before and after that region is kept. Inserted text takes the document's
// dominant line ending. Failures (unknown or ambiguous section, text not found) are ConfigErrors that name
// the action, the missing title, and the titles that do exist.
//
// Semantics, all relative to a section's extent (heading through the line before the next heading of the same
// or a higher level, i.e. including subsections):
//  - append_section: a new section at the end of the document, or, with `after`, right after that section's
//    extent. Level defaults to 2 at the end of the document and to the `after` section's level (a next
//    sibling); pass a deeper level to make it that section's last child.
//  - insert_before_section: a new section just before the named one's heading; level defaults to its level.
//  - replace_section: keeps the heading line(s), replaces the rest of the extent, subsections included,
//    unless keep_subsections is true (then only the text before the first subheading is replaced).
//  - update_frontmatter: see frontmatter.ts.
//  - replace_text: one exact span anywhere in the file; must occur once, or `occurrence` (1-based) says which.
//  - append_text: raw text at the very end (e.g. the closing fence of an unclosed code block).
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { updateFrontmatter, type YamlValue } from './frontmatter.js';
import { endsWithBlankLine, lineAt, withEol, type Eol } from './lines.js';
import { matchSections, findSection } from './sections.js';
import { normalizeTitle, parseSkill, type SkillDocument } from './markdown.js';

const title = z.string().trim().min(1).refine((s) => !/[\r\n]/.test(s), 'must be a single line');
const level = z.number().int().min(1).max(6);
const reason = z.string().optional();
const yamlValue: z.ZodType<YamlValue> = z.lazy(() =>
  z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(yamlValue), z.record(z.string(), yamlValue)]),
);

export const EditActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('append_section'), heading: title, level: level.optional(), body: z.string(), after: title.optional(), reason }),
  z.object({ type: z.literal('insert_before_section'), section: title, heading: title, level: level.optional(), body: z.string(), reason }),
  z.object({ type: z.literal('replace_section'), section: title, body: z.string(), keep_subsections: z.boolean().optional(), reason }),
  z.object({
    type: z.literal('update_frontmatter'),
    set: z.record(z.string().min(1), yamlValue).optional(),
    remove: z.array(z.string().min(1)).optional(),
    reason,
  }),
  z.object({ type: z.literal('replace_text'), find: z.string().min(1), replace: z.string(), occurrence: z.number().int().min(1).optional(), reason }),
  z.object({ type: z.literal('append_text'), text: z.string().min(1), reason }),
]);

export type EditAction = z.infer<typeof EditActionSchema>;
export type EditActionType = EditAction['type'];

/** Validates unknown input (a generator's JSON) as an edit action; ConfigError listing the problems if not. */
export function parseEditAction(input: unknown): EditAction {
  const r = EditActionSchema.safeParse(input);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => `${i.path.join('.') || '(action)'}: ${i.message}`).join('; ');
  throw new ConfigError(`invalid edit action: ${problems}`);
}

export function applyEdit(text: string, action: EditAction): string {
  const doc = parseSkill(text);
  const out = applyTo(doc, action);
  // A fence left open by new text would silently turn the rest of the document into code.
  const opened = doc.unclosedFence === null ? parseSkill(out).unclosedFence : null;
  if (opened) throw new ConfigError(`${action.type}: the new text opens a code fence (${opened.marker} at line ${opened.line}) that is never closed`);
  return out;
}

function applyTo(doc: SkillDocument, action: EditAction): string {
  const text = doc.text;
  switch (action.type) {
    case 'append_section': {
      const anchor = action.after === undefined ? null : findSection(doc, action.after, 'append_section');
      const at = anchor ? anchor.end : text.length;
      return insertSection(doc, at, action.heading, action.level, anchor?.level ?? 2, action.body, action.type);
    }
    case 'insert_before_section': {
      const target = findSection(doc, action.section, action.type);
      return insertSection(doc, target.start, action.heading, action.level, target.level, action.body, action.type);
    }
    case 'replace_section': {
      const target = findSection(doc, action.section, action.type);
      const end = action.keep_subsections ? target.contentEnd : target.end;
      return text.slice(0, target.bodyStart) + sectionContent(doc, target.heading, end, action.body) + text.slice(end);
    }
    case 'update_frontmatter':
      return updateFrontmatter(doc, action.set ?? {}, action.remove ?? []);
    case 'replace_text':
      return replaceText(doc, action.find, action.replace, action.occurrence);
    case 'append_text': {
      const lead = text.length > 0 && !text.endsWith('\n') ? doc.eol : '';
      const added = withEol(action.text, doc.eol).replace(/(?:\r?\n)+$/, '');
      return text + lead + added + (doc.finalNewline || text.length === 0 ? doc.eol : '');
    }
  }
}

/** New text between a kept heading and `end`: a blank line, the body, and a blank line before what follows. */
function sectionContent(doc: SkillDocument, heading: string, end: number, rawBody: string): string {
  const atEof = end === doc.text.length;
  const lead = heading.endsWith('\n') ? '' : doc.eol;
  const body = normalizeBody(rawBody, doc);
  if (body === '') return atEof ? '' : lead + doc.eol;
  if (!atEof) return lead + doc.eol + body + doc.eol + doc.eol;
  return lead + doc.eol + body + (doc.finalNewline ? doc.eol : '');
}

/** Applies actions in order; an error names the action's position. */
export function applyEdits(text: string, actions: readonly EditAction[]): string {
  return actions.reduce((t, a, i) => {
    try {
      return applyEdit(t, a);
    } catch (e) {
      if (e instanceof ConfigError && actions.length > 1) throw new ConfigError(`edit ${i + 1} of ${actions.length}: ${e.message}`);
      throw e;
    }
  }, text);
}

function insertSection(
  doc: SkillDocument,
  at: number,
  heading: string,
  level: number | undefined,
  defaultLevel: number,
  body: string,
  action: string,
): string {
  const { title, level: fromHashes } = splitHeading(heading);
  const finalLevel = level ?? fromHashes ?? defaultLevel;
  if (matchSections(doc, title).length > 0) {
    throw new ConfigError(`${action}: a section titled "${title}" already exists; use replace_section to change it`);
  }
  if (doc.unclosedFence && at >= doc.text.length) {
    throw new ConfigError(
      `${action}: the code fence opened at line ${doc.unclosedFence.line} is never closed, so a heading appended at the end would be code; close it first (append_text "${doc.unclosedFence.marker}")`,
    );
  }
  const block = sectionBlock(title, finalLevel, normalizeBody(body, doc), doc.eol);
  const out = separatedInsert(doc, at, block);
  const check = parseSkill(out).sections.filter((s) => s.key === normalizeTitle(title) && s.level === finalLevel);
  if (check.length !== 1) throw new ConfigError(`${action}: heading "${title}" would not read back as a level-${finalLevel} heading`);
  return out;
}

/** "## Title" in a heading field gives its level from the #s when `level` is not given. */
function splitHeading(heading: string): { title: string; level: number | undefined } {
  const m = /^(#{1,6})[ \t]+(.*)$/.exec(heading.trim());
  return m ? { title: m[2]!.trim(), level: m[1]!.length } : { title: heading.trim(), level: undefined };
}

/** `## Title`, a blank line and the body (no trailing line ending); just the heading when body is empty. */
function sectionBlock(title: string, level: number, body: string, eol: Eol): string {
  const heading = `${'#'.repeat(level)} ${title}`;
  return body === '' ? heading : heading + eol + eol + body;
}

/**
 * Inserts `block` at `at`, the start of a heading's line or the end of the text. Existing bytes are never
 * edited: a blank line is added above the new heading unless the text above already ends with one, and one
 * below when another heading follows. At the end, the document keeps its final-newline convention.
 */
function separatedInsert(doc: SkillDocument, at: number, block: string): string {
  const { text, eol } = doc;
  const before = text.slice(0, at);
  const after = text.slice(at);
  let pre = '';
  if (before.length > doc.bom.length) {
    if (!before.endsWith('\n')) pre += eol;
    if (!endsWithBlankLine(before + pre)) pre += eol;
  }
  if (after.length > 0) return before + pre + block + eol + eol + after;
  // An empty body has no last line whose missing newline could be kept.
  const emptyBody = text.length === doc.bodyStart;
  return before + pre + block + (doc.finalNewline || emptyBody ? eol : '');
}

/** Body text in the document's line ending, without leading or trailing blank lines or a final newline. */
function normalizeBody(body: string, doc: SkillDocument): string {
  const lines = withEol(body, '\n').split('\n');
  while (lines.length > 0 && lines[0]!.trim() === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  // Trailing spaces inside the body stay: two of them are a markdown line break.
  return lines.join(doc.eol);
}

function replaceText(doc: SkillDocument, find: string, replace: string, occurrence: number | undefined): string {
  const text = doc.text;
  let needle = find;
  let hits = occurrencesOf(text, needle);
  if (hits.length === 0 && doc.eol === '\r\n' && /(?<!\r)\n/.test(find)) {
    needle = withEol(find, '\r\n');
    hits = occurrencesOf(text, needle);
  }
  const shown = find.length > 60 ? `${find.slice(0, 57)}...` : find;
  if (hits.length === 0) throw new ConfigError(`replace_text: text not found: ${JSON.stringify(shown)}`);
  if (occurrence === undefined && hits.length > 1) {
    const lines = hits.slice(0, 10).map((h) => lineAt(text, h)).join(', ');
    throw new ConfigError(`replace_text: text is ambiguous, found ${hits.length} times (lines ${lines}); set occurrence: ${JSON.stringify(shown)}`);
  }
  const at = hits[(occurrence ?? 1) - 1];
  if (at === undefined) throw new ConfigError(`replace_text: occurrence ${occurrence} requested but the text occurs ${hits.length} time(s)`);
  return text.slice(0, at) + withEol(replace, doc.eol) + text.slice(at + needle.length);
}

function occurrencesOf(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) out.push(i);
  return out;
}
