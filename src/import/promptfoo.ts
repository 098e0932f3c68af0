// A promptfoo config's tests as a whetstone task suite: one task per test × prompt, the test's vars
// (over defaultTest's) substituted into the prompt's `{{ var }}` placeholders, and its assertions (after
// defaultTest's) mapped to judges by promptfoo-asserts.ts. Nothing is dropped silently: an assertion that
// has no faithful judge is listed with its `file:line:col`, and written into the suite as a comment above
// the task, whose category becomes `promptfoo-partial`; a test none of whose assertions maps cannot be a
// task (a task needs a judge), so it is written out commented, with the reasons, and listed as well.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { Document } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { IdAllocator, slugify } from '../config/eval-ids.js';
import { displayPath, formatPath, readYaml } from '../config/load-yaml.js';
import { suiteSchema, type JudgeSpec } from '../config/suite-schema.js';
import { mapAssertion, type PromptfooAssertion } from './promptfoo-asserts.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const vars = z.record(z.string(), z.unknown());
const assertion = z.looseObject({ type: z.string().optional() });
const promptEntry = z.union([nonEmpty, z.looseObject({ raw: nonEmpty.optional(), id: z.string().optional(), label: z.string().optional() })]);
const configSchema = z.looseObject({
  description: z.string().optional(),
  prompts: z.union([nonEmpty, z.array(promptEntry).min(1, 'lists no prompts')], { error: 'expected a prompt or a list of prompts' }),
  defaultTest: z.looseObject({ vars: vars.optional(), assert: z.array(assertion).optional() }).optional(),
  tests: z.array(z.looseObject({ description: z.string().optional(), vars: vars.optional(), assert: z.array(assertion).optional() })).min(1, 'lists no tests'),
});

export interface ImportIssue {
  /** `file:line:col` of the assertion (or the test) that could not be carried over. */
  where: string;
  field: string;
  message: string;
  /** The tasks the test became (empty when it could not become one). */
  tasks: string[];
}

export interface PromptfooImport {
  yaml: string;
  tasks: number;
  tests: number;
  prompts: number;
  issues: ImportIssue[];
  /** Tests written out commented because none of their assertions maps. */
  unmapped: number;
}

