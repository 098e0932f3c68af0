// skill-creator's `evals/evals.json` read as a task suite, unchanged (the format of Anthropic's
// skill-creator, references/schemas.md: {skill_name, evals: [{id, prompt, expected_output, files,
// expectations}]}), with the variants public skill repositories use: `assertions` instead of
// `expectations` (never both); an assertion as a string or an object whose statement is under `text`,
// `check` or `description`; ids that are numbers or text, from 0 or 1, with gaps, or missing; extra keys
// anywhere. Each expectation is its own llm-rubric judgement (all must pass); an eval with none is graded
// against `expected_output`; an eval with neither is run and reported as unjudged, not failed.
// `files` are relative to the skill root (the folder holding `evals/`), copied into the task's workspace
// at the same relative path, and refused when missing or outside that root.
import { createHash, type Hash } from 'node:crypto';
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, ConfigErrors } from '../core/errors.js';
import { IdAllocator, slugify } from './eval-ids.js';
import { displayPath, formatPath, type YamlSource } from './load-yaml.js';
import { SAFE_ID, type JudgeSpec, type Suite, type Task, type TaskFile } from './suite-schema.js';

const nonEmpty = z.string().trim().min(1, 'must not be empty');
const anyId = z.union([z.number(), nonEmpty], { error: 'expected a number or a string' });

const assertionObject = z.looseObject({
  text: nonEmpty.optional(),
  check: nonEmpty.optional(),
  description: nonEmpty.optional(),
  name: anyId.optional(),
  id: anyId.optional(),
  category: z.string().optional(),
});
const assertion = z.union([nonEmpty, assertionObject], { error: 'expected a statement: a string, or an object with "text", "check" or "description"' });

const evalSchema = z.looseObject({
  id: anyId.optional(),
  name: z.string().optional(),
  eval_name: z.string().optional(),
  prompt: nonEmpty,
  expected_output: z.string().optional(),
  files: z.array(nonEmpty).optional(),
  expectations: z.array(assertion).optional(),
  assertions: z.array(assertion).optional(),
  // whetstone's own optional keys: a split, category or negative control the author chose to add.
  category: z.string().optional(),
  split: z.enum(['train', 'holdout']).optional(),
  negative: z.boolean().optional(),
  critical: z.boolean().optional(),
  pass_k: z.number().int().min(1).max(100).optional(),
  timeout_seconds: z.number().positive().optional(),
});
type EvalInput = z.infer<typeof evalSchema>;

export const evalsFileSchema = z.looseObject({
  skill_name: z.string().optional(),
  evals: z.array(evalSchema).min(1, 'lists no evals'),
});

/** The folder `files` are relative to: the one holding `evals/` (else the file's own folder). */
export function skillRootOf(evalsFile: string): string {
  const dir = dirname(evalsFile);
  return basename(dir) === 'evals' ? dirname(dir) : dir;
}

export function evalsJsonSuite(path: string, raw: unknown, src: YamlSource, timeoutMs: number): Suite {
  const file = src.validate(evalsFileSchema, raw);
  const root = skillRootOf(path);
  const hash = createHash('sha256').update(src.bytes);
  const problems: ConfigError[] = [];
  const ids = new IdAllocator('eval');
  const seen = new Map<string, number>();
  const tasks = file.evals.map((e, i) => {
    const where = (...p: (string | number)[]) => src.at(['evals', i, ...p]);
    const fail = (msg: string, ...p: (string | number)[]) => problems.push(new ConfigError(msg, where(...p), formatPath(['evals', i, ...p])));
    const original = e.id ?? i;
    const key = `${typeof original}:${original}`;
    const first = seen.get(key);
    if (first !== undefined) fail(`duplicate eval id ${JSON.stringify(original)} (first used at line ${src.lineOf(['evals', first])})`, 'id');
    else seen.set(key, i);
    const label = `eval ${JSON.stringify(original)}`;
    return evalTask(e, i, ids.take(original), { root, hash, timeoutMs, label, fail });
  });
  if (problems.length === 1) throw problems[0]!;
  if (problems.length > 1) throw new ConfigErrors(problems);
  return {
    path,
    dir: dirname(path),
    skillId: file.skill_name?.trim() || basename(root),
    tasks,
    contentHash: `sha256:${hash.digest('hex')}`,
    format: 'skill-creator-evals',
  };
}

