// Reads intent cases: JSONL, one object a line, the seed's fields. Every problem points at
// `file:line:col` (the column of the offending value inside the line), and all of a file's problems are
// reported at once so it can be fixed in one pass. The utterance is kept byte for byte (typos are the
// point of some cases). Blank lines are skipped; a UTF-8 BOM is ignored.
import { deepestOffset, MAX_NESTING, nestsDeeper } from './nesting.js';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { yamlLib } from '../core/lazy.js';
import { z } from 'zod';
import { ConfigError, configProblems } from '../core/errors.js';
import { displayPath, formatPath, locate, readTextFile } from './load-yaml.js';
import type { Catalog } from './intent-catalog.js';
import { matcherProblems } from './intent-params.js';
import type { Behavior, IntentCase } from './intent-types.js';

export interface LoadedCases {
  cases: IntentCase[];
  file: string;
  hash: string;
  warnings: string[];
  /** `file:line:col` of `path` inside the case at `index`. */
  at(index: number, path: (string | number)[]): string;
}

const BEHAVIORS: Record<string, Behavior> = { call: 'call', '调用': 'call', clarify: 'clarify', '澄清': 'clarify', refuse: 'refuse', '拒绝': 'refuse' };
const KNOWN_TOP = new Set(['id', 'kind', 'utterance', 'context', 'expect', 'note']);
const KNOWN_EXPECT = new Set(['behavior', 'capability', 'params']);

const caseSchema = z.looseObject({
  id: z.union([z.string().trim().min(1, 'must not be empty'), z.number().transform(String)]),
  kind: z.string().trim().min(1, 'must not be empty'),
  utterance: z.string().min(1, 'must not be empty'),
  context: z.record(z.string(), z.unknown()).nullable().optional(),
  expect: z.looseObject({
    behavior: z.string(),
    capability: z.string().min(1).nullable().optional(),
    params: z.record(z.string(), z.unknown()).nullable().optional(),
  }),
  note: z.string().nullable().optional(),
});

/** Column (1-based) of the node at `path` in a one-line JSON text. */
function columnOf(text: string, path: (string | number)[]): number {
  const { LineCounter, parseDocument } = yamlLib();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  return doc.errors.length > 0 ? 1 : locate(doc, lc, path).col;
}

function jsonErrorColumn(message: string): number {
  const m = /position (\d+)/.exec(message);
  return m ? Number(m[1]) + 1 : 1;
}

