// The seed generator's edit plans, read as whetstone edit actions. A ranking from the seed (or any program
// that writes its shape) carries a candidate as a plan, not as a skill:
//   execution_plan: {action, section_heading, content_lines[] | content | frontmatter_updates}
// (one step, or a list of steps), or a bare `{action, content}` on the candidate itself. The fragment is
// never the candidate's text: the plan is applied to the target with the same edit engine the generate
// stage uses (edits.ts), so what is evaluated is the target with the change made, which is also what the
// gate promotes. A plan that cannot be read or applied is refused with the path of the field at fault.
//
// Mapping (the executor's four actions, seed skill improvement-executor):
//   append_markdown_section  → append_section at the end; heading from section_heading, else from the
//                              content's first line when that is a heading
//   replace_markdown_section → replace_section of section_heading (the content's own copy of that heading
//                              line, if it starts with one, is not repeated)
//   insert_before_section    → insert_before_section: section_heading (or before_heading) is the section
//                              the new one goes before; the new section's heading is the content's first line
//   update_yaml_frontmatter  → update_frontmatter; the seed merges deeply (existing nested keys stay), so a
//                              mapping value is merged into the existing mapping before it is written
import { ConfigError } from '../core/errors.js';
import { applyEdit, type EditAction } from './edits.js';
import type { YamlValue } from './frontmatter.js';
import { parseSkill } from './markdown.js';

export const SEED_ACTIONS = ['append_markdown_section', 'replace_markdown_section', 'insert_before_section', 'update_yaml_frontmatter'] as const;

/** A problem in a plan, with the path (below the candidate) of the field at fault. */
export class SeedPlanError extends Error {
  constructor(
    message: string,
    readonly path: (string | number)[],
  ) {
    super(message);
  }
}

