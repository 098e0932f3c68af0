// A proposal is a candidate before it has an id and a variant folder: what a proposer returns. Keeping
// proposers to this shape lets selection (lessons, duplicates, the cap) treat them all alike.
import type { EditAction } from '../../src/skill/edits.js';
import type { Candidate } from '../../src/artifacts/candidates.js';
export { trainFailures, type ObservedResult } from '../../src/loop/train-failures.js';
export { countPlaceholders } from '../../src/skill/placeholders.js';

export type ProposerName = Candidate['proposer'];

export interface Proposal {
  title: string;
  category: Candidate['category'];
  risk: Candidate['risk'];
  rationale: string;
  proposer: ProposerName;
  answers: Candidate['answers'];
  actions: EditAction[];
}

/** Something a proposer could not do, reported in candidates.json (never silently dropped). */
export interface ProposerError {
  proposer: string;
  message: string;
}

/** A proposal left out, and why. */
export interface Skipped {
  title: string;
  proposer: string;
  why: string;
}

/** "breaking-changes" → "breaking changes": a category id as words a rule can name. */
export function categoryWords(category: string): string {
  return category.replace(/[-_.]+/g, ' ').trim();
}

/** A slug for candidate ids: lower-case letters and digits joined by hyphens, at most `max` characters. */
export function slugify(text: string, max = 40): string {
  const s = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  // Cut at a word boundary so an id never ends in half a word.
  const cut = s.length <= max ? s : s.slice(0, max + 1).replace(/-[^-]*$/, '') || s.slice(0, max);
  return cut.replace(/-+$/, '') || 'change';
}
