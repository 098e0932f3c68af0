// The hash of every artifact a loop run acts on, recorded in the run's events.jsonl as it is written
// (issue 33). A decision on disk is only as good as the bytes whetstone wrote: gate.json edited from
// "reject" to "pending_review" read as a valid artifact, and `whet review approve` applied the rejected
// candidate. The record is appended after the bytes are on disk and before the file appears under its
// name (atomic.ts `beforeRename`), so a crash leaves a record without its file, never a file without its
// record. Commands that change the skill (the gate, review, rollback) check the files they act on
// against it first and refuse, naming the file, when they differ.
import { existsSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { z } from 'zod';
import { writeJsonAtomically, type AtomicOptions } from '../core/atomic.js';
import { ConfigError } from '../core/errors.js';
import { displayPath } from '../config/locate.js';
import { sha256File, writeArtifact } from './artifact-io.js';
import { sha256OfFile } from '../core/hash.js';
import { appendEvent } from './events.js';
import { stateLayout } from './layout.js';
import { readRecords, recordedPath, WRITTEN } from './records-read.js';

export { readRecords, recordedPath, WRITTEN, type Recorded, type Records } from './records-read.js';

/** Marks, in run_started, a run whose artifacts are recorded: older runs are checked as they were before. */
export const RECORDS = { records_hashes: true } as const;

const recorder = (runDir: string, file: string, now: Date) => (sha256: string) => appendEvent(runDir, { event: WRITTEN, path: recordedPath(runDir, file), sha256 }, now);

/** The atomic-write options that record a file of `runDir` (for files written as text: an external stage's). */
export function recordedWrite(runDir: string, file: string, now: Date): AtomicOptions {
  return { beforeRename: recorder(runDir, file, now) };
}

/** The artifacts that are measurements: the results logs beside them are what they were computed from. */
const MEASURED = new Set(['baseline.json', 'evaluation.json']);

/**
 * writeArtifact, with the bytes' hash recorded in `runDir`'s events.jsonl. A measurement (baseline.json,
 * evaluation.json) first records the results logs it was computed from (issue 31): an append-only log
 * has no moment of its own at which it is whole, but the artifact that sums it up does.
 */
export async function writeRecordedArtifact<S extends z.ZodType>(runDir: string, file: string, schema: S, value: z.input<S>, now: Date): Promise<void> {
  if (MEASURED.has(basename(file))) recordResultsLogs(runDir, dirname(file), now);
  await writeArtifact(file, schema, value, { beforeRename: recorder(runDir, file, now) });
}

/** Records `<dir>/results/*.jsonl` whose bytes changed since their last record, with their length. */
export function recordResultsLogs(runDir: string, dir: string, now: Date): void {
  const results = stateLayout.resultsDir(dir);
  if (!existsSync(results)) return;
  const known = readRecords(runDir).hashes;
  for (const name of readdirSync(results).filter((n) => n.endsWith('.jsonl')).sort()) {
    const file = join(results, name);
    const { sha256, bytes } = sha256OfFile(file);
    const path = recordedPath(runDir, file);
    if (known.get(path)?.sha256 !== sha256) appendEvent(runDir, { event: WRITTEN, path, sha256, bytes }, now);
  }
}

/** writeJsonAtomically (a file with no stage schema: a backup manifest), recorded the same way. */
export async function writeRecordedJson(runDir: string, file: string, value: unknown, now: Date): Promise<void> {
  await writeJsonAtomically(file, value, 2, { beforeRename: recorder(runDir, file, now) });
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
    const want = r.hashes.get(recordedPath(runDir, file))?.sha256;
    if (!want) throw new ConfigError(`cannot ${action}: no hash of ${what} was recorded when whetstone wrote it (not written by whetstone, or events.jsonl was edited); nothing was changed`, where);
    if (!existsSync(file)) throw new ConfigError(`cannot ${action}: ${what} is missing; nothing was changed`, where);
    const now = sha256File(file);
    if (now !== want) throw new ConfigError(`cannot ${action}: ${what} was edited after whetstone wrote it (now ${short(now)}, written ${short(want)}); an edited decision is never acted on; nothing was changed`, where);
  }
}
