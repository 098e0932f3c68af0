// Reads a YAML file the user wrote and validates it with zod, turning every problem into
// `file:line:col path: message` (a ConfigError, exit 2). Locations come from yaml's parseDocument with a
// LineCounter, so a wrong value points at the value and a missing key at the object that lacks it.
// That parser keeps a full syntax tree and takes ~2 s on a 10,000-task suite, so a file is first read
// with js-yaml (core schema, ~6x faster) and the located tree is only built when something must be
// pointed at: a syntax error, a schema error, or a caller asking for a line.
import { readFileSync, statSync } from 'node:fs';
import jsYaml from 'js-yaml';
import type { Document, LineCounter } from 'yaml';
import { ONCE } from '../core/parse-once.js';
import type { z } from 'zod';
import { ConfigError, ConfigErrors } from '../core/errors.js';
import { displayPath, formatPath, locate, yaml } from './locate.js';
import { isStackOverflow, nestedTooDeeply, nestsDeeper } from './nesting.js';
import { keysAt, nearest } from './did-you-mean.js';
import { aliasBomb, MAX_INPUT_BYTES, overExpanded } from './expansion.js';
import { shareJsYaml } from '../core/lazy.js';

// A SKILL.md's frontmatter reader then takes this copy rather than loading js-yaml's CommonJS build too.
shareJsYaml(jsYaml);

// The readers of YAML files import these from here too.
export { displayPath, formatPath, locate, yaml };

export interface LoadedYaml<T> {
  value: T;
  /** Exact bytes read, for content hashes. */
  bytes: Buffer;
  /** `file:line:col` of the node at `path` (built on first use). */
  at(path: (string | number)[]): string;
  /** 1-based line of the node at `path`, or 1 (built on first use). */
  lineOf(path: (string | number)[]): number;
}

export function readTextFile(file: string, what: string): Buffer {
  return readText(file, what).bytes;
}

/** The file's bytes and its text, decoded once (the UTF-8 check is the decode). */
function readText(file: string, what: string): { bytes: Buffer; text: string } {
  let bytes: Buffer;
  try {
    // A file far larger than any suite or config is refused unread: reading it would be the damage.
    const size = statSync(file).size;
    if (size > MAX_INPUT_BYTES) throw new ConfigError(`${what} is ${(size / 2 ** 20).toFixed(0)} MiB, over the ${MAX_INPUT_BYTES / 2 ** 20} MiB a suite, config or label file may be; refused unread`, `${displayPath(file)}:1:1`);
    bytes = readFileSync(file);
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'file not found' : code === 'EISDIR' ? 'is a directory, expected a file' : String((err as Error).message);
    throw new ConfigError(`cannot read ${what}: ${why}`, displayPath(file));
  }
  let text: string | undefined;
  try {
    // ignoreBOM keeps a leading BOM in the text, as Buffer#toString did.
    if (!bytes.includes(0)) text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    // invalid UTF-8: reported below
  }
  if (text === undefined) {
    throw new ConfigError(`${what} is not a text file (binary data or invalid UTF-8)`, `${displayPath(file)}:1:1`);
  }
  return { bytes, text };
}

/** A YAML file read on the fast path, with the located parser kept for errors and line lookups. */
export interface YamlSource {
  /** Exact bytes read, for content hashes. */
  bytes: Buffer;
  at(path: (string | number)[]): string;
  lineOf(path: (string | number)[]): number;
  /** A fresh fast-path parse of the same text (the caller may have consumed the first). */
  reparse(): unknown;
  /** `value` checked against `schema`; problems become located ConfigErrors (at most 20). */
  validate<S extends z.ZodType>(schema: S, value: unknown): z.infer<S>;
}

export function loadYaml<S extends z.ZodType>(file: string, schema: S, what: string): LoadedYaml<z.infer<S>> {
  const { raw, src } = readYaml(file, what);
  return { value: src.validate(schema, raw), bytes: src.bytes, at: src.at, lineOf: src.lineOf };
}

/**
 * Reads and parses without validating, so a caller with a large document (a task suite) can validate it
 * piece by piece and drop each raw piece as it goes instead of holding the raw and parsed trees together.
 */
export function readYaml(file: string, what: string): { raw: unknown; src: YamlSource } {
  const src = yamlSource(file, what);
  return { raw: src.reparse(), src };
}

