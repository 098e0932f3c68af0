// The feedback proposer (offline): turns the judges' reasons for failed TRAIN tasks into one rule per task
// category. METHOD.md §2: one observed failure is a class, so the fix is guidance for every request of
// that kind, never an answer to the one case seen. It reads baseline.json rows only (category, split,
// status, reason): no prompt reaches it, and held-out rows are dropped before anything is read.
//
// Template (one section per failing category, appended, or extended when it already exists):
//
//   ## <Subject> requests involving <category words>
//
//   - When a <subject> request involves <category words>, the answer includes "A", "B" and "C".
//   - When a <subject> request involves <category words>, the answer leaves out "X".
//   - When a <subject> request involves <category words>, check that <note from another judge>.
//
// <subject> is the skill's name as words ("release-notes" → "release notes") and <category words> the
// category id as words ("breaking-changes" → "breaking changes"), so each rule names the kind of request
// it is for. A-C are the strings contains judges found missing, X the strings not_contains judges found;
// the notes come from regex, equals, json, script, pytest, rubric and tool_call judges (judge-reasons.ts). Each rule is one
// line because an agent — and the mock engine, which quotes whole lines sharing words with the prompt —
// takes a rule in as one piece.
import { parseSkill, normalizeTitle } from '../../src/skill/markdown.js';
import { readJudgeReason, uniqueStrings } from './judge-reasons.js';
import { categoryWords, trainFailures, type ObservedResult, type Proposal, type Skipped } from './proposal.js';

export interface FeedbackInput {
  skillText: string;
  /** The skill's name (frontmatter `name`, else its folder). */
  skillName: string;
  results: readonly ObservedResult[];
}

const UNCATEGORIZED = 'uncategorized';

const quoted = (items: readonly string[]) => {
  const q = items.map((s) => JSON.stringify(s));
  return q.length <= 1 ? (q[0] ?? '') : `${q.slice(0, -1).join(', ')} and ${q[q.length - 1]}`;
};
const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** The rule lines for one category, from the failures' judge reasons. */
export function categoryRules(subject: string, category: string, reasons: readonly string[]): string[] {
  const fb = reasons.map(readJudgeReason);
  const required = uniqueStrings(fb.flatMap((f) => f.required));
  const forbidden = uniqueStrings(fb.flatMap((f) => f.forbidden));
  const notes = uniqueStrings(fb.flatMap((f) => f.notes));
  const who = subject ? `${subject} request` : 'request';
  const lead = category === UNCATEGORIZED ? `For every ${who}` : `When ${article(who)} ${who} involves ${categoryWords(category)}`;
  const rules: string[] = [];
  if (required.length > 0) rules.push(`- ${lead}, the answer includes ${quoted(required)}.`);
  if (forbidden.length > 0) rules.push(`- ${lead}, the answer leaves out ${quoted(forbidden)}.`);
  for (const n of notes) rules.push(`- ${lead}, check that ${n}.`);
  return rules;
}

export function sectionTitle(subject: string, category: string): string {
  if (category === UNCATEGORIZED) return subject ? `Checks for every ${subject} request` : 'Checks for every request';
  return `${subject ? `${capitalise(subject)} requests` : 'Requests'} involving ${categoryWords(category)}`;
}

export function proposeFeedback(input: FeedbackInput): { proposals: Proposal[]; skipped: Skipped[] } {
  const subject = categoryWords(input.skillName).toLowerCase();
  const byCategory = new Map<string, ObservedResult[]>();
  for (const r of trainFailures(input.results)) {
    const list = byCategory.get(r.category) ?? [];
    list.push(r);
    byCategory.set(r.category, list);
  }
  // The categories with the most failures first: they carry the most evidence.
  const groups = [...byCategory.entries()].sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : a > b ? 1 : 0));
  const doc = parseSkill(input.skillText);
  const proposals: Proposal[] = [];
  const skipped: Skipped[] = [];
  for (const [category, failures] of groups) {
    const ids = failures.map((f) => f.task_id);
    const title = `Guidance for ${categoryWords(category)} requests`;
    const rules = categoryRules(subject, category, failures.map((f) => f.reason));
    if (rules.length === 0) {
      skipped.push({ title, proposer: 'feedback', why: `the judges' reasons for ${ids.join(', ')} name nothing a rule could ask for` });
      continue;
    }
    const heading = sectionTitle(subject, category);
    const existing = doc.sections.filter((s) => s.key === normalizeTitle(heading));
    let action: Proposal['actions'][number];
    if (existing.length === 0) {
      action = { type: 'append_section', heading, level: 2, body: rules.join('\n'), reason: `guidance for ${categoryWords(category)} requests, from train failures` };
    } else {
      const section = existing[0]!;
      const have = new Set(section.content.split(/\r?\n/).map((l) => l.trim()));
      const fresh = rules.filter((r) => !have.has(r));
      if (fresh.length === 0) {
        skipped.push({ title, proposer: 'feedback', why: `the skill already has these rules under "${heading}" and ${ids.join(', ')} still fail: a rule is not what is missing` });
        continue;
      }
      const body = `${section.content.trim()}\n${fresh.join('\n')}`;
      action = { type: 'replace_section', section: heading, body, keep_subsections: true, reason: `extend the guidance for ${categoryWords(category)} requests, from train failures` };
    }
    proposals.push({
      title,
      category: 'coverage',
      risk: 'medium',
      rationale:
        `${ids.length} train task(s) in category "${category}" failed on the baseline (${ids.join(', ')}). ` +
        `This ${existing.length ? 'extends' : 'adds'} "${heading}" with one rule per thing the judges asked for, written for every ${categoryWords(category)} request, not for the case seen ` +
        '(one observed failure is a class). Built only from the judges\' reasons on train tasks; held-out tasks are never read.',
      proposer: 'feedback',
      answers: { kind: 'train_failures', tasks: ids, detail: category },
      actions: [action],
    });
  }
  return { proposals, skipped };
}
