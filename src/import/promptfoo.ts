// A promptfoo config's tests as a whetstone task suite: one task per test × prompt, the test's vars
// (over defaultTest's) substituted into the prompt's `{{ var }}` placeholders, and its assertions (after
// defaultTest's) mapped to judges by promptfoo-asserts.ts. Nothing is dropped silently: an assertion that
// has no faithful judge is listed with its `file:line:col`, and written into the suite as a comment above
// the task, whose category becomes `promptfoo-partial`; a test none of whose assertions maps cannot be a
// task (a task needs a judge), so it is written out commented, with the reasons, and listed as well.
//
// Prompts are read as promptfoo reads them (promptfoo.dev/docs/configuration/prompts: "Prompts from file",
// "Multiple prompts in a single file", "Chat-style prompts"): a text file holds several prompts separated
// by a line `---`, each its own prompt (one task per prompt per test); a `.json`/`.yaml` file holding a
// list of {role, content} messages (or `{messages: [...]}`) is a chat prompt, whose system turn becomes
// the task's `system` (sent before the skill's text, see suite-schema.ts) and whose user turn its prompt.
// A test without assertions is still a test in promptfoo (it runs and shows the output): it becomes an
// unjudged task, run and reported but kept out of every rate, as an evals.json eval with nothing to grade.
// A defaultTest assertion not carried over is listed once, with every task it applies to.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { Document, parse as loadYamlText } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../core/errors.js';
import { IdAllocator, slugify } from '../config/eval-ids.js';
import { displayPath, formatPath, readYaml } from '../config/load-yaml.js';
import { suiteSchema, type JudgeSpec } from '../config/suite-schema.js';
import { mapAssertion, type PromptfooAssertion } from './promptfoo-asserts.js';
import { promptfooEngine, renderPromptfoo, undefinedVariables, varCombinations } from './promptfoo-render.js';

