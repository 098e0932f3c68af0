// What `whet status` remembers of a run's files between calls (issue 43): a file it verified clean —
// parsed, its bytes the ones recorded in events.jsonl, its schema matched — is not read again while its
// size, modification time and inode are the ones it had then and its record in events.jsonl is the same;
// and a results log's share of what the run spent is kept beside it. At 10,000 tasks a loop run holds
// ~30 MB of artifacts and logs: hashing and validating all of them took ~2 s of CPU on every status.
// Anything that changed a file (an edit, a rewrite: a new inode, a new size or time) makes it verified
// again in full. A damaged file is never remembered, so it is reported at every call.
//
// The acting paths (gate, review, rollback: src/state/recorded.ts `checkRecorded`) and `whet verify` never
// read the memo: they hash every file they act on or report, every time. The memo is a cache: one file per
// run under the state directory's cache/verified/, written atomically; one that cannot be read or written
// is simply not used (the check it would spare is made instead).
import { existsSync, statSync } from 'node:fs';
import { writeFileAtomicallySync } from '../core/atomic.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import type { LogSums, RunUsage } from '../evaluation/run-usage.js';

const FORMAT = 'whetstone.verified/1';

interface Entry {
  /** size:mtime:inode of the file when it was verified (statKey). */
  stat: string;
  /** Verified clean in that state (an entry may hold only a log's spending). */
  verified: boolean;
  /** The sha256 events.jsonl recorded for it then (null: none). */
  recorded: string | null;
  /** Whether its schema was checked too. */
  schemas: boolean;
  /** A results log's share of the run's spending (run-usage.ts addLineUsage, summed). */
  usage?: RunUsage;
}

export class VerifiedMemo implements LogSums {
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly runDir: string,
    private readonly entries: Map<string, Entry>,
  ) {}

  static open(stateDir: string, runId: string): VerifiedMemo {
    const file = stateLayout.verifiedMemo(stateDir, runId);
    const runDir = stateLayout.runDir(stateDir, runId);
    const raw = existsSync(file) ? readLenient(file) : undefined;
    const entries = new Map<string, Entry>(raw?.format === FORMAT && raw.files && typeof raw.files === 'object' ? Object.entries(raw.files as Record<string, Entry>) : []);
    return new VerifiedMemo(file, runDir, entries);
  }

  /** The state of `file` now: taken before it is read, so a change while it is read is never remembered as verified. */
  look(file: string): string {
    return statKey(file);
  }

  /** Whether `file`, in state `stat` (look), was verified clean so (with schemas, when `schemas`) against `recorded`. */
  fresh(file: string, stat: string, recorded: string | undefined, schemas: boolean): boolean {
    const e = this.entries.get(this.key(file));
    return !!stat && !!e && e.verified && e.stat === stat && e.recorded === (recorded ?? null) && (e.schemas || !schemas);
  }

  /** Remembers `file`, in state `stat`, as verified clean. */
  remember(file: string, stat: string, recorded: string | undefined, schemas: boolean): void {
    if (!stat || this.fresh(file, stat, recorded, schemas)) return;
    const key = this.key(file);
    const was = this.entries.get(key);
    this.entries.set(key, { stat, verified: true, recorded: recorded ?? null, schemas, ...(was?.stat === stat && was.usage ? { usage: was.usage } : {}) });
    this.changed = true;
  }

  /** A results log's spending: as remembered for the log as it is now, else `read` and remembered. */
  sum(file: string, read: () => RunUsage): RunUsage {
    const stat = statKey(file);
    const known = this.usage(file, stat);
    if (known) return known;
    const v = read();
    this.rememberUsage(file, stat, v);
    return v;
  }

  /** A results log's spending as remembered for the file in state `stat`, or undefined. */
  private usage(file: string, stat: string): RunUsage | undefined {
    const e = this.entries.get(this.key(file));
    return stat && e?.usage && e.stat === stat ? e.usage : undefined;
  }

  private rememberUsage(file: string, stat: string, usage: RunUsage): void {
    if (!stat) return;
    const key = this.key(file);
    const was = this.entries.get(key);
    // Whether its bytes verify or not, this is what they say was spent.
    this.entries.set(key, was?.stat === stat ? { ...was, usage } : { stat, verified: false, recorded: null, schemas: false, usage });
    this.changed = true;
  }

  /** Writes the memo if anything was added; a state directory that cannot take it keeps none. */
  save(): void {
    if (!this.changed) return;
    try {
      writeFileAtomicallySync(this.file, `${JSON.stringify({ format: FORMAT, files: Object.fromEntries(this.entries) })}\n`);
      this.changed = false;
    } catch {
      // A read-only or full state directory: status works as before, verifying everything again next time.
    }
  }

  private key(file: string): string {
    return file.startsWith(`${this.runDir}/`) ? file.slice(this.runDir.length + 1) : file;
  }
}

/** size:mtime:inode of a file, or '' when it is gone: what changes whenever whetstone or anyone rewrites it. */
function statKey(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    return `${s.size}:${s.mtimeNs}:${s.ino}`;
  } catch {
    return '';
  }
}
