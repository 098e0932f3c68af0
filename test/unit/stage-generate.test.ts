import { describe, expect, it } from 'vitest';
import { sha256 } from '../../src/state/artifact-io.js';
import { applyEdits } from '../../src/skill/edits.js';
import { scoreStructure } from '../../src/skill/structure.js';
import { join } from 'node:path';
import { loadSuite } from '../../src/config/suite.js';
import { judgeToolCall } from '../../src/judges/tool-call.js';
import { judgeParts, readJudgeReason, toolCallNotes } from '../../stages/generate/judge-reasons.js';
import { repoRoot } from '../support/cli.js';
import { categoryRules, proposeFeedback } from '../../stages/generate/propose-feedback.js';
import { proposeStructural } from '../../stages/generate/propose-structural.js';
import { countPlaceholders, slugify, trainFailures, type ObservedResult } from '../../stages/generate/proposal.js';
import { scoreCandidate } from '../../stages/discriminate/score.js';
import { candidateId, interleave, selectCandidates } from '../../stages/generate/select.js';
import type { Lesson } from '../../src/artifacts/learning.js';

const SKILL = `---
name: release-notes
description: Turns merged commits into release notes for users. Use when preparing a release or a changelog entry.
---

# Release notes

## Steps

1. Group the commits by kind.
2. Rewrite each subject in plain language.
`;

const row = (task_id: string, category: string, split: 'train' | 'holdout' | undefined, status: 'pass' | 'fail' | 'error', reason: string): ObservedResult => ({ task_id, category, split, status, reason });

describe('structural proposer', () => {
  it('proposes each weak dimension’s own fix, weakest first, with mapped category and risk, and says it is generic', () => {
    const bare = '# Notes\n\nWrite notes.\n';
    const report = scoreStructure(bare);
    const proposals = proposeStructural(bare);
    const weak = report.dimensions.filter((d) => d.score < 1 && d.fix);
    expect(proposals).toHaveLength(weak.length);
    const scores = proposals.map((p) => report.dimensions.find((d) => d.id === p.answers.dimension)!.score);
    expect(scores).toEqual([...scores].sort((a, b) => a - b));
    for (const p of proposals) {
      const dim = report.dimensions.find((d) => d.id === p.answers.dimension)!;
      expect(p.actions).toEqual([dim.fix]);
      expect(p.proposer).toBe('structural');
      expect(p.rationale).toMatch(/Generic structural fix, not evidence from any task/);
    }
    const by = (id: string) => proposals.find((p) => p.answers.dimension === id)!;
    expect(by('frontmatter_fields')).toMatchObject({ category: 'frontmatter', risk: 'high' });
    expect(by('description_quality')).toMatchObject({ category: 'trigger', risk: 'high' });
    expect(by('when_to_use')).toMatchObject({ category: 'trigger', risk: 'low' });
    expect(by('when_not_to_use')).toMatchObject({ category: 'boundaries', risk: 'low' });
    expect(by('examples')).toMatchObject({ category: 'examples', risk: 'low' });
    expect(by('output_contract')).toMatchObject({ category: 'output-format', risk: 'low' });
    expect(by('workflow_steps')).toMatchObject({ category: 'workflow', risk: 'low' });
  });

  it('fills the When to Use section from the description’s own clause, so the discriminator credits it and not a template', () => {
    // SKILL's description says "Use when preparing a release or a changelog entry."; its body has no such section.
    const proposals = proposeStructural(SKILL);
    const when = proposals.find((p) => p.answers.dimension === 'when_to_use')!;
    expect(when.actions[0]).toMatchObject({ heading: 'When to Use', body: '- When preparing a release or a changelog entry.' });
    const score = (p: (typeof proposals)[number]) => {
      const text = applyEdits(SKILL, p.actions);
      const diff = { added: text.split('\n').length - SKILL.split('\n').length, removed: 0 };
      return scoreCandidate({
        candidate: { id: 'c', title: p.title, category: p.category, risk: p.risk, rationale: p.rationale, proposer: p.proposer, answers: p.answers, actions: p.actions, variant_path: 'v', diff: '', diff_stats: diff, content_sha256: sha256(text) },
        targetStructure: scoreStructure(SKILL).total,
        variantStructure: scoreStructure(text).total,
        targetPlaceholders: countPlaceholders(SKILL),
        variantPlaceholders: countPlaceholders(text),
        variantIntact: true,
        lessons: [],
      });
    };
    // One check from 0 to 1 with real content: 5 + 1.11 + 0.5, over the default threshold 6.
    expect(countPlaceholders(applyEdits(SKILL, when.actions))).toBe(0);
    expect(score(when).score).toBe(6.61);
    // A template for another dimension gets no structure credit and pays for its placeholders.
    const template = proposals.find((p) => p.answers.dimension === 'examples')!;
    expect(score(template)).toMatchObject({ score: 4.5, parts: { base: 5, risk: 0.5, placeholders: -1 } });
  });

  it('maps an unclosed fence to "other" and proposes nothing for a skill that passes every check', () => {
    const open = `${SKILL}\n\`\`\`sh\nnpm test\n`;
    expect(proposeStructural(open).find((p) => p.answers.dimension === 'fences_closed')).toMatchObject({ category: 'other', risk: 'low' });
    let text = SKILL;
    for (const p of proposeStructural(SKILL)) text = applyEdits(text, p.actions);
    expect(proposeStructural(text)).toEqual([]);
  });
});

