// Live updates: what changed in the state directory, sent as Server-Sent Events naming the runs that moved.
// Polled, not fs.watch: it sees writes by any process — another terminal, a CI job, a shard on a shared disk
// where inotify says nothing — the same way on every platform. But polled by what can move (issue 41: one
// open page at 10,000 runs kept the viewer at 41% of a core, statting every run's files every 400 ms):
//  - every tick: the runs folder (a run added or removed), the state lock and the state folder holding it (a writer came or went), the
//    feedback file, and each running run's files in full (run.json, events, its newest iteration's
//    folder and results logs, which grow as tasks are judged);
//  - a sweep of every run's run.json and events.jsonl (two stats a run; whetstone changes one of them with
//    every write to a run) when the runs folder or the lock changed; and besides, a few runs each tick,
//    so that every run is compared once every `sweepMs` (a change made by hand) at an even small cost.
//    A run whose run.json says "running" is watched in full until it says otherwise.
import { closeSync, existsSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSafeId } from '../config/safe-id.js';
import { iterations } from '../loop/iterations.js';
import { iterationPaths } from '../loop/paths.js';
import { stateLayout } from '../state/layout.js';

const stamp = (file: string): string => {
  try {
    const s = statSync(file);
    // Timestamps move in coarse ticks (a run folder made in the same few ms as its parent looks unchanged by
    // time): the inode (a file renamed into place), the size and a folder's link count say what time cannot.
    return `${s.ino}:${s.nlink}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
};

/** What changes when a running run moves: its run.json and events, its newest iteration's files and results logs. */
export function runStamp(runDir: string): string {
  const parts = [stamp(stateLayout.runManifest(runDir)), stamp(stateLayout.events(runDir))];
  const its = iterations(runDir);
  const n = its[its.length - 1];
  if (n !== undefined) {
    const dir = iterationPaths(runDir, n).dir;
    parts.push(String(n), stamp(dir));
    const results = stateLayout.resultsDir(dir);
    if (existsSync(results)) for (const f of readdirSync(results).sort()) parts.push(f, stamp(join(results, f)));
  }
  return parts.join('|');
}

/** What a sweep compares of a run: its run.json and events.jsonl. */
const quickStamp = (runDir: string): string => `${stamp(stateLayout.runManifest(runDir))}|${stamp(stateLayout.events(runDir))}`;

/** Whether run.json says the run is running: read from its head, where `status` is written (run.json is small, but 10,000 of them are not). */
function isRunning(runDir: string): boolean {
  let fd: number;
  try {
    fd = openSync(stateLayout.runManifest(runDir), 'r');
  } catch {
    return false;
  }
  try {
    const buf = Buffer.alloc(1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    return /"status":\s*"running"/.test(buf.toString('utf8', 0, n));
  } finally {
    closeSync(fd);
  }
}

/** A run that may move any moment: running, or a folder whose run.json is not written yet (a run starting). */
const watchInFull = (runDir: string): boolean => isRunning(runDir) || !existsSync(stateLayout.runManifest(runDir));

export interface Watcher {
  add(send: (changes: string[]) => void): () => void;
  /** Told every change while the watcher runs, without keeping it running (the runs list's kept rows). */
  observe(told: (changes: string[]) => void): void;
  /** A number for each stretch the watcher runs without a pause (a page listening); undefined while paused. */
  generation(): number | undefined;
  /** What every run looks like now, taken once (the server takes it as it starts): changes are counted from it. */
  baseline(): void;
  close(): void;
  /** How many sweeps of every run were made (tests: a sweep is the cost that grows with the runs). */
  readonly sweeps: number;
}

/** The state as last seen: each run's quick stamp, the running runs' full stamps, the lock's and the runs folder's. */
class Seen {
  quick = new Map<string, string>();
  full = new Map<string, string>();
  ids: string[] = [];
  runsDir = '';
  lock = '';
  feedback = '';
  /** Where the rolling check of every run stands (an index into `ids`). */
  cursor = 0;
  sweeps = 0;

  constructor(private readonly stateDir: string) {}

  /** One run's run.json and events.jsonl compared; if they changed, re-read for whether it runs. */
  private check(id: string, out: Set<string>): void {
    const runDir = stateLayout.runDir(this.stateDir, id);
    const q = quickStamp(runDir);
    if (this.quick.get(id) === q) return;
    if (this.sweeps > 1) out.add(id);
    this.quick.set(id, q);
    if (watchInFull(runDir)) this.full.set(id, runStamp(runDir));
    else this.full.delete(id);
  }

  /** Every run compared, and the runs folder read again: a run added or removed, or a writer came or went. */
  sweep(out: Set<string>): void {
    this.sweeps++;
    const dir = stateLayout.runsDir(this.stateDir);
    this.ids = existsSync(dir) ? readdirSync(dir).filter(isSafeId) : [];
    const present = new Set(this.ids);
    for (const id of this.ids) this.check(id, out);
    for (const id of this.quick.keys()) {
      if (present.has(id)) continue;
      this.quick.delete(id);
      this.full.delete(id);
      out.add(id);
    }
  }

  /**
   * One tick: the few stamps that say where to look, the next `share` of the runs (so every run is
   * compared once per sweep period at an even, small cost — no spike), then the running runs in full.
   */
  tick(out: Set<string>, share: number): void {
    const fb = stamp(stateLayout.feedback(this.stateDir));
    if (fb !== this.feedback) out.add('@feedback');
    this.feedback = fb;
    const runsDir = stamp(stateLayout.runsDir(this.stateDir));
    // The lock, and the state folder itself: a writer quicker than a tick (`whet review approve`) leaves
    // the lock as it found it, but its lock folder coming and going changed the state folder.
    const lock = `${stamp(stateLayout.lock(this.stateDir))}|${stamp(this.stateDir)}`;
    if (runsDir !== this.runsDir || lock !== this.lock || this.sweeps === 0) this.sweep(out);
    else {
      const n = Math.min(this.ids.length, Math.ceil(this.ids.length * share));
      for (let i = 0; i < n; i++, this.cursor++) {
        if (this.cursor >= this.ids.length) this.cursor = 0;
        const id = this.ids[this.cursor]!;
        if (this.quick.has(id)) this.check(id, out);
      }
    }
    this.runsDir = runsDir;
    this.lock = lock;
    for (const [id, before] of this.full) {
      const runDir = stateLayout.runDir(this.stateDir, id);
      const after = runStamp(runDir);
      if (after === before) continue;
      out.add(id);
      this.quick.set(id, quickStamp(runDir));
      if (watchInFull(runDir)) this.full.set(id, after);
      else this.full.delete(id);
    }
  }
}

/**
 * Polls every `ms` while at least one listener is there; sweeps every run at least every `sweepMs` (a change
 * by hand). What it last saw is kept while no page listens, so the first tick after a pause reports what
 * changed during it.
 */
export function watchState(stateDir: string, ms: number, sweepMs = 30_000): Watcher {
  const listeners = new Set<(changes: string[]) => void>();
  const observers: ((changes: string[]) => void)[] = [];
  const seen = new Seen(stateDir);
  const share = ms / sweepMs;
  let based = false;
  let timer: NodeJS.Timeout | undefined;
  let started = 0;
  const baseline = () => {
    if (based) return;
    try {
      seen.tick(new Set(), share);
      based = true;
    } catch {
      // a folder removed mid-read (prune): taken again at the next tick
    }
  };
  const tick = () => {
    if (!based) return baseline();
    const out = new Set<string>();
    try {
      seen.tick(out, share);
    } catch {
      return; // a folder removed mid-read (prune): the next tick sees the result
    }
    const c = [...out].sort();
    if (!c.length) return;
    for (const o of observers) o(c);
    for (const l of listeners) l(c);
  };
  return {
    get sweeps() {
      return seen.sweeps;
    },
    baseline,
    observe(told) {
      observers.push(told);
    },
    generation: () => (timer && based ? started : undefined),
    add(send) {
      listeners.add(send);
      if (!timer) {
        tick();
        started++;
        timer = setInterval(tick, ms);
      }
      return () => {
        listeners.delete(send);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = undefined;
        }
      };
    },
    close() {
      listeners.clear();
      if (timer) clearInterval(timer);
      timer = undefined;
    },
  };
}
