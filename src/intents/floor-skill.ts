// The floor planner, taught by a skill: what the mock engine does with an intent task
// (docs/reference/engines.md "The mock engine"). Rule: a quotable skill line (mock rule 1) that names a
// capability id — e.g. "- `deploy.release`: ship, prod, production" — adds that line's other words to that
// capability's `keywords`, which the floor scores at weight 3 (floor.ts rule 2). The id itself is taken out
// of the line first, so naming a capability never re-weights its own id words. A line naming several ids
// teaches each of them. So a skill changes mock decisions predictably: a synonym the skill lists for a
// capability now selects it, and a word listed for the wrong capability can make the floor misselect.
import { contentLines } from '../engines/mock-text.js';
import { phraseIndex } from './floor-text.js';
import type { CatalogEntry } from '../config/intent-types.js';

/** Capability id → the skill lines (ids removed) that name it, in skill order. */
export function skillKeywords(skillText: string, catalog: CatalogEntry[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of contentLines(skillText)) {
    const named = catalog.filter((c) => phraseIndex(line, c.id) >= 0);
    if (named.length === 0) continue;
    let rest = line;
    for (const c of named) rest = rest.split(c.id).join(' ');
    // Markup around the ids carries no words; trimmed only so reports and tests read cleanly.
    rest = rest.replace(/[`*_]/g, ' ').replace(/^[\s\-+:—]+/u, '').replace(/\s+/g, ' ').trim();
    for (const c of named) out.set(c.id, [...(out.get(c.id) ?? []), rest]);
  }
  return out;
}

/** The catalogue with each capability's keywords extended by the skill lines that name it. */
export function catalogWithSkill(catalog: CatalogEntry[], skillText: string | undefined): CatalogEntry[] {
  if (!skillText) return catalog;
  const extra = skillKeywords(skillText, catalog);
  return catalog.map((c) => {
    const more = extra.get(c.id);
    return more ? { ...c, keywords: [...(c.keywords ?? []), ...more] } : c;
  });
}
