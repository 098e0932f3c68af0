// Every file whetstone writes goes through this module (issue 33). Whole-file writes are atomic (temp file,
// fsync, rename), so a killed process or a full disk leaves the old file or the new one, never half of one;
// appends to a log are cut back to where they started when they fail. Large JSON is written in pieces:
// building one string of a 10,000-task artifact (and its encoded copy) was the biggest transient
// allocation of an evaluation. A full disk is a NoSpaceError naming the file, never a raw ENOSPC.
//
// The rename replaces the file name itself: a symbolic link there is replaced, never written through
// (write-file-atomic, used before, resolved links and wrote into their targets). Whoever writes into a
// folder the user owns checks for links first (src/skill/links.ts).
import { createHash } from 'node:crypto';
import { closeSync, copyFileSync, fchmodSync, fstatSync, fsyncSync, ftruncateSync, linkSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { NoSpaceError, isNoSpace } from './errors.js';
import { collectWhenGrown } from './gc-hint.js';

export interface AtomicOptions {
  /** Fail with EEXIST when the file already exists (never replace it). */
  exclusive?: boolean;
  /** Called with the `sha256:…` of the bytes written, after they are on disk and before the file appears. */
  beforeRename?: (sha256: string) => void;
  /** The new file's permissions (scratch files for a judge program: 0o600); else a replaced file's own. */
  mode?: number;
}

export async function writeFileAtomically(file: string, data: string | Buffer, o: AtomicOptions = {}): Promise<void> {
  writeFileAtomicallySync(file, data, o);
}

/** The same guarantee for callers that cannot wait (a budget's clock, a lock's owner file). */
export function writeFileAtomicallySync(file: string, data: string | Buffer, o: AtomicOptions = {}): void {
  replaceAtomically(file, (out) => out(data), o);
}

/**
 * Writes exactly the bytes of `JSON.stringify(value, null, indent)` plus a newline. Each top-level value,
 * and each element of a top-level array, is serialised on its own, so no string of the whole file exists.
 */
export async function writeJsonAtomically(file: string, value: unknown, indent: 0 | 2 = 2, o: AtomicOptions = {}): Promise<void> {
  if (!isPlainObject(value)) return writeFileAtomically(file, `${JSON.stringify(value, null, indent)}\n`, o);
  replaceAtomically(file, (out) => writeJsonPieces(out, value, indent), o);
}

/** Copies `from` to `file` with the same guarantee (the bytes go through the kernel, not this heap). */
export async function copyFileAtomically(from: string, file: string): Promise<void> {
  replaceAtomically(file, (_out, tmp) => copyFileSync(from, tmp));
}

/** Writes the strings `fill` hands to `out`, in order, with the same guarantee and no string of the whole file. */
export async function writeTextPiecesAtomically(file: string, fill: (out: (s: string) => void) => void): Promise<void> {
  replaceAtomically(file, (out) => fill(out));
}

/**
 * Appends `text` to a log (events.jsonl, history.jsonl, a summary file): written whole or, when the write
 * fails (a full disk), cut back to the length it had, so the log never ends in half a line.
 */
export function appendAtomically(file: string, text: string | Buffer): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let fd = -1;
  let size = -1;
  try {
    // No folder is made: a log's folder is its owner's (a GitHub summary file's folder must already exist).
    fd = openSync(file, 'a');
    size = fstatSync(fd).size;
    writeAll(fd, bytes);
  } catch (err) {
    if (fd >= 0 && size >= 0) {
      try {
        ftruncateSync(fd, size);
      } catch {
        // Cutting back frees space and needs none; if even that fails, the reader skips a torn last line.
      }
    }
    throw mapped(err, file);
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** A full disk as the error that names the file; anything else unchanged. */
export function mapped(err: unknown, file: string): unknown {
  return isNoSpace(err) && !(err instanceof NoSpaceError) ? new NoSpaceError(file) : err;
}

/** write(2) may take part of a buffer (a disk filling up): the rest is written, or the error thrown. */
function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

let tmpCounter = 0;

function replaceAtomically(file: string, fill: (out: (s: string | Buffer) => void, tmp: string) => void, o: AtomicOptions = {}): void {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  let fd = -1;
  let created = false;
  try {
    mkdirSync(dirname(file), { recursive: true });
    fd = openSync(tmp, 'w');
    created = true;
    if (o.mode !== undefined) fchmodSync(fd, o.mode);
    else keepMode(file, fd);
    const hash = o.beforeRename ? createHash('sha256') : undefined;
    let pending: string[] = [];
    let size = 0;
    const flush = () => {
      if (!pending.length) return;
      const bytes = Buffer.from(pending.join(''), 'utf8');
      pending = [];
      size = 0;
      hash?.update(bytes);
      writeAll(fd, bytes);
    };
    fill((s) => {
      if (typeof s !== 'string') {
        flush();
        hash?.update(s);
        return writeAll(fd, s);
      }
      pending.push(s);
      size += s.length;
      if (size >= 1 << 20) flush();
    }, tmp);
    flush();
    fsyncSync(fd);
    closeSync(fd);
    fd = -1;
    // (copyFileAtomically, whose bytes bypass `out`, takes no options: every hashed write went through `out`.)
    if (hash) o.beforeRename?.(`sha256:${hash.digest('hex')}`);
    if (o.exclusive) {
      linkSync(tmp, file);
      rmSync(tmp, { force: true });
    } else renameSync(tmp, file);
  } catch (err) {
    if (fd >= 0) closeSync(fd);
    if (created) rmSync(tmp, { force: true });
    throw mapped(err, file);
  }
}

/** A replaced file keeps its permissions (an executable script stays executable); a link is not looked through. */
function keepMode(file: string, fd: number): void {
  try {
    const st = lstatSync(file);
    if (st.isFile()) fchmodSync(fd, st.mode & 0o7777);
  } catch {
    // A new file: the default mode under the umask, as any other file.
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
      for (let i = 0; i < pieces.length; i += RUN) {
        out(`${i ? ',' : ''}${nl}${indent ? '    ' : ''}${run(pieces, i, Math.min(RUN, pieces.length - i), indent)}`);
        // Each run's elements, built for it and serialised, are dead once written (gc-hint.ts).
        if ((i / RUN) % 16 === 15) collectWhenGrown();
      }
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