/** The source without parsing it yet, with its text: for a reader that parses in slices (suite-slices.ts). */
export function yamlSource(file: string, what: string): YamlSource & { text: string } {
  const { bytes, text } = readText(file, what);
  const shown = displayPath(file);
  if (!/\S/.test(text)) throw new ConfigError(`${what} is empty`, `${shown}:1:1`);

  let located: { doc: Document; lc: LineCounter } | undefined;
  const tree = () => (located ??= locatedTree(text, shown));
  const reparse = (): unknown => {
    let value: unknown;
    try {
      value = jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA, filename: shown });
    } catch (err) {
      if (isStackOverflow(err)) throw nestedTooDeeply(text, shown);
      // Let the located parser explain the problem (or accept what js-yaml refused).
      try {
        value = tree().doc.toJS({ maxAliasCount: 100 });
      } catch (e) {
        if (isStackOverflow(e)) throw nestedTooDeeply(text, shown);
        // yaml's own guard against expanding aliases: said at the alias, as below.
        if (e instanceof ReferenceError && /alias/i.test(e.message)) throw aliasBomb(text.length, shown, tree);
        throw e;
      }
    }
    // Validators, hashing and every later reader recurse per level: refuse before any of them runs.
    if (nestsDeeper(value)) throw nestedTooDeeply(text, shown);
    // …and walk aliases as trees: a value that expands far past its text is refused at its alias.
    if (ALIAS.test(text) && overExpanded(value, text.length)) throw aliasBomb(text.length, shown, tree);
    return value;
  };
  const pos = (path: (string | number)[]) => locate(tree().doc, tree().lc, path);
  const at = (path: (string | number)[]) => {
    const p = pos(path);
    return `${shown}:${p.line}:${p.col}`;
  };
  const validate = <S extends z.ZodType>(schema: S, value: unknown): z.infer<S> => {
    const parsed = schema.safeParse(value, ONCE);
    if (parsed.success) return parsed.data;
    const { doc } = tree();
    const problems = parsed.error.issues.slice(0, 20).flatMap((issue) => {
      const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
      // Each unknown key on its own, where it is written: a typo is fixed at its line, not its object's.
      if (issue.code === 'unrecognized_keys') {
        // The nearest key the schema accepts here that is not written already (did-you-mean.ts).
        const written = Object.keys(objectAt(value, path));
        const valid = keysAt(schema, value, path).filter((k) => !written.includes(k));
        return issue.keys.map((k) => {
          const p = locateKey(doc, tree().lc, path, k);
          const near = nearest(k, valid);
          return new ConfigError(`unknown key "${k}"${near ? ` (did you mean "${near}"?)` : ''}`, `${shown}:${p.line}:${p.col}`, formatPath([...path, k]));
        });
      }
      const missing = missingKey(issue, path, value);
      if (missing) return [new ConfigError(missing, at(path), formatPath(path))];
      return [new ConfigError(issueMessage(issue, doc.getIn(path)), at(path), formatPath(path))];
    });
    throw problems.length === 1 ? problems[0]! : new ConfigErrors(problems);
  };
  return { bytes, text, at, lineOf: (path) => pos(path).line, reparse, validate };
}

/** An alias token could be in the text (`*name` after a space, `[`, `{` or `,`): else no value is shared. */
const ALIAS = /(?:^|[\s[{,])\*[^\s*\],{}]/m;

/** The slow, exact parse: a syntax tree with positions; syntax errors become located ConfigErrors. */
function locatedTree(text: string, shown: string): { doc: Document; lc: LineCounter } {
  const { LineCounter, parseDocument } = yaml();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: true });
  // yaml turns its own stack overflow into a syntax error at wherever it gave up.
  const overflow = doc.errors.find((e) => /call stack/i.test(e.message));
  if (overflow) {
    const p = lc.linePos(overflow.pos[0]);
    throw nestedTooDeeply(text, shown, `${shown}:${p.line}:${p.col}`);
  }
  if (doc.errors.length > 0) {
    throw new ConfigErrors(
      doc.errors.map((e) => {
        const p = lc.linePos(e.pos[0]);
        // JSON is YAML, so JSON inputs (a ranking) come through here too; name the format the user wrote.
        return new ConfigError(`invalid ${/\.json$/i.test(shown) ? 'JSON' : 'YAML'}: ${firstLine(e.message)}`, `${shown}:${p.line}:${p.col}`);
      }),
    );
  }
  return { doc, lc };
}

/** Position of `key` itself (not its value) in the map at `path`; else where `locate` points. */
function locateKey(doc: Document, lc: LineCounter, path: (string | number)[], key: string): { line: number; col: number } {
  const { isMap, isNode, isScalar } = yaml();
  const map = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (isMap(map)) {
    const pair = map.items.find((it) => isScalar(it.key) && String(it.key.value) === key);
    if (pair && isNode(pair.key) && pair.key.range) return lc.linePos(pair.key.range[0]);
  }
  return locate(doc, lc, [...path, key]);
}

/** The plain object at `path` of the value as written, or an empty one. */
function objectAt(root: unknown, path: readonly (string | number)[]): Record<string, unknown> {
  const v = valueAt(root, path);
  return isObject(v) ? v : {};
}

function valueAt(root: unknown, path: readonly (string | number)[]): unknown {
  let v = root;
  for (const step of path) v = v && typeof v === 'object' ? (v as Record<string | number, unknown>)[step] : undefined;
  return v;
}

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A required key the object does not write, named as missing (not "unknown type undefined" or "expected
 * string, received undefined"), with the written key it is probably misspelt as.
 */
function missingKey(issue: z.core.$ZodIssue, path: (string | number)[], root: unknown): string | undefined {
  const key = path[path.length - 1];
  if (typeof key !== 'string') return undefined;
  const parent = objectAt(root, path.slice(0, -1));
  if (key in parent || !isObject(valueAt(root, path.slice(0, -1)))) return undefined;
  const discriminator = issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator === key;
  if (!discriminator && !(issue.code === 'invalid_type' && / received undefined$/.test(issue.message))) return undefined;
  const near = nearest(key, Object.keys(parent));
  return `missing required key "${key}"${near ? ` ("${near}" is written: did you mean "${key}"?)` : ''}`;
}

function issueMessage(issue: z.core.$ZodIssue, value: unknown): string {
  switch (issue.code) {
    case 'invalid_union':
      // A missing required field whose type is a union would otherwise read "Invalid input".
      if (value === undefined && issue.message === 'Invalid input') return 'required';
      if ('discriminator' in issue && issue.discriminator) {
        const expected = issue.message.replace(/^.*Expected /, '').replace(/'/g, '"');
        return `unknown ${issue.discriminator} ${JSON.stringify(value)}; expected one of ${expected}`;
      }
      return issue.message;
    default:
      return issue.message;
  }
}

function firstLine(s: string): string {
  return s.split('\n')[0] ?? s;
}