describe('judge reasons', () => {
  it('reads the kind of each failing check, splitting judges only at their own prefixes, and none of its mechanics', () => {
    const reason = 'contains: missing 2/3: "Breaking changes", "a; b"; not_contains: found 1/1 forbidden: "internal"; regex: /v\\d+/ does not match; llm-rubric: label FAIL: too vague';
    expect(judgeParts(reason).map(([t]) => t)).toEqual(['contains', 'not_contains', 'regex', 'llm-rubric']);
    const fb = readJudgeReason(reason);
    expect(fb).toEqual({ kinds: ['cover', 'omit', 'format', 'review'], notes: [] });
    // The strings, the pattern and the judge's words stay behind.
    for (const s of ['Breaking changes', 'a; b', 'internal', 'v\\d+', 'too vague']) expect(JSON.stringify(fb)).not.toContain(s);
  });

  it('ignores passing judges and unknown wording', () => {
    expect(readJudgeReason('contains: found all 2 expected strings; regex: /x/ does not match, as required; script: exit 0')).toEqual({ kinds: [], notes: [] });
    expect(readJudgeReason('something else entirely')).toEqual({ kinds: [], notes: [] });
    expect(readJudgeReason('pytest: tests passed: 2 passed in 0.5s').kinds).toEqual([]);
    expect(readJudgeReason('pytest: tests failed: test_says_hello | AssertionError: no hello | 1 failed in 0.5s')).toEqual({ kinds: ['check'], notes: [] });
    expect(readJudgeReason('json: not valid JSON: Unexpected token; equals: differs at 3').kinds).toEqual(['exact', 'json']);
  });
});