/** `outDir`: where the suite will be written; places inside it name the config relative to that folder. */
export function importPromptfoo(file: string, opts: { skillId?: string; outDir?: string } = {}): PromptfooImport {
  const path = resolve(file);
  const { raw, src } = readYaml(path, 'promptfoo config');
  const shown = displayPath(path);
  const fromOut = opts.outDir ? relative(opts.outDir, path) : shown;
  const inSuite = (where: string) => (where.startsWith(shown) ? fromOut + where.slice(shown.length) : where);
  if (typeof raw === 'object' && raw !== null && typeof (raw as Record<string, unknown>)['tests'] === 'string') {
    throw new ConfigError('tests loaded from a file are not imported: list the tests inline in the config', src.at(['tests']), 'tests');
  }
  const cfg = src.validate(configSchema, raw);
  const prompts = (typeof cfg.prompts === 'string' ? [cfg.prompts] : cfg.prompts).map((p, j) => promptText(p, dirname(path), src.at(['prompts', j])));
  const ids = new IdAllocator('test');
  const issues: ImportIssue[] = [];
  const tasks: Record<string, unknown>[] = [];
  const notes: { index: number; lines: string[] }[] = [];
  const trailing: string[] = [];
  let unmapped = 0;
  cfg.tests.forEach((t, i) => {
    const v = { ...(cfg.defaultTest?.vars ?? {}), ...(t.vars ?? {}) };
    const render = (s: string) => s.replace(/\{\{\s*([A-Za-z_][\w.]*)\s*\}\}/g, (whole, name: string) => (name in v ? valueText(v[name]) : whole));
    const judges: JudgeSpec[] = [];
    const lost: Omit<ImportIssue, 'tasks'>[] = [];
    const asserts: [PromptfooAssertion, (string | number)[]][] = [
      ...(cfg.defaultTest?.assert ?? []).map((a, k): [PromptfooAssertion, (string | number)[]] => [a, ['defaultTest', 'assert', k]]),
      ...(t.assert ?? []).map((a, k): [PromptfooAssertion, (string | number)[]] => [a, ['tests', i, 'assert', k]]),
    ];
    for (const [a, at] of asserts) {
      const m = mapAssertion(a, render);
      if ('judge' in m) judges.push(m.judge);
      else lost.push({ where: src.at(at), field: formatPath(at), message: m.unsupported });
    }
    const base = ids.take(t.description?.trim() || i);
    const mine = prompts.map((p, j) => ({ id: prompts.length > 1 ? `${base}-p${j + 1}` : base, prompt: render(p) }));
    for (const m of mine) {
      const left = /\{\{[^}]*\}\}/.exec(m.prompt);
      if (left) lost.push({ where: src.at(['tests', i, 'vars']), field: formatPath(['tests', i, 'vars']), message: `${m.id}: the prompt keeps ${left[0]} (no such var, or a template filter this import does not run)` });
    }
    const taskIds = judges.length ? mine.map((m) => m.id) : [];
    if (!judges.length) unmapped++;
    issues.push(...lost.map((l) => ({ ...l, tasks: taskIds })));
    const lines = lost.map((l) => `promptfoo ${l.field} at ${inSuite(l.where)}: ${l.message}`);
    for (const m of mine) {
      const task: Record<string, unknown> = { id: m.id, prompt: m.prompt };
      const description = [t.description, lost.length ? `imported from promptfoo with ${lost.length} check(s) not carried over` : undefined].filter(Boolean).join(' — ');
      if (description) task['description'] = description;
      if (lost.length) task['category'] = 'promptfoo-partial';
      task['judges'] = judges;
      if (!judges.length) {
        trailing.push(`UNMAPPED test ${i} (${inSuite(src.at(['tests', i]))}): no assertion could be mapped, so it is not a task:`, ...lines.map((l) => `  ${l}`), ...new Document(task, { aliasDuplicateObjects: false }).toString().trimEnd().split('\n').map((l) => `  ${l}`));
        continue;
      }
      if (lines.length) notes.push({ index: tasks.length, lines });
      tasks.push(task);
    }
  });
  if (tasks.length === 0) {
    throw new ConfigError(`nothing to import: no test has an assertion whetstone can judge (${issues.length} not mapped; first: ${issues[0]?.message ?? 'no assertions'})`, src.at(['tests']), 'tests');
  }
  const suite = { skill_id: opts.skillId ?? (slugify(cfg.description ?? '') || 'imported'), version: '1.0', description: `Imported from ${fromOut} (promptfoo)`, tasks };
  const checked = suiteSchema.safeParse(suite);
  if (!checked.success) throw new ConfigError(`internal: the imported suite does not validate: ${checked.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
  const doc = new Document(suite, { aliasDuplicateObjects: false });
  for (const n of notes) {
    const node = doc.getIn(['tasks', n.index], true) as { commentBefore?: string } | undefined;
    if (node) node.commentBefore = n.lines.map((l) => ` ${l}`).join('\n');
  }
  if (trailing.length) doc.comment = trailing.map((l) => ` ${l}`).join('\n');
  return { yaml: doc.toString({ lineWidth: 0 }), tasks: tasks.length, tests: cfg.tests.length, prompts: prompts.length, issues, unmapped };
}

/** A prompt as text: inline, `file://` beside the config, or an object's `raw`. */
function promptText(p: z.infer<typeof promptEntry>, dir: string, where: string): string {
  const ref = typeof p === 'string' ? p : (p.raw ?? p.id ?? '');
  if (!ref.startsWith('file://')) {
    if (!ref) throw new ConfigError('a prompt object needs "raw" (or an "id" naming a file://)', where);
    return ref;
  }
  const f = resolve(dir, ref.slice('file://'.length));
  if (/\.(js|cjs|mjs|ts|py)$/i.test(f)) throw new ConfigError(`prompt functions are not imported (${ref}); give the prompt as text or a text file`, where);
  try {
    return readFileSync(f, 'utf8');
  } catch {
    throw new ConfigError(`cannot read prompt file ${displayPath(f)}`, where);
  }
}

function valueText(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : JSON.stringify(v);
}