interface EvalCtx {
  root: string;
  hash: Hash;
  timeoutMs: number;
  label: string;
  fail: (msg: string, ...path: (string | number)[]) => void;
}

function evalTask(e: EvalInput, index: number, id: string, c: EvalCtx): Task {
  if (e.expectations && e.assertions) c.fail('give either "expectations" or "assertions", not both', 'assertions');
  const listKey = e.assertions ? 'assertions' : 'expectations';
  const statements = (e.assertions ?? e.expectations ?? []).map((a, k) => {
    if (typeof a === 'string') return a.trim();
    const s = a.text ?? a.check ?? a.description;
    if (s === undefined) c.fail('an assertion object needs its statement under "text", "check" or "description"', listKey, k);
    return s ?? '';
  });
  const expected = e.expected_output?.trim();
  // Graded against the author's description of success only when no expectation says more.
  const expectations = statements.length > 0 ? statements : expected ? [expected] : [];
  const judges: JudgeSpec[] = expectations.map((rubric) => ({ type: 'llm-rubric', rubric }));
  const files = (e.files ?? []).flatMap((f, k) => placeFile(f, c, k));
  const name = e.name ?? e.eval_name;
  const category = e.category?.trim();
  return {
    id,
    prompt: e.prompt,
    ...(e.expected_output !== undefined ? { description: e.expected_output } : {}),
    judges,
    timeoutMs: e.timeout_seconds !== undefined ? Math.round(e.timeout_seconds * 1000) : c.timeoutMs,
    category: category ? (SAFE_ID.test(category) ? category : slugify(category) || 'uncategorized') : 'uncategorized',
    negative: e.negative ?? false,
    ...(e.split ? { split: e.split } : {}),
    ...(e.pass_k !== undefined ? { passK: e.pass_k } : {}),
    critical: e.critical ?? false,
    index,
    ...(files.length ? { files } : {}),
    ...(judges.length ? { expectations } : { unjudged: true }),
    origin: { format: 'skill-creator-evals', ...(e.id !== undefined ? { id: e.id } : {}), ...(name ? { name } : {}) },
  };
}

/** One `files` entry: inside the skill root (also through links), existing; its bytes join the hash. */
function placeFile(p: string, c: EvalCtx, k: number): TaskFile[] {
  const full = resolve(c.root, p);
  const rel = relative(c.root, full);
  if (isAbsolute(p) || rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    c.fail(`${c.label}: "${p}" is outside the skill folder ${displayPath(c.root)}; files must stay inside it`, 'files', k);
    return [];
  }
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    c.fail(`${c.label}: file not found: ${p} (paths are relative to the skill folder ${displayPath(c.root)})`, 'files', k);
    return [];
  }
  const realRel = relative(realpathSync(c.root), real);
  if (realRel.startsWith('..') || isAbsolute(realRel)) {
    c.fail(`${c.label}: "${p}" resolves (through a link) outside the skill folder`, 'files', k);
    return [];
  }
  const escaped = hashTree(c.hash, real, rel, realpathSync(c.root));
  if (escaped) {
    c.fail(`${c.label}: "${escaped}" inside "${p}" resolves (through a link) outside the skill folder`, 'files', k);
    return [];
  }
  return [{ source: real, path: rel }];
}

/**
 * A file's bytes, or a folder's files in name order, each under its relative name. Returns the first
 * entry of a folder that links out of `root` (it would be copied into the workspace), if any.
 */
function hashTree(hash: Hash, file: string, rel: string, root: string): string | undefined {
  const real = realpathSync(file);
  const inside = relative(root, real);
  if (inside.startsWith('..') || isAbsolute(inside)) return rel;
  if (statSync(real).isDirectory()) {
    for (const name of readdirSync(real).sort()) {
      const bad = hashTree(hash, join(real, name), join(rel, name), root);
      if (bad) return bad;
    }
    return undefined;
  }
  hash.update(`\0${rel}\0`).update(readFileSync(real));
  return undefined;
}