const nonEmpty = z.string().min(1, 'must not be empty');
const vars = z.record(z.string(), z.unknown());
const assertion = z.looseObject({ type: z.string().optional() });
// A test's options promptfoo applies to its prompts: `prefix`/`suffix` around the prompt's text (the test's, else
// defaultTest's), `disableVarExpansion` (the test's, over defaultTest's).
const options = z.looseObject({ prefix: z.string().optional(), suffix: z.string().optional(), disableVarExpansion: z.boolean().optional() });
const promptEntry = z.union([nonEmpty, z.looseObject({ raw: nonEmpty.optional(), id: z.string().optional(), label: z.string().optional() })]);
const configSchema = z.looseObject({
  description: z.string().optional(),
  prompts: z.union([nonEmpty, z.array(promptEntry).min(1, 'lists no prompts')], { error: 'expected a prompt or a list of prompts' }),
  defaultTest: z.looseObject({ vars: vars.optional(), assert: z.array(assertion).optional(), options: options.optional() }).optional(),
  tests: z.array(z.looseObject({ description: z.string().optional(), vars: vars.optional(), assert: z.array(assertion).optional(), options: options.optional() })).min(1, 'lists no tests'),
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
  /** The runs promptfoo makes of the tests: one per combination of a test's list vars' values. */
  combinations: number;
  /** Tests written out commented because none of their assertions maps. */
  unmapped: number;
  /** Tasks from tests without assertions, run but not graded. */
  unjudged: number;
  /** What the config has that the suite does not carry (providers, nunjucksFilters, file vars), each named once. */
  dropped: string[];
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
  const prompts = (typeof cfg.prompts === 'string' ? [cfg.prompts] : cfg.prompts).flatMap((p, j) => promptsOf(p, dirname(path), src.at(['prompts', j])));
  const templates = promptfooEngine(dirname(path), isRecord(cfg['env']) ? cfg['env'] : {});
  const dropped = droppedOf(cfg, src);
  const ids = new IdAllocator('test');
  const issues: ImportIssue[] = [];
  const tasks: Record<string, unknown>[] = [];
  const notes: { index: number; lines: string[] }[] = [];
  const trailing: string[] = [];
  let unmapped = 0;
  let combinations = 0;
  // defaultTest's assertions not carried over: one issue each, naming every task it applies to.
  const fromDefault = new Map<number, ImportIssue>();
  cfg.tests.forEach((t, i) => {
    const merged = { ...(cfg.defaultTest?.vars ?? {}), ...(t.vars ?? {}) };
    const opts = { ...(cfg.defaultTest?.options ?? {}), ...(t.options ?? {}) };
    const prefix = t.options?.prefix || cfg.defaultTest?.options?.prefix || '';
    const suffix = t.options?.suffix || cfg.defaultTest?.options?.suffix || '';
    const combos = varCombinations(merged, opts.disableVarExpansion === true);
    combinations += combos.length;
    const base = ids.take(t.description?.trim() || i);
    const testIssues = new Map<string, ImportIssue>();
    // One test per combination of its list vars' values, as promptfoo runs it: `<test>-v<k>` when more than one.
    combos.forEach((v, c) => {
      const varsAt = src.at(t.vars ? ['tests', i, 'vars'] : ['tests', i]);
      // promptfoo renders an assertion's value over the test's vars with the same engine.
      const render = (s: string) => rendered(() => templates.renderString(s, v), varsAt);
      const judges: JudgeSpec[] = [];
      const lost: Omit<ImportIssue, 'tasks'>[] = [];
      const lostDefaults: number[] = [];
      const asserts: [PromptfooAssertion, (string | number)[]][] = [
        ...(cfg.defaultTest?.assert ?? []).map((a, k): [PromptfooAssertion, (string | number)[]] => [a, ['defaultTest', 'assert', k]]),
        ...(t.assert ?? []).map((a, k): [PromptfooAssertion, (string | number)[]] => [a, ['tests', i, 'assert', k]]),
      ];
      for (const [a, at] of asserts) {
        const m = mapAssertion(a, render);
        if ('judge' in m) judges.push(m.judge);
        else {
          if (at[0] === 'defaultTest' && !fromDefault.has(at[2] as number)) fromDefault.set(at[2] as number, { where: src.at(at), field: formatPath(at), message: m.unsupported, tasks: [] });
          if (at[0] === 'defaultTest') lostDefaults.push(at[2] as number);
          lost.push({ where: src.at(at), field: formatPath(at), message: m.unsupported });
        }
      }
      const unjudged = asserts.length === 0;
      const stem = combos.length > 1 ? `${base}-v${c + 1}` : base;
      const mine = prompts.map((p, j) => {
        const id = prompts.length > 1 ? `${stem}-p${j + 1}` : stem;
        if (p.chat !== undefined && (prefix || suffix)) throw new ConfigError(`options.prefix/suffix around chat prompt file ${p.chat} is not imported: promptfoo would no longer read it as messages`, src.at(t.options ? ['tests', i, 'options'] : ['defaultTest', 'options']));
        const text = rendered(() => renderPromptfoo(templates, prefix + p.raw + suffix, v), varsAt);
        const missing = [...new Set(undefinedVariables(p.raw, v))];
        if (missing.length) lost.push({ where: varsAt, field: formatPath(t.vars ? ['tests', i, 'vars'] : ['tests', i]), message: `${id}: the prompt reads ${missing.map((x) => `{{ ${x} }}`).join(', ')}, which no var of this test gives (promptfoo renders it empty too)` });
        if (p.chat === undefined) return { id, prompt: text };
        const turns = chatPrompt(JSON.parse(text) as unknown, p.chat, src.at(['prompts', j]));
        return { id, prompt: turns.text, ...(turns.system !== undefined ? { system: turns.system } : {}) };
      });
      const taskIds = judges.length || unjudged ? mine.map((m) => m.id) : [];
      if (!judges.length && !unjudged && c === 0) unmapped++;
      for (const k of lostDefaults) {
        const named = fromDefault.get(k)!.tasks;
        if (taskIds.length) named.push(...taskIds);
        else if (!named.includes(`(test ${i}, not imported)`)) named.push(`(test ${i}, not imported)`);
      }
      // One issue per lost check of the test, naming the tasks of every combination.
      for (const l of lost.filter((x) => !x.field.startsWith('defaultTest'))) {
        const key = `${l.where}\0${l.field}\0${l.message}`;
        if (!testIssues.has(key)) testIssues.set(key, { ...l, tasks: [] });
        testIssues.get(key)!.tasks.push(...taskIds);
      }
      const lines = lost.map((l) => `promptfoo ${l.field} at ${inSuite(l.where)}: ${l.message}`);
      for (const m of mine) {
        const task: Record<string, unknown> = { id: m.id, ...(m.system !== undefined ? { system: m.system } : {}), prompt: m.prompt };
        const description = [t.description, lost.length ? `imported from promptfoo with ${lost.length} check(s) not carried over` : undefined].filter(Boolean).join(' — ');
        if (description) task['description'] = description;
        if (lost.length) task['category'] = 'promptfoo-partial';
        if (unjudged) task['unjudged'] = true;
        else task['judges'] = judges;
        if (!judges.length && !unjudged) {
          trailing.push(`UNMAPPED test ${i} (${inSuite(src.at(['tests', i]))}): no assertion could be mapped, so it is not a task:`, ...lines.map((l) => `  ${l}`), ...new Document(task, { aliasDuplicateObjects: false }).toString().trimEnd().split('\n').map((l) => `  ${l}`));
          continue;
        }
        if (lines.length) notes.push({ index: tasks.length, lines });
        tasks.push(task);
      }
    });
    issues.push(...testIssues.values());
  });
  issues.unshift(...fromDefault.values());
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
  if (dropped.length) doc.commentBefore = dropped.map((l) => ` not imported from promptfoo: ${l.replace(shown, fromOut)}`).join('\n');
  const unjudged = tasks.filter((t) => t['unjudged']).length;
  return { yaml: doc.toString({ lineWidth: 0 }), tasks: tasks.length, tests: cfg.tests.length, combinations, prompts: prompts.length, issues, unmapped, unjudged, dropped };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A template promptfoo's engine refuses (a syntax error) is bad input at the test's vars. */
function rendered(render: () => string, where: string): string {
  try {
    return render();
  } catch (e) {
    throw new ConfigError(`promptfoo's template engine (Nunjucks) cannot render this test's prompt: ${e instanceof Error ? e.message.split('\n').map((l) => l.trim()).filter(Boolean).join(' ') : String(e)}`, where);
  }
}

/** What the config names that a suite cannot carry: whetstone runs the engine pipeline.yaml names. */
function droppedOf(cfg: Record<string, unknown>, src: { at(path: (string | number)[]): string }): string[] {
  const out: string[] = [];
  const providers = cfg['providers'] === undefined ? [] : Array.isArray(cfg['providers']) ? cfg['providers'] : [cfg['providers']];
  providers.forEach((p, k) => {
    const id = typeof p === 'string' ? p : isRecord(p) ? String(p['id'] ?? p['label'] ?? Object.keys(p)[0] ?? '?') : '?';
    out.push(`${src.at(Array.isArray(cfg['providers']) ? ['providers', k] : ['providers'])} provider ${id}: the suite runs on the engine pipeline.yaml names (engine:, judge_engine:)`);
  });
  (Array.isArray(cfg['tests']) ? cfg['tests'] : []).forEach((t, i) => {
    if (isRecord(t) && t['prompts'] !== undefined) out.push(`${src.at(['tests', i, 'prompts'])} tests[${i}].prompts: the test becomes a task for every prompt, not only the prompts it names`);
  });
  if (isRecord(cfg['nunjucksFilters'])) {
    for (const name of Object.keys(cfg['nunjucksFilters'])) out.push(`${src.at(['nunjucksFilters', name])} nunjucksFilters.${name}: a custom filter (JavaScript) is not run; a template using it fails to render`);
  }
  return out;
}

interface Prompt {
  /** The prompt as promptfoo holds it before rendering: the text, or a chat file's messages as JSON. */
  raw: string;
  /** A chat prompt file (its reference, for messages). */
  chat?: string;
}

/** The prompts an entry holds: inline, an object's `raw`, or a `file://` beside the config (text or chat). */
function promptsOf(p: z.infer<typeof promptEntry>, dir: string, where: string): Prompt[] {
  const ref = typeof p === 'string' ? p : (p.raw ?? p.id ?? '');
  if (!ref.startsWith('file://')) {
    if (!ref) throw new ConfigError('a prompt object needs "raw" (or an "id" naming a file://)', where);
    return [{ raw: ref }];
  }
  const f = resolve(dir, ref.slice('file://'.length));
  if (/\.(js|cjs|mjs|ts|py)$/i.test(f)) throw new ConfigError(`prompt functions are not imported (${ref}); give the prompt as text or a text file`, where);
  let text: string;
  try {
    text = readFileSync(f, 'utf8');
  } catch {
    throw new ConfigError(`cannot read prompt file ${displayPath(f)}`, where);
  }
  if (/\.(json|ya?ml)$/i.test(f)) {
    let raw: unknown;
    try {
      raw = loadYamlText(text);
    } catch (e) {
      throw new ConfigError(`chat prompt file ${ref} does not parse: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, where);
    }
    chatPrompt(raw, ref, where);
    return [{ raw: JSON.stringify(raw), chat: ref }];
  }
  // promptfoo splits a text file on its separator line, `---` (PROMPTFOO_PROMPT_SEPARATOR changes it there).
  // A file with no separator is one prompt, kept byte for byte; split prompts are trimmed as promptfoo does.
  const parts = text.split(/^---[ \t]*$/m);
  if (parts.length === 1) return [{ raw: text }];
  return parts.map((s) => s.trim()).filter(Boolean).map((s) => ({ raw: s }));
}

/** A message's content: a string, or a list of parts (Anthropic's and OpenAI's messages) read as their text. */
const part = z.looseObject({ type: z.string(), text: z.string().optional() });
const message = z.looseObject({ role: z.enum(['system', 'user', 'assistant']), content: z.union([z.string(), z.array(part).min(1)]) });
const chat = z.union([z.array(message).min(1), z.looseObject({ messages: z.array(message).min(1) })]);

function contentText(content: string | z.infer<typeof part>[], ref: string, where: string): string {
  if (typeof content === 'string') return content;
  return content
    .map((p) => {
      if (p.type !== 'text' || typeof p.text !== 'string') throw new ConfigError(`chat prompt file ${ref}: a ${p.type} content part has no text a task can carry; only {type: text, text} parts are imported`, where);
      return p.text;
    })
    .join('\n\n');
}

/** A chat prompt (parsed): system turn(s), then exactly one user turn; anything else has no faithful task. */
function chatPrompt(raw: unknown, ref: string, where: string): { text: string; system?: string } {
  const parsed = chat.safeParse(raw);
  if (!parsed.success) throw new ConfigError(`chat prompt file ${ref}: expected a list of {role: system|user|assistant, content} messages (or {messages: [...]}), content a string or a list of {type: text, text} parts`, where);
  const messages = Array.isArray(parsed.data) ? parsed.data : parsed.data.messages;
  const system = messages.filter((m) => m.role === 'system').map((m) => contentText(m.content, ref, where).trim());
  const turns = messages.filter((m) => m.role !== 'system');
  if (turns.length !== 1 || turns[0]!.role !== 'user') {
    throw new ConfigError(`chat prompt file ${ref}: ${turns.length} user/assistant turns; a task is one system turn and one user turn, so a multi-turn conversation is not imported`, where);
  }
  return { text: contentText(turns[0]!.content, ref, where), ...(system.length ? { system: system.join('\n\n') } : {}) };
}