/** `file` is resolved against `cwd`, which is also what paths in messages are shown relative to. */
export function loadCases(file: string, cwd: string): LoadedCases {
  const abs = resolve(cwd, file);
  const bytes = readTextFile(abs, 'intent cases');
  const shown = displayPath(abs, cwd);
  const lines = bytes.toString('utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  const problems: ConfigError[] = [];
  const warnings: string[] = [];
  const cases: IntentCase[] = [];
  const texts: string[] = [];
  const firstLineOf = new Map<string, number>();

  lines.forEach((text, i) => {
    const line = i + 1;
    if (text.trim() === '') return;
    const at = (path: (string | number)[]) => `${shown}:${line}:${columnOf(text, path)}`;
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (err) {
      problems.push(new ConfigError(`not valid JSON: ${(err as Error).message}`, `${shown}:${line}:${jsonErrorColumn((err as Error).message)}`));
      return;
    }
    if (nestsDeeper(raw)) {
      problems.push(new ConfigError(`nested too deeply: more than ${MAX_NESTING} levels of lists and maps`, `${shown}:${line}:${(deepestOffset(text) ?? 0) + 1}`));
      return;
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
      problems.push(new ConfigError('each line must be one JSON object', `${shown}:${line}:1`));
      return;
    }
    const parsed = caseSchema.safeParse(raw);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const p = issue.path.filter((x): x is string | number => typeof x !== 'symbol');
        problems.push(new ConfigError(issue.message, at(p), formatPath(p)));
      }
      return;
    }
    const c = parsed.data;
    const behavior = BEHAVIORS[c.expect.behavior.trim().toLowerCase()];
    if (!behavior) {
      problems.push(new ConfigError(`unknown behavior ${JSON.stringify(c.expect.behavior)}; expected call, clarify or refuse`, at(['expect', 'behavior']), 'expect.behavior'));
      return;
    }
    const capability = c.expect.capability ?? null;
    if (behavior === 'call' && capability === null) {
      problems.push(new ConfigError('a case expecting a call names the capability', at(['expect']), 'expect.capability'));
      return;
    }
    const params = c.expect.params ?? {};
    for (const msg of matcherProblems(params)) problems.push(new ConfigError(msg.replace(/^\./, ''), at(['expect', 'params']), 'expect.params'));
    const first = firstLineOf.get(c.id);
    if (first !== undefined) {
      problems.push(new ConfigError(`duplicate case id "${c.id}" (first used on line ${first}); ids are never reused`, at(['id']), 'id'));
      return;
    }
    firstLineOf.set(c.id, line);
    for (const k of Object.keys(c)) if (!KNOWN_TOP.has(k)) warnings.push(`${at([k])}: unknown key "${k}" ignored`);
    for (const k of Object.keys(c.expect)) if (!KNOWN_EXPECT.has(k)) warnings.push(`${at(['expect', k])}: unknown key "expect.${k}" ignored`);
    if (behavior !== 'call' && capability !== null) warnings.push(`${at(['expect', 'capability'])}: case ${c.id} expects ${behavior}; expect.capability is not scored`);
    if (behavior !== 'call' && Object.keys(params).length > 0) warnings.push(`${at(['expect', 'params'])}: case ${c.id} expects ${behavior}; expect.params is not scored`);
    texts.push(text);
    cases.push({
      id: c.id,
      kind: c.kind.trim(),
      utterance: c.utterance,
      context: c.context ?? {},
      expect: { behavior, capability: behavior === 'call' ? capability : null, params: behavior === 'call' ? params : {} },
      ...(c.note ? { note: c.note } : {}),
      line,
    });
  });

  if (problems.length > 0) throw configProblems(problems);
  if (cases.length === 0) throw new ConfigError('the cases file holds no cases', `${shown}:1:1`);
  const hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const at = (index: number, path: (string | number)[]) => {
    const c = cases[index];
    return c ? `${shown}:${c.line}:${columnOf(texts[index] ?? '', path)}` : shown;
  };
  return { cases, file: shown, hash, warnings, at };
}

/** Cases checked against the catalogue: an expected capability must exist (else the case can never pass). */
export function checkCasesAgainstCatalog(loaded: LoadedCases, catalog: Pick<Catalog, 'byId' | 'source'>): string[] {
  const problems: ConfigError[] = [];
  const warnings: string[] = [];
  loaded.cases.forEach((c, i) => {
    const id = c.expect.capability;
    if (id === null) return;
    const cap = catalog.byId.get(id);
    if (!cap) {
      problems.push(new ConfigError(`case ${c.id} expects capability "${id}", which is not in the catalogue ${catalog.source}`, loaded.at(i, ['expect', 'capability']), 'expect.capability'));
      return;
    }
    const props = (cap.parameters.properties ?? {}) as Record<string, unknown>;
    const closed = cap.parameters.additionalProperties === false;
    for (const key of Object.keys(c.expect.params)) {
      if (!(key in props) && closed) {
        problems.push(new ConfigError(`case ${c.id} expects parameter "${key}", which ${id}'s schema does not allow`, loaded.at(i, ['expect', 'params', key]), `expect.params.${key}`));
      } else if (!(key in props)) warnings.push(`${loaded.at(i, ['expect', 'params', key])}: case ${c.id}: "${key}" is not a declared parameter of ${id}`);
    }
  });
  if (problems.length > 0) throw configProblems(problems);
  return warnings;
}