describe('judge reasons of intent cases (tool_call)', () => {
  // Reasons made by the real judge on the example's cases, so a change of its wording fails here.
  const intents = loadSuite(join(repoRoot, 'examples/intents/suite.yaml')).intents;
  const reason = (caseId: string, decision: object) => judgeToolCall({ case_id: caseId }, JSON.stringify(decision), intents).reason;

  it('turns each missed metric into a note about the kind of request, naming capabilities by id', () => {
    const wrongTool = reason('e-001', { behavior: 'call', capability: 'pr.merge', params: { repo: 'payments-api', number: 1 } });
    expect(toolCallNotes(wrongTool)).toEqual(['`issue.create` is called when that is the action asked for, not `pr.merge`']);
    const asked = reason('e-001', { behavior: 'clarify', question: 'Which project?' });
    expect(toolCallNotes(asked)).toEqual([
      '`issue.create` is called without asking when the request gives what it needs',
    ]);
    const guessed = reason('e-019', { behavior: 'call', capability: 'issue.close', params: {} });
    expect(toolCallNotes(guessed)[0]).toMatch(/^a question is asked before anything is called when more than one action or target fits \(`issue\.close` was called instead\)$/);
    expect(toolCallNotes(reason('e-028', { behavior: 'clarify', question: 'Sure?' }))).toEqual(['a request the user may not make is refused, not asked about']);
    const badArgs = reason('e-002', { behavior: 'call', capability: 'pr.merge', params: { repo: 'payments-api', number: '#418' } });
    expect(toolCallNotes(badArgs)).toEqual([expect.stringMatching(/^only capabilities in the catalogue are called, with parameters their schema accepts \(stopped: pr\.merge: .*number/)]);
    expect(toolCallNotes(reason('e-001', { behavior: 'call', capability: 'issue.create', params: { system: 'jira', project: 'PAY', title: 'Checkout button unresponsive on iOS' } }))).toEqual([]);
  });

  it('lets the feedback proposer write rules for intent kinds', () => {
    const results = [
      row('e-001', 'direct', 'train', 'fail', `tool_call: ${reason('e-001', { behavior: 'call', capability: 'pr.merge', params: { repo: 'payments-api', number: 1 } })}`),
      row('e-019', 'ambiguity', 'train', 'fail', `tool_call: ${reason('e-019', { behavior: 'call', capability: 'issue.close', params: {} })}`),
    ];
    const { proposals } = proposeFeedback({ skillText: SKILL, skillName: 'ops-assistant', results });
    expect(proposals.map((p) => p.actions[0])).toEqual([
      expect.objectContaining({ heading: 'Ops assistant requests involving ambiguity', body: expect.stringMatching(/^- When an ops assistant request involves ambiguity, check that a question is asked before anything is called/) }),
      expect.objectContaining({ heading: 'Ops assistant requests involving direct', body: '- When an ops assistant request involves direct, check that `issue.create` is called when that is the action asked for, not `pr.merge`.' }),
    ]);
  });
});

describe('feedback proposer', () => {
  const results = [
    row('t-break-1', 'breaking-changes', 'train', 'fail', 'contains: missing 2/2: "Breaking changes", "migration"'),
    row('t-break-2', 'breaking-changes', 'train', 'fail', 'contains: missing 1/1: "breaking changes"; not_contains: found 1/1 forbidden: "refactor"'),
    row('t-sec-1', 'security', 'train', 'fail', 'contains: missing 1/1: "Security"'),
    row('t-ok', 'grouping', 'train', 'pass', 'contains: found all 1 expected string'),
    row('t-err', 'grouping', 'train', 'error', 'judge error: boom'),
    row('h-break', 'breaking-changes', 'holdout', 'fail', 'contains: missing 1/1: "HELD-OUT-SECRET-ALPHA"'),
    row('h-only', 'held-only-category', 'holdout', 'fail', 'contains: missing 1/1: "HELD-OUT-SECRET-BETA"'),
    row('no-split', 'unsplit', undefined, 'fail', 'contains: missing 1/1: "UNSPLIT-SECRET"'),
  ];

  it('proposes one category-wide set of guidance per failing train category, most failures first', () => {
    const { proposals } = proposeFeedback({ skillText: SKILL, skillName: 'release-notes', results });
    expect(proposals.map((p) => p.answers)).toEqual([
      { kind: 'train_failures', tasks: ['t-break-1', 't-break-2'], detail: 'breaking-changes' },
      { kind: 'train_failures', tasks: ['t-sec-1'], detail: 'security' },
    ]);
    const [breaking] = proposals;
    expect(breaking).toMatchObject({ category: 'coverage', risk: 'medium', proposer: 'feedback' });
    expect(breaking!.actions).toEqual([
      {
        type: 'append_section',
        heading: 'Release notes requests involving breaking changes',
        level: 2,
        body:
          '- When a release notes request involves breaking changes, give breaking changes a section of its own, titled Breaking changes, ahead of the rest of the answer, and say what each item means for the reader and what they have to do about it.\n' +
          '- When a release notes request involves breaking changes, keep to what the request is for: leave out internal details and anything the reader did not ask for and cannot use.',
        reason: 'guidance for breaking changes requests, from train failures',
      },
    ]);
    expect(breaking!.rationale).toMatch(/one observed failure is a class/);
    // Guidance, not the test: no judge string quoted, no checklist of them, no task id.
    const body = JSON.stringify(proposals.map((p) => p.actions));
    for (const s of ['"migration"', '\\"Breaking changes\\"', 'refactor', 't-break-1', 'the answer includes', 'leaves out \\"']) expect(body).not.toContain(s);
  });

  it('never reads a held-out (or unsplit) failure: no held-out id or expected string anywhere', () => {
    const { proposals, skipped } = proposeFeedback({ skillText: SKILL, skillName: 'release-notes', results });
    const all = JSON.stringify({ proposals, skipped });
    for (const leak of ['HELD-OUT-SECRET-ALPHA', 'HELD-OUT-SECRET-BETA', 'UNSPLIT-SECRET', 'h-break', 'h-only', 'held only category', 'held-only-category']) expect(all).not.toContain(leak);
    expect(trainFailures(results).map((r) => r.task_id)).toEqual(['t-break-1', 't-break-2', 't-sec-1']);
  });

  it('extends an existing guidance section with the new rules only, and skips when nothing is new', () => {
    const first = proposeFeedback({ skillText: SKILL, skillName: 'release-notes', results: results.slice(0, 1) }).proposals[0]!;
    const withSection = applyEdits(SKILL, first.actions);
    const next = proposeFeedback({ skillText: withSection, skillName: 'release-notes', results: results.slice(0, 2) }).proposals[0]!;
    expect(next.actions[0]).toMatchObject({ type: 'replace_section', section: 'Release notes requests involving breaking changes', keep_subsections: true });
    const after = applyEdits(withSection, next.actions);
    expect(after.match(/give breaking changes a section of its own/g)).toHaveLength(1);
    expect(after).toContain('keep to what the request is for');
    const again = proposeFeedback({ skillText: withSection, skillName: 'release-notes', results: results.slice(0, 1) });
    expect(again.proposals).toEqual([]);
    expect(again.skipped[0]!.why).toMatch(/already has these rules/);
  });

  it('words rules for uncategorized tasks and skips failures whose reasons name nothing', () => {
    expect(categoryRules('pdf', 'uncategorized', ['contains: missing 1/1: "Page"'])).toEqual(['- For every pdf request, cover every part the request asks for, each under a heading that names it.']);
    const r = proposeFeedback({ skillText: SKILL, skillName: 'x', results: [row('t1', 'odd', 'train', 'fail', 'script: crashed oddly')] });
    expect(r.proposals).toEqual([]);
    expect(r.skipped[0]).toMatchObject({ proposer: 'feedback', why: expect.stringMatching(/name no kind of check a rule could address/) });
  });
});

describe('selecting candidates', () => {
  const add = (heading: string, proposer: 'feedback' | 'structural' | 'llm' = 'feedback') => ({
    title: `Add ${heading}`,
    category: 'coverage' as const,
    risk: 'medium' as const,
    rationale: 'r',
    proposer,
    answers: { kind: 'train_failures' as const, tasks: ['t1'] },
    actions: [{ type: 'append_section' as const, heading, body: `About ${heading}.` }],
  });
  const lesson = (content: string): Lesson => ({
    run_id: 'run-0', iteration: 2, target: '/skill', target_sha256: 'sha256:x', candidate_id: 'cand-01-x', category: 'coverage',
    actions: ['append_section'], content_sha256: content, decision: 'reject', delta: 0, delta_ci95: null, why: 'held-out delta +0.0000', at: '2026-01-01T00:00:00.000Z',
  });

  it('takes turns across proposers in priority order and caps the count, ids unique and safe', () => {
    expect(interleave([[1, 2, 3], [], [10, 20]])).toEqual([1, 10, 2, 20, 3]);
    const sel = selectCandidates({ groups: [[add('Alpha'), add('Beta')], [], [add('Gamma', 'structural')]], targetText: SKILL, rejected: new Map(), cap: 2 });
    expect(sel.chosen.map((c) => c.id)).toEqual(['cand-01-add-alpha', 'cand-02-add-gamma']);
    expect(sel.skipped).toEqual([{ title: 'Add Beta', proposer: 'feedback', why: expect.stringMatching(/over the cap of 2/) }]);
    expect(sel.chosen[0]!.contentSha).toBe(sha256(applyEdits(SKILL, add('Alpha').actions)));
  });

  it('skips content rejected before on this target, duplicates and no-ops; a failing action is a proposer error', () => {
    const rejectedSha = sha256(applyEdits(SKILL, add('Alpha').actions));
    const broken = { ...add('Broken'), actions: [{ type: 'replace_section' as const, section: 'No such section', body: 'x' }] };
    const noop = { ...add('Noop'), actions: [{ type: 'replace_text' as const, find: 'Group the commits', replace: 'Group the commits' }] };
    const sel = selectCandidates({ groups: [[add('Alpha'), add('Beta'), broken, noop], [add('Beta', 'llm')]], targetText: SKILL, rejected: new Map([[rejectedSha, lesson(rejectedSha)]]), cap: 5 });
    expect(sel.chosen.map((c) => c.id)).toEqual(['cand-01-add-beta']);
    expect(sel.skipped.map((s) => [s.title, s.why.slice(0, 40)])).toEqual([
      ['Add Alpha', 'this exact SKILL.md was evaluated on thi'],
      ['Add Beta', 'same content as cand-01-add-beta'],
      ['Add Noop', 'its actions change nothing'],
    ]);
    expect(sel.skipped[0]!.why).toContain('run run-0 iteration 2 and rejected');
    expect(sel.errors).toEqual([{ proposer: 'feedback', message: expect.stringMatching(/^"Add Broken": its actions do not apply: .*No such section/) }]);
  });

  it('makes slugs that never end in half a word', () => {
    expect(slugify('Structure: examples (show one worked request and response)')).toBe('structure-examples-show-one-worked');
    expect(slugify('***')).toBe('change');
    expect(candidateId(7, 'Guidance for breaking changes requests')).toBe('cand-07-guidance-for-breaking-changes-requests');
  });
});
