// Whole-file writes are atomic (temp file, fsync, rename), so a killed process leaves the old file or the
// new one, never half of one. Large JSON is written in pieces: building one string of a 10,000-task
// artifact (and its encoded copy) was the biggest transient allocation of an evaluation.
import { closeSync, copyFileSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';

// Loaded on the first whole-file write: `whet status` and `show` only read, and start faster without it.
const require = createRequire(import.meta.url);
let writeFileAtomic: typeof import('write-file-atomic') | undefined;

export async function writeFileAtomically(file: string, data: string | Buffer): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  writeFileAtomic ??= require('write-file-atomic') as typeof import('write-file-atomic');
  await writeFileAtomic(file, data, { fsync: true });
}

/**
 * Writes exactly the bytes of `JSON.stringify(value, null, indent)` plus a newline. Each top-level value,
 * and each element of a top-level array, is serialised on its own, so no string of the whole file exists.
 */
export async function writeJsonAtomically(file: string, value: unknown, indent: 0 | 2 = 2): Promise<void> {
  const whole = () => writeFileAtomically(file, `${JSON.stringify(value, null, indent)}\n`);
  if (!isPlainObject(value)) return whole();
  await replaceAtomically(file, (out) => writeJsonPieces(out, value, indent));
}

/** Copies `from` to `file` with the same guarantee (the bytes go through the kernel, not this heap). */
export async function copyFileAtomically(from: string, file: string): Promise<void> {
  await replaceAtomically(file, (_out, tmp) => copyFileSync(from, tmp));
}

/** Writes the strings `fill` hands to `out`, in order, with the same guarantee and no string of the whole file. */
export async function writeTextPiecesAtomically(file: string, fill: (out: (s: string) => void) => void): Promise<void> {
  await replaceAtomically(file, (out) => fill(out));
}

let tmpCounter = 0;

async function replaceAtomically(file: string, fill: (out: (s: string) => void, tmp: string) => void): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  let fd = openSync(tmp, 'w');
  try {
    let pending: string[] = [];
    let size = 0;
    const flush = () => {
      if (pending.length) writeSync(fd, pending.join(''));
      pending = [];
      size = 0;
    };
    fill((s) => {
      pending.push(s);
      size += s.length;
      if (size >= 1 << 20) flush();
    }, tmp);
    flush();
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    renameSync(tmp, file);
  } catch (err) {
    if (fd >= 0) closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/**
 * A top-level array whose elements are produced as they are written (`at(i)`, once each, in order, at most
 * RUN of them alive at once): serialised exactly as the array of those elements would be, without the
 * array existing. A throw from `at` abandons the write and leaves the old file in place.
 */
export class ArrayPieces {
  constructor(
    readonly length: number,
    readonly at: (i: number) => unknown,
  ) {}
  toJSON(): unknown[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i));
  }
}

/** Elements serialised per JSON.stringify call: one call per element cost ≈ 40 % more for 10,000 of them. */
const RUN = 256;

/**
 * Elements [from, from + n) of a top-level array as JSON.stringify(…, null, indent) prints them inside the
 * whole: the run wrapped once more (indented), so JSON.stringify indents it itself, and the wrapping cut
 * off. Indenting each element's own text afterwards (a replace of every newline) cost ≈ 40 % more.
 */
function run(pieces: ArrayPieces, from: number, n: number, indent: 0 | 2): string {
  const items: unknown[] = [];
  for (let i = from; i < from + n; i++) items.push(pieces.at(i));
  return indent ? JSON.stringify([items], null, 2).slice('[\n  [\n    '.length, -'\n  ]\n]'.length) : JSON.stringify(items).slice(1, -1);
}

function writeJsonPieces(out: (s: string) => void, obj: Record<string, unknown>, indent: 0 | 2): void {
  const nl = indent ? '\n' : '';
  const pad = (s: string, by: string) => (indent ? s.replaceAll('\n', `\n${by}`) : s);
  const sep = indent ? ': ' : ':';
  let first = true;
  out('{');
  for (const [k, v] of Object.entries(obj)) {
    const head = `${first ? '' : ','}${nl}${indent ? '  ' : ''}${JSON.stringify(k)}${sep}`;
    const pieces = v instanceof ArrayPieces ? v : Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function' ? new ArrayPieces(v.length, (i) => v[i]) : undefined;
    if (pieces && pieces.length > 0) {
      first = false;
      out(`${head}[`);
      for (let i = 0; i < pieces.length; i += RUN) out(`${i ? ',' : ''}${nl}${indent ? '    ' : ''}${run(pieces, i, Math.min(RUN, pieces.length - i), indent)}`);
      out(`${nl}${indent ? '  ' : ''}]`);
      continue;
    }
    if (pieces) {
      first = false;
      out(`${head}[]`);
      continue;
    }
    const s = JSON.stringify(v, null, indent);
    if (s === undefined) continue;
    first = false;
    out(`${head}${pad(s, '  ')}`);
  }
  out(first ? '}\n' : `${nl}}\n`);
}
