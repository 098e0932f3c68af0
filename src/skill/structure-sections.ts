// The body dimensions that ask for a kind of section: when to use, when not to use, an example, an output
// contract, ordered steps. Their fixes add that section from a generic template: routing sections near the
// top (before the first section under the title), the others at the end of the document.
import type { EditAction } from './edits.js';
import type { Section, SkillDocument } from './markdown.js';
import { matchSections, sectionPath } from './sections.js';
import { documentLanguage, proseLines, type Check } from './structure-common.js';
import {
  BOUNDARY_CUE,
  EXAMPLE_HEADING,
  matchesAny,
  ORDERED_ITEM,
  OUTPUT_HEADING,
  TEMPLATES,
  WHEN_NOT_TO_USE_HEADING,
  WHEN_TO_USE_HEADING,
  WORKFLOW_HEADING,
} from './structure-patterns.js';

type Kind = keyof (typeof TEMPLATES)['en'];

const isWhenNot = (s: Section): boolean => matchesAny(WHEN_NOT_TO_USE_HEADING, s.key);
const isWhen = (s: Section): boolean => !isWhenNot(s) && matchesAny(WHEN_TO_USE_HEADING, s.key);

export const whenToUse: Check = {
  id: 'when_to_use',
  measure(doc) {
    const s = doc.sections.find(isWhen);
    if (s) return { score: 1, finding: `"${s.title}" section at line ${s.line}` };
    const triggers = doc.frontmatter?.data?.triggers;
    if (Array.isArray(triggers) && triggers.length > 0) {
      return { score: 0.5, finding: `no "When to Use" section; only ${triggers.length} frontmatter triggers, which the agent reading the body does not see explained` };
    }
    return { score: 0, finding: 'no "When to Use" section: nothing in the body says which requests this skill is for' };
  },
  fixes(doc) {
    // The description's own "Use when …" clause is the content of the section, not a template to fill:
    // the agent reading the body then sees what routing already promised.
    const clause = whenClause(doc);
    const filled = clause ? addSection(doc, 'when', 'say in the body which requests the skill is for, as the description does', true, `- ${clause}`) : [];
    return [...filled, ...addSection(doc, 'when', 'say which requests the skill is for', true)];
  },
};

