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
import { setImmediate as yieldToServer } from 'node:timers/promises';
import { isSafeId } from '../config/safe-id.js';
import { iterations } from '../loop/iterations.js';
import { iterationPaths } from '../loop/paths.js';
import { stateLayout } from '../state/layout.js';

export const stamp = (file: string): string => {
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

/** What a sweep compares of a run: its run.json and events.jsonl (the runs list keeps a row while this is unchanged). */
export const quickStamp = (runDir: string): string => `${stamp(stateLayout.runManifest(runDir))}|${stamp(stateLayout.events(runDir))}`;

/** What run.json's head says of a run: whether it is running, and whether it is a loop run (the only kind that holds candidates for review). */
export interface RunHead {
  running: boolean;
  loop: boolean;
}

const HEAD = Buffer.alloc(1024);
/**
 * run.json's head, where `mode` and `status` are written (run.json is small, but 10,000 of them are not):
 * undefined when there is no run.json or its head names no mode (a run starting, or a damaged one).
 */
export function readHead(runDir: string): RunHead | undefined {
  let fd: number;
  try {
    fd = openSync(stateLayout.runManifest(runDir), 'r');
  } catch {
    return undefined;
  }
  try {
    const text = HEAD.toString('utf8', 0, readSync(fd, HEAD, 0, HEAD.length, 0));
    const mode = /"mode":\s*"([a-z_-]+)"/.exec(text);
    return mode ? { running: /"status":\s*"running"/.test(text), loop: mode[1] === 'loop' } : undefined;
  } finally {
    closeSync(fd);
  }
}

/** What the watcher last saw of a run: its quick stamp and run.json's head then. */
export interface KnownRun {
  stamp: string;
  head: RunHead | undefined;
}

/** Runs compared between two yields to the server: a sweep of 10,000 runs never holds a request for long. */
const CHUNK = 200;

export interface Watcher {
  add(send: (changes: string[]) => void): () => void;
  /** Told every change while the watcher runs, without keeping it running (the runs list's kept rows). */
  observe(told: (changes: string[]) => void): void;
  /** What the watcher last saw of a run, while it runs (undefined while paused or before its baseline). */
  known(id: string): KnownRun | undefined;
  /** Keeps the watcher running `ms` more with no page listening (the runs list asked: its kept rows stay checked). */
  hold(ms: number): void;
  /**
   * What every run looks like now, taken once (the server takes it as it starts), a few hundred runs at a
   * time between requests: changes are counted from it. Resolves once taken.
   */
  baseline(): Promise<void>;
  close(): void;
  /** How many sweeps of every run were made (tests: a sweep is the cost that grows with the runs). */
  readonly sweeps: number;
}

/** The state as last seen: each run's quick stamp and head, the running runs' full stamps, the lock's and the runs folder's. */
class Seen {
  quick = new Map<string, string>();
  heads = new Map<string, RunHead | undefined>();
  full = new Map<string, string>();
  ids: string[] = [];
  runsDir = '';
  lock = '';
  feedback = '';
  /** Where the rolling check of every run stands (an index into `ids`). */
  cursor = 0;
  sweeps = 0;
  /** Set once the first sweep is done: from then on a change is reported. */
  based = false;

  constructor(private readonly stateDir: string) {}

  /** One run's run.json and events.jsonl compared; if they changed, its head read again (running? a loop?). */
  private check(id: string, out: Set<string>): void {
    const runDir = stateLayout.runDir(this.stateDir, id);
    const q = quickStamp(runDir);
    if (this.quick.get(id) === q) return;
    if (this.based) out.add(id);
    this.quick.set(id, q);
    const head = readHead(runDir);
    this.heads.set(id, head);
    // A run that may move any moment — running, or no run.json yet (a run starting) — is watched in full.
    if (!head || head.running) this.full.set(id, runStamp(runDir));
    else this.full.delete(id);
  }

  private forget(id: string, out: Set<string>): void {
    this.quick.delete(id);
    this.heads.delete(id);
    this.full.delete(id);
    out.add(id);
  }

  /**
   * The runs folder read again (a run added or removed) and the runs in `which` compared — every run when a
   * writer came or went, else only the new ones — yielding to the server every CHUNK runs.
   */
  async sweep(out: Set<string>, which: 'all' | 'new'): Promise<void> {
    this.sweeps++;
    const dir = stateLayout.runsDir(this.stateDir);
    const ids = existsSync(dir) ? readdirSync(dir).filter(isSafeId) : [];
    const present = new Set(ids);
    for (const id of this.quick.keys()) if (!present.has(id)) this.forget(id, out);
    this.ids = ids;
    const todo = which === 'all' ? ids : ids.filter((id) => !this.quick.has(id));
    for (let i = 0; i < todo.length; i++) {
      // A run removed since the folder was read (prune) is reported, not compared.
      if (present.has(todo[i]!)) this.check(todo[i]!, out);
      if (i % CHUNK === CHUNK - 1) await yieldToServer();
    }
  }

  /**
   * One tick: the few stamps that say where to look, the next `share` of the runs (so every run is
   * compared once per sweep period at an even, small cost — no spike), then the running runs in full.
   */
  async tick(out: Set<string>, share: number): Promise<void> {
    const fb = stamp(stateLayout.feedback(this.stateDir));
    if (fb !== this.feedback) out.add('@feedback');
    this.feedback = fb;
    const runsDir = stamp(stateLayout.runsDir(this.stateDir));
    // The lock, and the state folder itself: a writer quicker than a tick (`whet review approve`) leaves
    // the lock as it found it, but its lock folder coming and going changed the state folder.
    const lock = `${stamp(stateLayout.lock(this.stateDir))}|${stamp(this.stateDir)}`;
    const sweep = lock !== this.lock || this.sweeps === 0 ? 'all' : runsDir !== this.runsDir ? 'new' : undefined;
    this.runsDir = runsDir;
    this.lock = lock;
    if (sweep) await this.sweep(out, sweep);
    else {
      const n = Math.min(this.ids.length, Math.ceil(this.ids.length * share));
      for (let i = 0; i < n; i++, this.cursor++) {
        if (this.cursor >= this.ids.length) this.cursor = 0;
        const id = this.ids[this.cursor]!;
        this.check(id, out);
      }
    }
    for (const [id, before] of this.full) {
      const runDir = stateLayout.runDir(this.stateDir, id);
      const after = runStamp(runDir);
      if (after === before) continue;
      out.add(id);
      this.quick.set(id, quickStamp(runDir));
      const head = readHead(runDir);
      this.heads.set(id, head);
      if (!head || head.running) this.full.set(id, after);
      else this.full.delete(id);
    }
  }
}

/**
 * Polls every `ms` while at least one listener is there (or the runs list holds it); sweeps every run at
 * least every `sweepMs` (a change by hand). What it last saw is kept while paused, so the first tick after
 * a pause reports what changed during it.
 */
export function watchState(stateDir: string, ms: number, sweepMs = 30_000): Watcher {
  const listeners = new Set<(changes: string[]) => void>();
  const observers: ((changes: string[]) => void)[] = [];
  const seen = new Seen(stateDir);
  const share = ms / sweepMs;
  let baselined: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let heldUntil = 0;
  let ticking = false;
  let closed = false;
  const baseline = (): Promise<void> =>
    (baselined ??= (async () => {
      // A folder removed mid-read (prune): taken again, a few times; then changes count from the next ticks.
      for (let attempt = 0; attempt < 5 && !closed; attempt++) {
        try {
          await seen.tick(new Set(), share);
          break;
        } catch {
          seen.sweeps = 0;
          await yieldToServer();
        }
      }
      seen.based = true;
    })());
  const tick = async () => {
    if (!seen.based || ticking) return;
    if (!listeners.size && Date.now() > heldUntil) return pause();
    ticking = true;
    const out = new Set<string>();
    try {
      await seen.tick(out, share);
    } catch {
      return; // a folder removed mid-read (prune): the next tick sees the result
    } finally {
      ticking = false;
    }
    const c = [...out].sort();
    if (!c.length) return;
    for (const o of observers) o(c);
    for (const l of listeners) l(c);
  };
  const run = () => {
    if (timer || closed) return;
    void tick();
    timer = setInterval(() => void tick(), ms);
  };
  const pause = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return {
    get sweeps() {
      return seen.sweeps;
    },
    baseline,
    observe(told) {
      observers.push(told);
    },
    known(id) {
      if (!timer || !seen.based || !seen.quick.has(id)) return undefined;
      return { stamp: seen.quick.get(id)!, head: seen.heads.get(id) };
    },
    hold(forMs) {
      heldUntil = Math.max(heldUntil, Date.now() + forMs);
      run();
    },
    add(send) {
      listeners.add(send);
      run();
      return () => {
        listeners.delete(send);
        if (listeners.size === 0 && Date.now() > heldUntil) pause();
      };
    },
    close() {
      closed = true;
      listeners.clear();
      pause();
    },
  };
}
