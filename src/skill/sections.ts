// Looking sections up by title, the way edit actions name them. A title is matched after normalisation
// (normalizeTitle). When a title occurs more than once, a path of ancestor titles joined by " > "
// ("Mode A > Steps") picks one; anything still ambiguous is an error, never a guess.
import { ConfigError } from '../core/errors.js';
import { normalizeTitle, type Section, type SkillDocument } from './markdown.js';

/** Sections whose title, or whose "ancestor > … > title" path, matches `query`. */
export function matchSections(doc: SkillDocument, query: string): Section[] {
  const key = normalizeTitle(query.replace(/^ {0,3}#{1,6}[ \t]+/, ''));
  const direct = doc.sections.filter((s) => s.key === key);
  if (direct.length > 0 || !query.includes('>')) return direct;
  const parts = query.split('>').map((p) => normalizeTitle(p)).filter((p) => p.length > 0);
  return doc.sections.filter((s) => pathEndsWith(doc, s, parts));
}

/** The one section `query` names; a ConfigError naming the action and the available titles otherwise. */
export function findSection(doc: SkillDocument, query: string, action: string): Section {
  const hits = matchSections(doc, query);
  if (hits.length === 1) return hits[0]!;
  if (hits.length === 0) {
    throw new ConfigError(`${action}: no section titled "${query}". Available sections: ${listTitles(doc)}`);
  }
  const where = hits.map((s) => `"${sectionPath(doc, s)}" (line ${s.line})`).join(', ');
  throw new ConfigError(
    `${action}: section title "${query}" is ambiguous, it matches ${hits.length} sections: ${where}. ` +
      `Name one by its path, e.g. "${sectionPath(doc, hits[0]!)}".`,
  );
}

/** "Parent > Child" for a section, the form findSection accepts to disambiguate. */
export function sectionPath(doc: SkillDocument, s: Section): string {
  const parts = [s.title];
  for (let p = s.parent; p !== null; p = doc.sections[p]!.parent) parts.unshift(doc.sections[p]!.title);
  return parts.join(' > ');
}

/** Every section as `## Title (line N)`, for error messages; long lists are cut with a count. */
export function listTitles(doc: SkillDocument, max = 40): string {
  if (doc.sections.length === 0) return '(the document has no headings)';
  const shown = doc.sections.slice(0, max).map((s) => `${'#'.repeat(s.level)} ${s.title} (line ${s.line})`);
  const more = doc.sections.length > max ? `; and ${doc.sections.length - max} more` : '';
  return shown.join('; ') + more;
}

/** The section that contains an offset at the deepest level, or null (preamble, frontmatter). */
export function sectionAt(doc: SkillDocument, offset: number): Section | null {
  let found: Section | null = null;
  for (const s of doc.sections) if (s.start <= offset && offset < s.end) found = s;
  return found;
}

function pathEndsWith(doc: SkillDocument, s: Section, parts: string[]): boolean {
  let current: Section | null = s;
  for (let i = parts.length - 1; i >= 0; i--) {
    if (current === null || current.key !== parts[i]) return false;
    current = current.parent === null ? null : doc.sections[current.parent]!;
  }
  return true;
}
