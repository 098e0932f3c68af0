// The checks every file of a state directory gets before a read model shows it (issue 31): it parses (a
// JSON file whole, a JSONL file line by line), and its bytes are the ones whetstone recorded when it wrote
// them (recorded.ts). No schema module is loaded here: `whet status` and `whet show` of standalone runs
// stay free of zod; the schema checks are in src/inspect/verify-schemas.ts, loaded when wanted.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { displayPath } from '../config/locate.js';
import type { Recorded } from './records-read.js';

/** What can be wrong with a file. */
export type ProblemKind = 'missing' | 'unparsable' | 'schema' | 'edited' | 'unrecorded' | 'truncated' | 'garbage' | 'stale-lock' | 'leftover' | 'link';

/** One problem, named by file: what is wrong and what to do. */
export interface Problem {
  /** The file as messages show it (relative to the cwd when shorter). */
  file: string;
  /** Its absolute path: what the read models leave out. */
  path: string;
  kind: ProblemKind;
  /** `file:line:col` when the problem has a place. */
  at?: string;
  message: string;
  hint: string;
}

export function problem(path: string, kind: ProblemKind, message: string, hint: string, at?: string): Problem {
  return { file: displayPath(path), path, kind, message, hint, ...(at ? { at } : {}) };
}

/** `file:line:col` of character `pos` of `text`. */
export function lineCol(path: string, text: string, pos: number): string {
  const before = text.slice(0, Math.max(0, Math.min(pos, text.length)));
  const line = before.split('\n').length;
  const col = before.length - before.lastIndexOf('\n');
  return `${displayPath(path)}:${line}:${col}`;
}

/** Where JSON.parse stopped: the position its message names; the end for "Unexpected end"; else the start. */
function errorPos(err: unknown, text: string): number {
  const msg = (err as Error).message;
  const m = /position (\d+)/.exec(msg);
  return m ? Number(m[1]) : /end of JSON/.test(msg) ? text.length : 0;
}

export type JsonRead = { ok: true; value: unknown; bytes: Buffer } | { ok: false; problem: Problem };

/** A JSON file parsed, or the problem that it is missing or does not parse (at `file:line:col`). */
export function readJsonChecked(path: string, what: string, hint: string): JsonRead {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { ok: false, problem: problem(path, 'missing', `${what} cannot be read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, hint) };
  }
  const text = bytes.toString('utf8');
  try {
    return { ok: true, value: JSON.parse(text) as unknown, bytes };
  } catch (err) {
    const at = lineCol(path, text, errorPos(err, text));
    const cut = errorPos(err, text) >= text.trimEnd().length;
    return { ok: false, problem: problem(path, 'unparsable', `${what} is not valid JSON${cut ? ' (it ends early: cut short)' : ''}: ${(err as Error).message}`, hint, at) };
  }
}

/**
 * The lines of a JSONL file, parsed; each that does not parse is a problem at its line. A last line with
 * no newline was cut mid-line (a crash or a copy stopped part way): `truncated`, not `garbage`.
 */
export function readJsonlChecked(path: string, what: string, hint: string, check?: (v: unknown) => string | undefined): { values: unknown[]; problems: Problem[] } {
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const values: unknown[] = [];
  const problems: Problem[] = [];
  let pos = 0;
  lines.forEach((line, i) => {
    const start = pos;
    pos += line.length + 1;
    if (!line.trim()) return;
    const last = i === lines.length - 1;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (err) {
      const at = lineCol(path, text, start + Math.min(errorPos(err, line), line.length));
      problems.push(last ? problem(path, 'truncated', `${what} is cut mid-line at line ${i + 1} (its last line is not whole JSON)`, hint, at) : problem(path, 'garbage', `${what} line ${i + 1} is not JSON: ${clip(line)}`, hint, at));
      return;
    }
    const wrong = check?.(v);
    if (wrong) problems.push(problem(path, 'garbage', `${what} line ${i + 1} ${wrong}: ${clip(line)}`, hint, lineCol(path, text, start)));
    else values.push(v);
  });
  return { values, problems };
}

const clip = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 59)}…` : s);

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
const short = (h: string) => `${h.slice(0, 19)}…`;

/**
 * The file against what was recorded when it was written: undefined when they agree. A results log,
 * recorded with its length, may have grown since (a measurement resumed); what was recorded must still
 * be its beginning.
 */
export function checkAgainstRecord(path: string, bytes: Buffer, rec: Recorded, what: string, hint: string): Problem | undefined {
  if (rec.bytes !== undefined) {
    if (bytes.length < rec.bytes) return problem(path, 'truncated', `${what} is shorter than when whetstone recorded it (${bytes.length} bytes now, ${rec.bytes} then): lines were cut or removed`, hint);
    const now = sha(bytes.subarray(0, rec.bytes));
    if (now !== rec.sha256) return problem(path, 'edited', `${what} was changed after whetstone wrote it (its first ${rec.bytes} bytes hash ${short(now)}, written ${short(rec.sha256)})`, hint);
    return undefined;
  }
  const now = sha(bytes);
  if (now !== rec.sha256) return problem(path, 'edited', `${what} was changed after whetstone wrote it (now ${short(now)}, written ${short(rec.sha256)}); its values are not shown as measured`, hint);
  return undefined;
}

/**
 * The problems as lines, each ending in a newline: one block per damaged file — where, what is wrong, what
 * to do — so `whet status`, `show`, `report`, `diff`, `resume` and `whet verify` word a damage the same way.
 */
export function formatProblems(problems: Problem[], indent = ''): string {
  return problems.map((p) => `${indent}DAMAGED ${p.at ?? p.file}: ${p.kind}: ${p.message}\n${indent}  → ${p.hint}\n`).join('');
}