export interface SeedPlan {
  /** Where the plan is, below the candidate: ['execution_plan'], ['execution_plan', 2] or [] (bare). */
  path: (string | number)[];
  steps: { path: (string | number)[]; step: Record<string, unknown> }[];
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The candidate's seed plan, or undefined when it carries none (no execution_plan and no bare action). */
export function seedPlanOf(candidate: Record<string, unknown>): SeedPlan | undefined {
  const plan = candidate.execution_plan;
  if (plan !== undefined) {
    if (isRecord(plan)) return { path: ['execution_plan'], steps: [{ path: ['execution_plan'], step: plan }] };
    if (Array.isArray(plan) && plan.length > 0) {
      return {
        path: ['execution_plan'],
        steps: plan.map((s, i) => {
          if (!isRecord(s)) throw new SeedPlanError('each step of execution_plan must be an object with an "action"', ['execution_plan', i]);
          return { path: ['execution_plan', i], step: s };
        }),
      };
    }
    throw new SeedPlanError('execution_plan must be an object {action, section_heading, content_lines | frontmatter_updates} or a non-empty list of them', ['execution_plan']);
  }
  if (candidate.action !== undefined) return { path: [], steps: [{ path: [], step: candidate }] };
  return undefined;
}

const str = (step: Record<string, unknown>, keys: readonly string[], at: (string | number)[]): { value: string; key: string } | undefined => {
  for (const key of keys) {
    const v = step[key];
    if (v === undefined) continue;
    if (typeof v !== 'string' || v.trim() === '') throw new SeedPlanError(`${key} must be a non-empty string`, [...at, key]);
    return { value: v, key };
  }
  return undefined;
};

/** The step's content: content_lines joined by newlines, or content. Both at once is ambiguous. */
function contentOf(step: Record<string, unknown>, at: (string | number)[], action: string): string {
  const lines = step.content_lines;
  if (lines !== undefined && step.content !== undefined) throw new SeedPlanError(`${action} has both content_lines and content; give one`, [...at, 'content']);
  if (lines !== undefined) {
    if (!Array.isArray(lines) || lines.some((l) => typeof l !== 'string')) throw new SeedPlanError('content_lines must be a list of strings', [...at, 'content_lines']);
    if (lines.length === 0) throw new SeedPlanError('content_lines is empty: the plan adds nothing', [...at, 'content_lines']);
    return (lines as string[]).join('\n');
  }
  if (typeof step.content === 'string' && step.content.trim() !== '') return step.content;
  throw new SeedPlanError(`${action} needs content_lines (a list of lines) or content (a string)`, step.content === undefined ? at : [...at, 'content']);
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$/;

/** The content's first non-blank line as a heading, and the rest. */
function leadingHeading(content: string): { level: number; title: string; rest: string } | undefined {
  const lines = content.split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '');
  const m = first === -1 ? null : HEADING.exec(lines[first]!);
  if (!m) return undefined;
  return { level: m[1]!.length, title: m[2]!.trim(), rest: lines.slice(first + 1).join('\n') };
}

const bare = (t: string) => t.replace(/^ {0,3}#{1,6}[ \t]+/, '').trim();

/** One seed step as an edit action; `text` is the skill the step applies to (for deep frontmatter merges). */
export function seedStepAction(step: Record<string, unknown>, at: (string | number)[], text: string): EditAction {
  const action = step.action;
  if (typeof action !== 'string' || !(SEED_ACTIONS as readonly string[]).includes(action)) {
    throw new SeedPlanError(`action ${JSON.stringify(action)} is not one of the seed's actions: ${SEED_ACTIONS.join(', ')}`, [...at, 'action']);
  }
  const reason = `seed ${action}`;
  if (action === 'update_yaml_frontmatter') {
    const key = ['frontmatter_updates', 'fields', 'updates'].find((k) => step[k] !== undefined);
    const updates = key === undefined ? undefined : step[key];
    if (!isRecord(updates) || Object.keys(updates).length === 0) {
      throw new SeedPlanError('update_yaml_frontmatter needs frontmatter_updates: a mapping of the keys to set', key === undefined ? at : [...at, key]);
    }
    return { type: 'update_frontmatter', set: deepMerged(text, updates as Record<string, YamlValue>), reason };
  }
  const heading = str(step, ['section_heading', 'heading', 'before_heading'], at);
  const content = contentOf(step, at, action);
  const lead = leadingHeading(content);
  if (action === 'append_markdown_section') {
    if (heading) {
      const body = lead && bare(lead.title) === bare(heading.value) ? lead.rest : content;
      return { type: 'append_section', heading: heading.value, ...(lead && bare(lead.title) === bare(heading.value) ? { level: lead.level } : {}), body, reason };
    }
    if (!lead) throw new SeedPlanError('append_markdown_section needs section_heading, or content whose first line is a markdown heading ("## Title")', at);
    return { type: 'append_section', heading: lead.title, level: lead.level, body: lead.rest, reason };
  }
  if (action === 'replace_markdown_section') {
    if (!heading) throw new SeedPlanError('replace_markdown_section needs section_heading: the section whose content is replaced', at);
    const body = lead && bare(lead.title) === bare(heading.value) ? lead.rest : content;
    return { type: 'replace_section', section: bare(heading.value), body, reason };
  }
  // insert_before_section
  if (!heading) throw new SeedPlanError('insert_before_section needs section_heading: the section the new content goes before', at);
  if (!lead) {
    throw new SeedPlanError(
      'insert_before_section content must start with the new section\'s heading ("## Title"): text with no heading of its own would become part of the section above',
      [...at, step.content_lines !== undefined ? 'content_lines' : 'content'],
    );
  }
  return { type: 'insert_before_section', section: bare(heading.value), heading: lead.title, level: lead.level, body: lead.rest, reason };
}

/** The seed's deep merge: a mapping value keeps the existing mapping's other keys. */
function deepMerged(text: string, updates: Record<string, YamlValue>): Record<string, YamlValue> {
  const existing = parseSkill(text).frontmatter?.data ?? {};
  const merge = (a: unknown, b: YamlValue): YamlValue => {
    if (!isRecord(a) || !isRecord(b)) return b;
    const out: Record<string, YamlValue> = { ...(a as Record<string, YamlValue>) };
    for (const [k, v] of Object.entries(b)) out[k] = merge(out[k], v as YamlValue);
    return out;
  };
  const out: Record<string, YamlValue> = {};
  for (const [k, v] of Object.entries(updates)) {
    const merged = merge((existing as Record<string, unknown>)[k], v);
    out[k] = merged;
  }
  return out;
}

/** The target text with every step of the plan applied in order, and the edit actions used. */
export function applySeedPlan(text: string, plan: SeedPlan): { text: string; actions: EditAction[] } {
  let current = text;
  const actions: EditAction[] = [];
  for (const { path, step } of plan.steps) {
    const action = seedStepAction(step, path, current);
    try {
      current = applyEdit(current, action);
    } catch (e) {
      if (e instanceof ConfigError) throw new SeedPlanError(`${String(step.action)} cannot be applied to the target: ${e.message}`, path);
      throw e;
    }
    actions.push(action);
  }
  return { text: current, actions };
}
