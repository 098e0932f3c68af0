// The records recorded.ts appends to a run's events.jsonl (`artifact_written`: a file's path and sha256,
// with its length for a results log), read back leniently. Apart from recorded.ts, which writes events
// through their zod schema, so that the read models' verification (src/inspect/verify-run.ts) loads no zod.
import { existsSync, readFileSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { stateLayout } from './layout.js';

/** The event that records one written file: `{event, path (from the run folder, with /), sha256}`. */
export const WRITTEN = 'artifact_written';

/** A file's path as its record names it: from the run folder, with `/`. */
export const recordedPath = (runDir: string, file: string) => relative(runDir, file).split(sep).join('/');

/** What was recorded of one file: its hash and, for a results log (appended to), its length then. */
export interface Recorded {
  sha256: string;
  bytes?: number;
}

export interface Records {
  /** The run started before hashes were recorded (its run_started says nothing of them). */
  legacy: boolean;
  eventsMissing: boolean;
  /** By path from the run folder, with `/`. */
  hashes: Map<string, Recorded>;
}

/** The newest record of every path, read leniently: a torn line records nothing. */
export function readRecords(runDir: string): Records {
  const file = stateLayout.events(runDir);
  const hashes = new Map<string, Recorded>();
  if (!existsSync(file)) return { legacy: false, eventsMissing: true, hashes };
  let marked = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.includes(WRITTEN) && !line.includes('"records_hashes"')) continue;
    try {
      const e = JSON.parse(line) as { event?: unknown; path?: unknown; sha256?: unknown; bytes?: unknown; records_hashes?: unknown };
      if ((e.event === 'run_started' || e.event === 'started') && e.records_hashes === true) marked = true;
      if (e.event === WRITTEN && typeof e.path === 'string' && typeof e.sha256 === 'string') hashes.set(e.path, { sha256: e.sha256, ...(typeof e.bytes === 'number' ? { bytes: e.bytes } : {}) });
    } catch {
      // A line cut short by a crash says nothing reliable.
    }
  }
  return { legacy: !marked && hashes.size === 0, eventsMissing: false, hashes };
}

