// The checked copy of a large suite: after a suite has loaded cleanly, its tasks as loading made them are
// kept in the state directory (cache/suites), and the next evaluation of the same file reads them back
// instead of parsing and validating the YAML again (≈ 25 ms against ≈ 250 ms at 10,000 tasks). The copy is
// used only while everything the suite's content hash covers is unchanged: the suite's bytes and every
// fixture file, each hashed again from disk and found inside the suite's folder again, and only by the same
// build of whetstone with the same default task timeout. A copy that is absent, stale, from another build or
// damaged is simply not used, and the suite is read from its file, which reports any problem the file has.
// Suites whose hash covers more than files by path (intents, the JSON formats) are never copied.
//
// One file per suite path: a header line, the body (the judge lists once, then one task per line) and a
// trailer line with the sha256 of the body, so a truncated or edited copy is never mistaken for a good one.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { writeTextPiecesAtomically } from '../core/atomic.js';
import { StringPool } from '../core/strings.js';
import { fixtureInside } from './fixture-path.js';
import { isJsonSuitePath } from './json-suite.js';
import { loadSuite, loadSuiteTracked, withFixtures, type LoadSuiteOptions } from './suite.js';
import type { JudgeSpec, Suite, Task } from './suite-schema.js';

export const SUITE_COPY_FORMAT = 'whetstone.suite-copy/1';
/** Smaller suites are read from their file every time: parsing them takes a few milliseconds. */
export const SUITE_COPY_MIN_BYTES = 256 * 1024;

export interface SuiteCopyOptions {
  /** The folder of the copies (stateLayout.suiteCopyDir). */
  dir: string;
  /** The build the copies belong to (core/build-id.ts). */
  build: string;
  minBytes?: number;
  /** Read the file even if a current copy exists (`--force`), and copy it again; the reason is recorded. */
  bypass?: string;
}

/** What an evaluation records of the copy: used or not, and why not. */
export interface SuiteCopyInfo {
  hit: boolean;
  file: string;
  why?: string;
}

export interface RememberedSuite {
  suite: Suite;
  /** Absent when no copy was considered (a small suite, a JSON format, copies off). */
  copy?: { info: SuiteCopyInfo; remember?: () => Promise<void> };
}

interface Header {
  format: string;
  build: string;
  path: string;
  default_timeout_ms: number | null;
  content_hash: string;
  fixtures: string[];
  tasks: number;
  skill_id: string;
  description?: string;
  grid?: Record<string, string[]>;
}

/** Loads `file` as loadSuite does, from its checked copy when that copy is current. */
export function loadSuiteRemembered(file: string, opts: LoadSuiteOptions, copy: SuiteCopyOptions | undefined): RememberedSuite {
  const path = resolve(file);
  const size = copy && !isJsonSuitePath(path) && !opts.lenientIds ? sizeOf(path) : undefined;
  if (!copy || size === undefined || size < (copy.minBytes ?? SUITE_COPY_MIN_BYTES)) return { suite: loadSuite(file, opts) };
  const at = join(copy.dir, `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.suite`);
  const wanted = { build: copy.build, path, timeout: opts.defaultTimeoutMs ?? null };
  // The suite's bytes are read (and hashed) inside readCopy only: loading keeps no copy of them alive.
  const found = copy.bypass ? { why: copy.bypass } : readCopy(at, wanted);
  if ('suite' in found) return { suite: found.suite, copy: { info: { hit: true, file: at } } };
  const { suite, fixtures } = loadSuiteTracked(path, opts);
  if (!fixtures) return { suite };
  // The copy is written later, once the evaluation is under way (a refused command leaves the state
  // directory as it was), but of the tasks as loaded: assigning splits sets them on the tasks in place.
  const splits = suite.tasks.map((t) => t.split);
  let written = false;
  const remember = async () => {
    if (written) return;
    written = true;
    await writeCopy(at, suite, splits, fixtures, wanted);
  };
  return { suite, copy: { info: { hit: false, file: at, why: found.why }, remember } };
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined; // loadSuite reports it
  }
}

type Wanted = { build: string; path: string; timeout: number | null };

