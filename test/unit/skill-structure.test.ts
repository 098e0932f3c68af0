import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { applyEdit } from '../../src/skill/edits.js';
import { parseSkill } from '../../src/skill/markdown.js';
import { findSection } from '../../src/skill/sections.js';
import { DIMENSION_RULES, scoreStructure, type DimensionId, type StructureReport } from '../../src/skill/structure.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const GOOD = readFileSync(path.resolve(here, '../fixtures/skill/good/SKILL.md'), 'utf8');
const BAD = readFileSync(path.resolve(here, '../fixtures/skill/bad/SKILL.md'), 'utf8');

const scoreOf = (r: StructureReport, id: DimensionId): number => r.dimensions.find((d) => d.id === id)!.score;
const scores = (text: string): Record<string, number> => Object.fromEntries(scoreStructure(text).dimensions.map((d) => [d.id, d.score]));

function without(text: string, title: string): string {
  const s = findSection(parseSkill(text), title, 'test');
  return text.slice(0, s.start) + text.slice(s.end);
}

/** The dimension fails on `broken`, its proposed fix applies, and afterwards it passes. */
function expectFixRepairs(broken: string, id: DimensionId, failingScore: number): string {
  const before = scoreStructure(broken).dimensions.find((d) => d.id === id)!;
  expect(before.score).toBeCloseTo(failingScore, 5);
  expect(before.fix).toBeDefined();
  const fixed = applyEdit(broken, before.fix!);
  expect(scoreOf(scoreStructure(fixed), id)).toBe(1);
  return fixed;
}

describe('scoreStructure on hand-made skills', () => {
  it('gives a complete skill 1 on every dimension and proposes no fix', () => {
    const r = scoreStructure(GOOD);
    expect(r.dimensions.map((d) => d.id)).toEqual(Object.keys(DIMENSION_RULES));
    for (const d of r.dimensions) expect([d.id, d.score, d.fix]).toEqual([d.id, 1, undefined]);
    expect(r.total).toBe(1);
  });

  it('scores a bare skill low, with a finding and a fix for each failure', () => {
    const r = scoreStructure(BAD);
    expect(scores(BAD)).toEqual({
      fences_closed: 0,
      frontmatter_fields: 0,
      description_quality: 0,
      when_to_use: 0,
      when_not_to_use: 0,
      examples: 0,
      output_contract: 0,
      workflow_steps: 0,
      body_length: 1,
    });
    expect(r.total).toBeCloseTo(1 / 9, 10);
    expect(r.dimensions.find((d) => d.id === 'fences_closed')!.finding).toMatch(/opened at line 7 is never closed/);
    for (const d of r.dimensions.filter((x) => x.score < 1)) expect(d.fix, d.id).toBeDefined();
  });

  it('reaches 1 on every dimension by applying proposed fixes one at a time (nothing gets stuck)', () => {
    let text = BAD;
    for (let step = 0; step < 20; step++) {
      const next = scoreStructure(text).dimensions.find((d) => d.fix);
      if (!next) break;
      text = applyEdit(text, next.fix!);
    }
    expect(scoreStructure(text).total).toBe(1);
    expect(text.startsWith('---\nname: helper\n')).toBe(true);
    // The original title, text and (now closed) code block come first, the added sections after them.
    const titles = parseSkill(text).sections.map((s) => `${s.level} ${s.title}`);
    // Closing the fence turns the sample into a code block, which already counts as an example.
    expect(titles).toEqual(['1 helper', '2 When to Use', '2 When NOT to Use', '2 Output Format', '2 Workflow']);
    expect(text).toContain('# helper\n\nThis skill helps with stuff. It is useful.\n\nDo the thing carefully and make it good.\n\n```text\nsome sample\n```\n');
  });
});

