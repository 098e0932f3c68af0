// The hash of every artifact a loop run acts on, recorded in the run's events.jsonl as it is written
// (issue 33). A decision on disk is only as good as the bytes whetstone wrote: gate.json edited from
// "reject" to "pending_review" read as a valid artifact, and `whet review approve` applied the rejected
// candidate. The record is appended after the bytes are on disk and before the file appears under its
// name (atomic.ts `beforeRename`), so a crash leaves a record without its file, never a file without its
// record. Commands that change the skill (the gate, review, rollback) check the files they act on
// against it first and refuse, naming the file, when they differ.
import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import type { z } from 'zod';
import { writeJsonAtomically, type AtomicOptions } from '../core/atomic.js';
import { ConfigError } from '../core/errors.js';
import { displayPath } from '../config/locate.js';
import { sha256File, writeArtifact } from './artifact-io.js';
import { appendEvent } from './events.js';
import { stateLayout } from './layout.js';

/** The event that records one written file: `{event, path (from the run folder, with /), sha256}`. */
export const WRITTEN = 'artifact_written';

/** Marks, in run_started, a run whose artifacts are recorded: older runs are checked as they were before. */
export const RECORDS = { records_hashes: true } as const;

const recordedPath = (runDir: string, file: string) => relative(runDir, file).split(sep).join('/');

const recorder = (runDir: string, file: string, now: Date) => (sha256: string) => appendEvent(runDir, { event: WRITTEN, path: recordedPath(runDir, file), sha256 }, now);

/** The atomic-write options that record a file of `runDir` (for files written as text: an external stage's). */
export function recordedWrite(runDir: string, file: string, now: Date): AtomicOptions {
  return { beforeRename: recorder(runDir, file, now) };
}

/** writeArtifact, with the bytes' hash recorded in `runDir`'s events.jsonl. */
export async function writeRecordedArtifact<S extends z.ZodType>(runDir: string, file: string, schema: S, value: z.input<S>, now: Date): Promise<void> {
  await writeArtifact(file, schema, value, { beforeRename: recorder(runDir, file, now) });
}

/** writeJsonAtomically (a file with no stage schema: a backup manifest), recorded the same way. */
export async function writeRecordedJson(runDir: string, file: string, value: unknown, now: Date): Promise<void> {
  await writeJsonAtomically(file, value, 2, { beforeRename: recorder(runDir, file, now) });
}

interface Records {
  /** The run started before hashes were recorded (its run_started says nothing of them). */
  legacy: boolean;
  eventsMissing: boolean;
  hashes: Map<string, string>;
}

/** The newest record of every path, read leniently: a torn line records nothing. */
function readRecords(runDir: string): Records {
  const file = stateLayout.events(runDir);
  const hashes = new Map<string, string>();
  if (!existsSync(file)) return { legacy: false, eventsMissing: true, hashes };
  let marked = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes(WRITTEN) && !line.includes('"run_started"')) continue;
    try {
      const e = JSON.parse(line) as { event?: unknown; path?: unknown; sha256?: unknown; records_hashes?: unknown };
      if (e.event === 'run_started' && e.records_hashes === true) marked = true;
      if (e.event === WRITTEN && typeof e.path === 'string' && typeof e.sha256 === 'string') hashes.set(e.path, e.sha256);
    } catch {
      // A line cut short by a crash says nothing reliable.
    }
  }
  return { legacy: !marked && hashes.size === 0, eventsMissing: false, hashes };
}

const short = (h: string) => `${h.slice(0, 19)}…`;

/**
 * Refuses (exit 2, nothing written) to act on any of `files` unless its bytes are the ones whetstone
 * recorded when it wrote them. A run started before hashes were recorded is let through: its artifacts
 * are checked, as before, only through the hashes they hold of each other.
 */
export function checkRecorded(runDir: string, files: { file: string; what: string }[], action: string): void {
  const r = readRecords(runDir);
  if (r.legacy) return;
  for (const { file, what } of files) {
    const where = displayPath(file);
    if (r.eventsMissing) throw new ConfigError(`cannot ${action}: ${displayPath(stateLayout.events(runDir))}, where the hash of ${what} was recorded when it was written, is missing, so ${what} cannot be trusted; nothing was changed`, where);
    const want = r.hashes.get(recordedPath(runDir, file));
    if (!want) throw new ConfigError(`cannot ${action}: no hash of ${what} was recorded when whetstone wrote it (not written by whetstone, or events.jsonl was edited); nothing was changed`, where);
    if (!existsSync(file)) throw new ConfigError(`cannot ${action}: ${what} is missing; nothing was changed`, where);
    const now = sha256File(file);
    if (now !== want) throw new ConfigError(`cannot ${action}: ${what} was edited after whetstone wrote it (now ${short(now)}, written ${short(want)}); an edited decision is never acted on; nothing was changed`, where);
  }
}