function readCopy(at: string, w: Wanted): { suite: Suite } | { why: string } {
  if (!existsSync(at)) return { why: 'absent' };
  let text: string;
  try {
    text = readFileSync(at, 'utf8');
  } catch {
    return { why: 'unreadable' };
  }
  const headEnd = text.indexOf('\n');
  const trailerStart = text.lastIndexOf('\n', text.length - 2);
  if (headEnd < 0 || trailerStart <= headEnd) return { why: 'unreadable' };
  try {
    const head = JSON.parse(text.slice(0, headEnd)) as Header;
    if (head.format !== SUITE_COPY_FORMAT || head.build !== w.build) return { why: 'another build of whetstone' };
    if (head.path !== w.path || head.default_timeout_ms !== w.timeout) return { why: 'read with other settings' };
    if (contentHash(readFileSync(w.path), dirname(w.path), head.fixtures) !== head.content_hash) return { why: 'changed' };
    const body = text.slice(headEnd + 1, trailerStart + 1);
    const trailer = JSON.parse(text.slice(trailerStart + 1)) as { sha256?: unknown };
    if (trailer.sha256 !== createHash('sha256').update(body).digest('hex')) return { why: 'unreadable' };
    const suite = rebuild(head, JSON.parse(body) as { judges: JudgeSpec[][]; tasks: (Omit<Task, 'judges'> & { judges: number })[] });
    return suite ? { suite } : { why: 'unreadable' };
  } catch {
    return { why: 'unreadable' };
  }
}

/** The suite's content hash as loadSuite makes it, from the files now on disk; undefined if a fixture is gone or moved. */
function contentHash(bytes: Buffer, dir: string, fixtures: string[]): string | undefined {
  for (const rel of fixtures) {
    let ok = true;
    const real = fixtureInside(dir, rel, () => (ok = false));
    if (!ok || !real || relative(dir, real) !== rel) return undefined;
  }
  return withFixtures(createHash('sha256').update(bytes), dir, fixtures);
}

function rebuild(head: Header, body: { judges: JudgeSpec[][]; tasks: (Omit<Task, 'judges'> & { judges: number })[] }): Suite | undefined {
  const { judges, tasks } = body;
  if (!Array.isArray(judges) || !Array.isArray(tasks) || tasks.length !== head.tasks) return undefined;
  // As loading makes them: one object per distinct judge list, one string per distinct category.
  const categories = new StringPool();
  for (const t of tasks as unknown as Task[]) {
    const list = judges[t.judges as unknown as number];
    if (!Array.isArray(list) || typeof t.id !== 'string' || typeof t.prompt !== 'string' || typeof t.category !== 'string') return undefined;
    t.judges = list;
    t.category = categories.intern(t.category);
  }
  return {
    path: head.path,
    dir: dirname(head.path),
    skillId: head.skill_id,
    description: head.description,
    grid: head.grid,
    tasks: tasks as unknown as Task[],
    contentHash: head.content_hash,
  };
}

async function writeCopy(at: string, suite: Suite, splits: Task['split'][], fixtures: string[], w: Wanted): Promise<void> {
  const head: Header = {
    format: SUITE_COPY_FORMAT,
    build: w.build,
    path: w.path,
    default_timeout_ms: w.timeout,
    content_hash: suite.contentHash,
    fixtures,
    tasks: suite.tasks.length,
    skill_id: suite.skillId,
    ...(suite.description !== undefined ? { description: suite.description } : {}),
    ...(suite.grid !== undefined ? { grid: suite.grid } : {}),
  };
  const index = new Map<JudgeSpec[], number>();
  const lists: JudgeSpec[][] = [];
  for (const t of suite.tasks) {
    if (!index.has(t.judges)) index.set(t.judges, lists.push(t.judges) - 1);
  }
  const hash = createHash('sha256');
  await writeTextPiecesAtomically(at, (out) => {
    out(`${JSON.stringify(head)}\n`);
    const body = (s: string) => {
      hash.update(s);
      out(s);
    };
    body(`{"judges":${JSON.stringify(lists)},"tasks":[`);
    // In runs of 512 tasks: a hash update and a write piece per task cost more than the text they carry.
    let run: string[] = [];
    suite.tasks.forEach((t, i) => {
      run.push(`${i ? ',' : ''}\n${JSON.stringify({ ...t, judges: index.get(t.judges), split: splits[i] })}`);
      if (run.length === 512) {
        body(run.join(''));
        run = [];
      }
    });
    body(`${run.join('')}]}\n`);
    out(`${JSON.stringify({ sha256: hash.digest('hex') })}\n`);
  });
}
