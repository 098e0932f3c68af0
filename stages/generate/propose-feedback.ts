// The feedback proposer (offline): turns what kind of check failed on TRAIN tasks into guidance for the
// kind of request those tasks are (their category). docs/method.md "One failure is a class": one observed failure is a class, so the
// fix is guidance for every request of that kind, never an answer to the case seen — and never the
// test itself: no expected string, regex source, task id or "the answer includes …" checklist is
// written into the skill (judge-reasons.ts hands over only the kinds of the failing checks). It reads
// baseline.json rows only (category, split, status, reason): no prompt reaches it, and held-out rows are
// dropped before anything is read, so a held-out judge cannot change a proposal.
//
// Template (one section per failing category, appended, or extended when it already exists):
//
//   ## <Subject> requests involving <category words>
//
//   - When a <subject> request involves <category words>, give <category words> a section of its own, …
//   - When a <subject> request involves <category words>, keep to what the request is for: …
//
// <subject> is the skill's name as words ("release-notes" → "release notes") and <category words> the
// category id as words ("breaking-changes" → "breaking changes"): the suite author's name for the kind
// of request, the words a person writing guidance for it would use. One line per kind of failing check
// (GUIDANCE below); whether the guidance generalises is the held-out gate's question. Each rule is one
// line because an agent — and the mock engine, which quotes whole lines sharing words with the prompt —
// takes a rule in as one piece.
import { parseSkill, normalizeTitle } from '../../src/skill/markdown.js';
import { FAILURE_KINDS, readJudgeReason, uniqueStrings, type FailureKind } from './judge-reasons.js';
import { categoryWords, trainFailures, type ObservedResult, type Proposal, type Skipped } from './proposal.js';

export interface FeedbackInput {
  skillText: string;
  /** The skill's name (frontmatter `name`, else its folder). */
  skillName: string;
  results: readonly ObservedResult[];
  /**
   * A person's verdicts from `whet view` on this target's train tasks (src/lessons/feedback.ts trainFeedback).
   * A "bad" one is evidence that a careful reader of that kind of request found the answer wanting: it adds
   * the reviewer's rule for the task's category, and nothing of the person's words reaches the skill.
   */
  human?: readonly { task_id: string; category: string; rating: 'good' | 'bad' }[];
}

const UNCATEGORIZED = 'uncategorized';

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const article = (word: string) => (/^[aeiou]/i.test(word) ? 'an' : 'a');

/** What a person would tell the agent about a kind of request, for each kind of check it failed. */
const GUIDANCE: Record<FailureKind, (topic: string | null) => string> = {
  cover: (t) =>
    t
      ? `give ${t} a section of its own, titled ${capitalise(t)}, ahead of the rest of the answer, and say what each item means for the reader and what they have to do about it`
      : 'cover every part the request asks for, each under a heading that names it',
  omit: () => 'keep to what the request is for: leave out internal details and anything the reader did not ask for and cannot use',
  format: () => "write versions, dates, numbers and identifiers in exactly the form the request and this skill's output format give",
  exact: () => 'answer with exactly the text asked for, with nothing added before or after it',
  json: () => 'answer with one valid JSON document and nothing else',
  json_fields: () => 'answer with JSON that has every field the request asks for, each of the type it asks for',
  check: () => 'make sure the answer works when it is run or checked, not only that it reads well',
  review: (t) => `cover each point a careful reviewer of ${t ? `an answer about ${t}` : 'the answer'} would look for, and say why each one holds`,
};

/** The rule lines for one category, from the kinds of check its train failures failed. */
export function categoryRules(subject: string, category: string, reasons: readonly string[], extra: readonly FailureKind[] = []): string[] {
  const fb = reasons.map(readJudgeReason);
  const kinds = FAILURE_KINDS.filter((k) => extra.includes(k) || fb.some((f) => f.kinds.includes(k)));
  const notes = uniqueStrings(fb.flatMap((f) => f.notes));
  const who = subject ? `${subject} request` : 'request';
  const topic = category === UNCATEGORIZED ? null : categoryWords(category);
  const lead = topic === null ? `For every ${who}` : `When ${article(who)} ${who} involves ${topic}`;
  const rules = kinds.map((k) => `- ${lead}, ${GUIDANCE[k](topic)}.`);
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
  // A person's "bad" on a train task: evidence for its category even where the judges passed it.
  const marked = new Map<string, string[]>();
  for (const h of input.human ?? []) {
    if (h.rating !== 'bad') continue;
    marked.set(h.category, [...(marked.get(h.category) ?? []), h.task_id]);
    if (!byCategory.has(h.category)) byCategory.set(h.category, []);
  }
  // The categories with the most failures first: they carry the most evidence.
  const groups = [...byCategory.entries()].sort(([a, x], [b, y]) => y.length - x.length || (a < b ? -1 : a > b ? 1 : 0));
  const doc = parseSkill(input.skillText);
  const proposals: Proposal[] = [];
  const skipped: Skipped[] = [];
  for (const [category, failures] of groups) {
    const people = marked.get(category) ?? [];
    const ids = [...new Set([...failures.map((f) => f.task_id), ...people])];
    const title = `Guidance for ${categoryWords(category)} requests`;
    const rules = categoryRules(subject, category, failures.map((f) => f.reason), people.length ? ['review'] : []);
    if (rules.length === 0) {
      skipped.push({ title, proposer: 'feedback', why: `the judges' reasons for ${ids.join(', ')} name no kind of check a rule could address` });
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
        (failures.length ? `${failures.length} train task(s) in category "${category}" failed on the baseline (${failures.map((f) => f.task_id).join(', ')}). ` : '') +
        (people.length ? `A person marked ${people.length} train answer(s) in category "${category}" bad in whet view (${[...new Set(people)].join(', ')}). ` : '') +
        `This ${existing.length ? 'extends' : 'adds'} "${heading}" with guidance for every ${categoryWords(category)} request, one rule per kind of check that failed, not for the case seen ` +
        "(one observed failure is a class); it quotes no judge's strings or patterns" +
        (people.length ? ", nor the person's words. Built only from the kinds of the judges' findings and people's verdicts on train tasks; held-out tasks are never read." : ". Built only from the kinds of the judges' findings on train tasks; held-out tasks are never read."),
      proposer: 'feedback',
      answers: { kind: 'train_failures', tasks: ids, detail: category },
      actions: [action],
    });
  }
  return { proposals, skipped };
}
