// Artifacts are validated against their zod schema when written and when read: a stage never hands on,
// and never consumes, something the next stage would misread.
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, InternalError } from '../core/errors.js';
import { displayPath, formatPath, locate, yaml } from '../config/locate.js';
import { ArrayPieces, writeJsonAtomically, type AtomicOptions } from '../core/atomic.js';
import { flatCheckOf } from '../core/flat-check.js';
import { ONCE } from '../core/parse-once.js';
import { canonicalJson, sha256, sha256OfFile } from '../core/hash.js';

// What the state layer's callers hash artifacts and inputs with (src/core/hash.ts).
export { canonicalJson, sha256 };

export function sha256File(file: string): string {
  return sha256OfFile(file).sha256;
}

/** Top-level arrays this long are validated element by element as they are written. */
const STREAMED_ARRAY = 1000;

/**
 * Validates `value` and writes what the schema returns. A long top-level array (an evaluation's task
 * results) is checked one element at a time as it is written, never as a whole second copy: at 100,000
 * tasks the parsed copy was the largest thing alive at the end of a run. An invalid element abandons the
 * write, so the file on disk is the old one or a valid new one. A plain row is checked by the schema-derived
 * quick check (core/flat-check.ts), which answers the schema's own output or leaves the row to the schema.
 */
export async function writeArtifact<S extends z.ZodType>(file: string, schema: S, value: z.input<S>, o: AtomicOptions = {}): Promise<void> {
  const refuse = (issue: z.core.$ZodIssue, prefix: (string | number)[] = []) =>
    new InternalError(`refusing to write an invalid artifact ${displayPath(file)}: ${formatPath([...prefix, ...(issue.path as (string | number)[])])}: ${issue.message}`);
  const streamed = streamedArrays(schema, value);
  // With its long arrays empty, the object is checked by the same schema (they carry no length checks).
  const parsed = schema.safeParse(streamed ? { ...(value as object), ...Object.fromEntries(streamed.map(([k]) => [k, []])) } : value, ONCE);
  if (!parsed.success) throw refuse(parsed.error.issues[0]!);
  if (!streamed) return writeJsonAtomically(file, parsed.data, 2, o);
  const out = parsed.data as Record<string, unknown>;
  for (const [key, element] of streamed) {
    const items = (value as Record<string, unknown[]>)[key]!;
    const quick = flatCheckOf(element);
    out[key] = new ArrayPieces(items.length, (i) => {
      const checked = quick?.(items[i]);
      if (checked) return checked;
      const el = element.safeParse(items[i]);
      if (!el.success) throw refuse(el.error.issues[0]!, [key, i]);
      return el.data;
    });
  }
  await writeJsonAtomically(file, out, 2, o);
}

/**
 * The long top-level arrays of `value` that can be checked element by element: arrays of an object
 * schema with no length checks, so the same schema accepts the object with them empty. (Read from the
 * schema's definition: this module is on the start-up path of `status` and `show`, which load no zod.)
 */
function streamedArrays(schema: z.ZodType, value: unknown): [string, z.ZodType][] | undefined {
  const def = schema._zod.def as { type: string; shape?: Record<string, z.ZodType>; checks?: unknown[] };
  // A check on the whole object could look into the arrays: it must see them, so no streaming then.
  if (def.type !== 'object' || !def.shape || (def.checks?.length ?? 0) > 0 || !value || typeof value !== 'object') return undefined;
  const elements: [string, z.ZodType][] = [];
  for (const [key, field] of Object.entries(def.shape)) {
    const v = (value as Record<string, unknown>)[key];
    if (!Array.isArray(v) || v.length < STREAMED_ARRAY) continue;
    const f = field._zod.def as { type: string; element?: z.ZodType; checks?: unknown[] };
    if (f.type !== 'array' || !f.element || (f.checks?.length ?? 0) > 0) continue;
    elements.push([key, f.element]);
  }
  return elements.length ? elements : undefined;
}

export function readArtifact<S extends z.ZodType>(file: string, schema: S, what = 'artifact'): z.output<S> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ConfigError(`cannot read ${what}: ${code === 'ENOENT' ? 'file not found' : (err as Error).message}`, displayPath(file));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`${what} is not valid JSON: ${(err as Error).message}`, jsonSyntaxAt(text, file));
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
    // Located only on failure: the tree with positions costs far more than JSON.parse on a large artifact.
    throw new ConfigError(`${what} does not match its schema: ${issue.message}`, locateJson(text, file, path), formatPath(path));
  }
  return parsed.data;
}

/** `file:line:col` of a JSON syntax error, as yaml's parser places it (1:1 when it accepts the text). */
function jsonSyntaxAt(text: string, file: string): string {
  const { LineCounter, parseDocument } = yaml();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  const p = doc.errors[0] ? lc.linePos(doc.errors[0].pos[0]) : { line: 1, col: 1 };
  return `${displayPath(file)}:${p.line}:${p.col}`;
}

/** `file:line:col` of the value at `path` in JSON text (JSON is YAML; yaml's LineCounter gives positions). */
export function locateJson(text: string, file: string, path: (string | number)[]): string {
  const { LineCounter, parseDocument } = yaml();
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  const p = doc.errors.length ? { line: 1, col: 1 } : locate(doc, lc, path);
  return `${displayPath(file)}:${p.line}:${p.col}`;
}