describe('each dimension: fails when its part is missing, and its fix makes it pass', () => {
  it('frontmatter_fields', () => {
    const noFrontmatter = GOOD.slice(parseSkill(GOOD).bodyStart);
    expectFixRepairs(noFrontmatter, 'frontmatter_fields', 0);
    expectFixRepairs(GOOD.replace('name: release-notes', 'name: Release Notes!'), 'frontmatter_fields', 0.75);
    expectFixRepairs(GOOD.replace(/description: .*\n/, ''), 'frontmatter_fields', 0.5);
    const fixed = expectFixRepairs(GOOD.replace('name: release-notes', 'name: [broken'), 'frontmatter_fields', 0);
    expect(fixed.slice(parseSkill(fixed).bodyStart)).toBe(noFrontmatter);
  });

  it('description_quality', () => {
    expectFixRepairs(GOOD.replace(/description: .*\n/, 'description: Release notes.\n'), 'description_quality', 1 / 3);
    const long = `description: Use when asked for release notes. ${'Covers every kind of change in detail. '.repeat(30)}\n`;
    const fixed = expectFixRepairs(GOOD.replace(/description: .*\n/, long), 'description_quality', 2 / 3);
    expect([...String(parseSkill(fixed).frontmatter!.data!.description)].length).toBeLessThanOrEqual(1024);
    expectFixRepairs(GOOD.replace(/description: .*\n/, ''), 'description_quality', 0);
  });

  it('when_to_use, with partial credit for a frontmatter triggers list', () => {
    const missing = without(GOOD, 'When to Use');
    const fixed = expectFixRepairs(missing, 'when_to_use', 0);
    expect(parseSkill(fixed).sections.map((s) => s.title).slice(0, 3)).toEqual(['Release Notes', 'When to Use', 'When NOT to Use']);
    expectFixRepairs(missing.replace('---\n\n', 'triggers:\n  - release notes\n---\n\n'), 'when_to_use', 0.5);
  });

  it('when_not_to_use, placed right after When to Use', () => {
    const missing = without(GOOD, 'When NOT to Use');
    const fixed = expectFixRepairs(missing, 'when_not_to_use', 0);
    expect(parseSkill(fixed).sections.map((s) => s.title).slice(1, 3)).toEqual(['When to Use', 'When NOT to Use']);
    expectFixRepairs(missing.replace('Turns merged', 'Not for internal reports. Turns merged'), 'when_not_to_use', 0.5);
  });

  it('examples, output_contract', () => {
    expectFixRepairs(without(GOOD, 'Example'), 'examples', 0);
    expectFixRepairs(without(GOOD, 'Output Format'), 'output_contract', 0);
  });

  it('workflow_steps: none at all, or a heading with prose only', () => {
    expectFixRepairs(without(GOOD, 'Workflow'), 'workflow_steps', 0);
    const prose = applyEdit(GOOD, { type: 'replace_section', section: 'Workflow', body: 'Read the titles, then write.' });
    const fixed = expectFixRepairs(prose, 'workflow_steps', 0.5);
    expect(fixed).toContain('## Workflow\n\nRead the titles, then write.\n');
  });

  it('fences_closed', () => {
    const fixed = expectFixRepairs(`${GOOD}\n~~~~python\nprint("x")\n`, 'fences_closed', 0);
    expect(fixed.endsWith('print("x")\n~~~~\n')).toBe(true);
  });

  it('body_length: one big section, many small sections, or no headings at all', () => {
    const filler = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `${tag} line ${i}.`).join('\n');
    const oneBig = applyEdit(GOOD, { type: 'append_section', heading: 'Reference', body: filler(560, 'ref') });
    expect(scoreOf(scoreStructure(oneBig), 'body_length')).toBeLessThan(1);
    expect(scoreStructure(oneBig).dimensions.find((d) => d.id === 'body_length')!.fix).toMatchObject({ type: 'replace_section', section: 'Reference' });
    const bodyLines = oneBig.slice(parseSkill(oneBig).bodyStart).match(/\n/g)!.length;
    expect(bodyLines).toBe(600);
    expectFixRepairs(oneBig, 'body_length', 0.8);
    let many = GOOD;
    for (let i = 0; i < 30; i++) many = applyEdit(many, { type: 'append_section', heading: `Topic ${i}`, body: filler(20, `t${i}`) });
    const fixedMany = expectFixRepairs(many, 'body_length', scoreOf(scoreStructure(many), 'body_length'));
    expect(fixedMany).toContain('## Further reference');
    expect(fixedMany).toContain('## When NOT to Use');
    expectFixRepairs(`${filler(1200, 'flat')}\n`, 'body_length', 0);
  });
});

describe('bilingual documents', () => {
  const ZH = '---\nname: zh-skill\ndescription: 当需要把多个重叠的 skill 合并成一个时使用，输出合并后的 SKILL.md 与迁移说明。\n---\n# 技能\n\n## 何时使用\n\n- 合并\n\n## 工作流程\n\n1. 读\n2. 写\n';

  it('recognises Chinese headings and proposes Chinese sections', () => {
    const r = scoreStructure(ZH);
    expect(scoreOf(r, 'when_to_use')).toBe(1);
    expect(scoreOf(r, 'workflow_steps')).toBe(1);
    expect(scoreOf(r, 'description_quality')).toBe(1);
    const fix = r.dimensions.find((d) => d.id === 'when_not_to_use')!.fix!;
    expect(fix).toMatchObject({ type: 'append_section', heading: '何时不使用', after: '何时使用' });
    const fixed = applyEdit(ZH, fix);
    expect(scoreOf(scoreStructure(fixed), 'when_not_to_use')).toBe(1);
    expect(fixed).toContain('## 何时使用\n\n- 合并\n\n## 何时不使用\n\n');
  });

  it('does not take "When to use <another tool>" for the skill\'s own section', () => {
    expect(scores('# S\n\n## When to Use WebFetch\n\nx\n').when_to_use).toBe(0);
    expect(scores('# S\n\n## 🎯 When to use this skill\n\nx\n').when_to_use).toBe(1);
    expect(scores('# S\n\n## When NOT to use\n\nx\n').when_to_use).toBe(0);
  });
});
