// A person's verdicts from `whet view` as the generator takes them (src/lessons/feedback.ts,
// stages/generate/propose-llm.ts): train tasks of the run's own target only — both the verdict's split and
// the run's suite must say train — the newest verdict per output standing, a torn line skipped, and the
// llm proposer's prompt refusing any held-out verdict outright.
import { describe, expect, it } from 'vitest';
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendFeedback, readFeedback, trainFeedback, type FeedbackFields } from '../../src/lessons/feedback.js';
import { buildLlmPrompt } from '../../stages/generate/propose-llm.js';
import { proposeFeedback } from '../../stages/generate/propose-feedback.js';
import type { Task } from '../../src/config/suite-schema.js';
import { tempDir } from '../support/cli.js';

const task = (id: string, split: 'train' | 'holdout'): Task => ({ id, prompt: `request ${id}`, category: 'c', split }) as Task;
const fields = (o: Partial<FeedbackFields>): FeedbackFields => ({ run_id: 'r1', iteration: 1, task_id: 't1', variant: 'baseline', attempt: null, target: '/skills/a', split: 'train', category: 'c', rating: 'bad', comment: 'too long', source: 'whet view', ...o });

describe('feedback for the generator', () => {
  it('keeps train verdicts on this target, the newest per output, and skips a torn line', () => {
    const file = join(tempDir('whet-feedback-'), 'memory/feedback.jsonl');
    const at = (s: number) => new Date(Date.UTC(2026, 11, 4, 9, 0, s));
    appendFeedback(file, fields({ comment: 'first word' }), at(1));
    const newest = appendFeedback(file, fields({ rating: 'good', comment: 'fine now' }), at(2));
    appendFeedback(file, fields({ task_id: 't2', split: 'holdout' }), at(3));
    // The verdict says train but the run's suite now holds the task out: dropped.
    appendFeedback(file, fields({ task_id: 't3' }), at(4));
    appendFeedback(file, fields({ task_id: 't4', target: '/skills/other' }), at(5));
    appendFeedback(file, fields({ task_id: 't5', split: null }), at(6));
    appendFileSync(file, '{"schema":"whetstone.feedback/1","id":"fb-');
    const read = readFeedback(file);
    expect(read.invalid).toBe(1);
    expect(read.sha256).toMatch(/^sha256:[0-9a-f]{64}$/);
    const tasks = [task('t1', 'train'), task('t2', 'holdout'), task('t3', 'holdout'), task('t4', 'train'), task('t5', 'train')];
    expect(trainFeedback(read.items, '/skills/a', tasks)).toEqual([newest]);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(7);
  });

  it('refuses to write an invalid verdict', () => {
    const file = join(tempDir('whet-feedback-'), 'feedback.jsonl');
    expect(() => appendFeedback(file, fields({ rating: 'meh' as 'bad' }), new Date())).toThrow();
    expect(() => appendFeedback(file, fields({ run_id: '../x' }), new Date())).toThrow();
  });

  it('puts train verdicts into the llm proposer’s prompt and refuses a held-out one', () => {
    const base = { skillText: '# Skill\n', failures: [], lessons: [], max: 2 };
    const { prompt } = buildLlmPrompt({ ...base, feedback: [{ task_id: 't1', category: 'breaking-changes', split: 'train', rating: 'bad', comment: 'buried\nat the end' }] });
    expect(prompt).toContain("A person's verdicts on answers to training requests");
    expect(prompt).toContain('- task t1 (category breaking-changes): bad — buried at the end');
    expect(buildLlmPrompt(base).prompt).not.toContain("A person's verdicts");
    expect(() => buildLlmPrompt({ ...base, feedback: [{ task_id: 't2', category: 'c', split: 'holdout', rating: 'bad', comment: '' }] })).toThrow(/refusing to show the generator feedback on non-train tasks: t2/);
  });

  it('turns a person’s "bad" on a passing train task into the reviewer’s rule for its category, without their words', () => {
    const skill = '---\nname: release-notes\ndescription: Writes release notes.\n---\n# Release notes\n\nWrite them.\n';
    const results = [{ task_id: 'g1', category: 'grouping', split: 'train' as const, status: 'pass' as const, reason: 'contains: found all 2 expected strings' }];
    expect(proposeFeedback({ skillText: skill, skillName: 'release-notes', results }).proposals).toEqual([]);
    expect(proposeFeedback({ skillText: skill, skillName: 'release-notes', results, human: [{ task_id: 'g1', category: 'grouping', rating: 'good' }] }).proposals).toEqual([]);
    const [p, ...more] = proposeFeedback({ skillText: skill, skillName: 'release-notes', results, human: [{ task_id: 'g1', category: 'grouping', rating: 'bad' }] }).proposals;
    expect(more).toEqual([]);
    expect(p).toMatchObject({ title: 'Guidance for grouping requests', proposer: 'feedback', answers: { kind: 'train_failures', tasks: ['g1'], detail: 'grouping' } });
    expect(p!.actions).toEqual([expect.objectContaining({ type: 'append_section', heading: 'Release notes requests involving grouping', body: '- When a release notes request involves grouping, cover each point a careful reviewer of an answer about grouping would look for, and say why each one holds.' })]);
    expect(p!.rationale).toMatch(/^A person marked 1 train answer\(s\) in category "grouping" bad in whet view \(g1\)\. .*nor the person's words\./);
  });
});
