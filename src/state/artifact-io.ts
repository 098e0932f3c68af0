// Artifacts are validated against their zod schema when written and when read: a stage never hands on,
// and never consumes, something the next stage would misread.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { z } from 'zod';
import { ConfigError, InternalError } from '../core/errors.js';
import { displayPath, formatPath, locate, yaml } from '../config/load-yaml.js';
import { writeJsonAtomically } from '../core/atomic.js';

export function sha256(data: string | Buffer): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

export function sha256File(file: string): string {
  return sha256(readFileSync(file));
}

/** Sorted-key JSON, so equal values always hash equally. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export async function writeArtifact<S extends z.ZodType>(file: string, schema: S, value: z.input<S>): Promise<z.output<S>> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InternalError(`refusing to write an invalid artifact ${displayPath(file)}: ${formatPath(issue.path as (string | number)[])}: ${issue.message}`);
  }
  await writeJsonAtomically(file, parsed.data);
  return parsed.data;
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