/** "Use when preparing a release." in the description → "When preparing a release."; null if none. */
export function whenClause(doc: SkillDocument): string | null {
  const d = doc.frontmatter?.data?.description;
  if (typeof d !== 'string') return null;
  const m = /\b(?:use (?:it |this skill )?)?(when(?:ever)?\b[^.!?\n]{3,}|if the user\b[^.!?\n]{3,}|if you need\b[^.!?\n]{3,})[.!?]?/i.exec(d);
  if (!m) return null;
  const text = m[1]!.trim();
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

export const whenNotToUse: Check = {
  id: 'when_not_to_use',
  measure(doc) {
    const s = doc.sections.find(isWhenNot);
    if (s) return { score: 1, finding: `"${s.title}" section at line ${s.line}` };
    const description = doc.frontmatter?.data?.description;
    const inProse = BOUNDARY_CUE.test(proseLines(doc).join('\n')) || (typeof description === 'string' && BOUNDARY_CUE.test(description));
    return inProse
      ? { score: 0.5, finding: 'boundaries are mentioned in passing ("not for …") but there is no "When NOT to Use" section' }
      : { score: 0, finding: 'no "When NOT to Use" section: near-miss requests will trigger the skill too' };
  },
  fixes(doc) {
    const when = doc.sections.find(isWhen);
    const t = template(doc, 'whenNot');
    const reason = 'name the near-miss requests this skill should not handle';
    const after = when && !(doc.unclosedFence && when.end === doc.text.length) ? uniquePath(doc, when) : null;
    const first: EditAction[] = after ? [{ type: 'append_section', heading: t.title, after, body: t.body, reason }] : [];
    return [...first, ...addSection(doc, 'whenNot', reason, true)];
  },
};

export const examples: Check = {
  id: 'examples',
  measure(doc) {
    const tag = /<example[\s>]/i.test(proseLines(doc).join('\n'));
    const heading = doc.sections.find((s) => matchesAny(EXAMPLE_HEADING, s.key));
    // An unclosed fence is a defect (fences_closed), not an example.
    const blocks = doc.codeBlocks.filter((b) => b.closed).length;
    const found = [tag ? '<example> block' : '', blocks > 0 ? `${blocks} code block(s)` : '', heading ? `"${heading.title}" heading` : ''];
    const any = found.filter((f) => f !== '');
    return any.length > 0 ? { score: 1, finding: `examples: ${any.join(', ')}` } : { score: 0, finding: 'no example: no <example> block, code block or Example heading' };
  },
  fixes: (doc) => addSection(doc, 'example', 'show one worked request and response', false),
};

export const outputContract: Check = {
  id: 'output_contract',
  measure(doc) {
    const s = doc.sections.find((x) => matchesAny(OUTPUT_HEADING, x.key));
    return s
      ? { score: 1, finding: `"${s.title}" section at line ${s.line}` }
      : { score: 0, finding: 'no output contract: no Output / Format / Returns section saying what the result looks like' };
  },
  fixes: (doc) => addSection(doc, 'output', 'state what the result looks like', false),
};

export const workflowSteps: Check = {
  id: 'workflow_steps',
  measure(doc) {
    const items = proseLines(doc).filter((l) => ORDERED_ITEM.test(l)).length;
    const stepHeadings = doc.sections.filter((s) => /\b(?:step|phase|stage) \d+\b|第.{1,3}[步阶]/.test(s.key)).length;
    if (items >= 2 || stepHeadings >= 2) return { score: 1, finding: `ordered steps: ${items} numbered list item(s), ${stepHeadings} numbered step heading(s)` };
    const named = doc.sections.find((s) => matchesAny(WORKFLOW_HEADING, s.key));
    return named
      ? { score: 0.5, finding: `a "${named.title}" heading but no ordered list of steps` }
      : { score: 0, finding: 'no ordered steps: the agent has to work out the order of work itself' };
  },
  fixes: (doc) => addSection(doc, 'workflow', 'give the work an explicit order', false),
};

export const sectionChecks: Check[] = [whenToUse, whenNotToUse, examples, outputContract, workflowSteps];

/** Candidate edits adding a `kind` section: the preferred position first, the end of the document last. */
function addSection(doc: SkillDocument, kind: Kind, reason: string, early: boolean, body?: string): EditAction[] {
  const t = { ...template(doc, kind), ...(body === undefined ? {} : { body }) };
  const out: EditAction[] = [];
  const before = early ? firstUnderTitle(doc) : null;
  if (before) out.push({ type: 'insert_before_section', section: before, heading: t.title, body: t.body, reason });
  out.push({ type: 'append_section', heading: t.title, level: 2, body: t.body, reason });
  // With an unclosed fence the end of the document is code; the last resort goes before the last section.
  const last = doc.sections[doc.sections.length - 1];
  const lastPath = last ? uniquePath(doc, last) : null;
  if (doc.unclosedFence && lastPath) out.push({ type: 'insert_before_section', section: lastPath, heading: t.title, body: t.body, reason });
  return out;
}

/** The template for `kind` in the document's language, under a title no section has yet. */
function template(doc: SkillDocument, kind: Kind): { title: string; body: string } {
  const t = TEMPLATES[documentLanguage(doc)][kind];
  const free = t.titles.find((title) => matchSections(doc, title).length === 0);
  let title = free ?? t.titles[0]!;
  for (let n = 2; matchSections(doc, title).length > 0; n++) title = `${t.titles[0]!} (${n})`;
  return { title, body: t.body };
}

/** The first section under the document's H1 title, or the first section when there is no title. */
function firstUnderTitle(doc: SkillDocument): string | null {
  for (const s of doc.sections) {
    if (s.level > 1) return uniquePath(doc, s);
    if (s.index > 0) return null;
  }
  return null;
}

/** A title or path that names exactly this section, or null when even the path is ambiguous. */
export function uniquePath(doc: SkillDocument, s: Section): string | null {
  if (s.title.trim() === '') return null;
  if (matchSections(doc, s.title).length === 1) return s.title;
  const path = sectionPath(doc, s);
  const hits = matchSections(doc, path);
  return hits.length === 1 && hits[0] === s ? path : null;
}
