// The viewer's runs list at 10,000 runs (issue 41): each run's row — what `whet status` says of it, its
// engine and the candidates it holds for review — computed when a page shows it and kept while the run's
// run.json and events.jsonl are unchanged (every write whetstone makes to a run changes one of them: a
// stage's artifact is recorded in events.jsonl as it is written; a file inside an iteration edited by hand
// shows on the run's own page, which checks every file, and in the list once the run writes again). A
// running run is recomputed on every request (its progress and a paused rate limit move with the clock).
// Pages of the list are read from the folder names alone. The count of runs that wait for review needs no
// row of a run that is not a loop (only a loop's gate holds a candidate for a person): the watcher
// (watch.ts) reads each run.json's head once and keeps its stamps, so the count compares kept stamps in
// memory instead of two stats a run per request, and only loop runs are read when the viewer starts.
import { setImmediate as yieldToServer } from 'node:timers/promises';
import { holdsRun, runFolders } from '../inspect/verify-state.js';
import { listRuns } from '../inspect/status.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { progressOf, type RunRow } from './run-model.js';
import { engineOf, type EngineBadge } from './engine-badge.js';
import { quickStamp, readHead, stamp, type KnownRun } from './watch.js';

export type { EngineBadge };

export interface RunSummary extends RunRow {
  /** null: not recorded yet (a loop run before its first measurement). */
  engine: EngineBadge | null;
  /** Candidates of this run a gate held for a person (decision pending_review). */
  waiting: number;
}

export interface RunPage {
  /** Runs in the state directory. */
  total: number;
  offset: number;
  /** Newest first. */
  rows: RunSummary[];
  /** Runs holding a candidate for review; null while the list is still being read (`indexed` of `total`). */
  waiting_runs: number | null;
  indexed: number;
}

/** What the index asks the live watcher (watch.ts): what it last saw of a run, while it runs. */
export interface RunWatch {
  known(id: string): KnownRun | undefined;
  /** Keep watching for a while with no page listening: the list was asked for. */
  hold(ms: number): void;
  /** Resolves once the watcher has looked at every run (what `known` answers from). */
  baseline(): Promise<void>;
}

/** How long the watcher keeps running after the runs list was last asked for, with no page listening. */
export const HOLD_MS = 60_000;

async function computeRow(stateDir: string, id: string, now: Date): Promise<RunSummary | null> {
  const runDir = stateLayout.runDir(stateDir, id);
  const manifest = stateLayout.runManifest(runDir);
  // A folder with none of a run's files (being created, or not a run): not listed, as `whet status` does.
  if (!holdsRun(runDir)) return null;
  const [r] = await listRuns(stateDir, now, [id]);
  if (!r) return null;
  const m = readLenient(manifest);
  return {
    ...r,
    // A run whose process is gone (status says interrupted) has no progress to show.
    progress: r.status === 'running' ? progressOf(runDir, m, now) : null,
    engine: engineOf(runDir, m),
    waiting: r.decisions.filter((d) => /^\d+:pending_review\b/.test(d)).length,
  };
}

export class RunIndex {
  private readonly kept = new Map<string, { stamp: string; row: RunSummary | null }>();
  private folders: { stamp: string; ids: string[] } | undefined;
  private warming: Promise<void> | undefined;
  private warm = false;
  private counted = 0;
  private stopped = false;

  /**
   * `watch`: the live watcher; while it runs, a kept row whose stamp is the one the watcher last saw is
   * trusted for the count without a stat. Absent (a test, `whet status`-like use): every kept row is
   * checked against its files (two stats a run).
   */
  constructor(
    private readonly stateDir: string,
    private readonly watch?: RunWatch,
  ) {}

  /** Runs the watcher saw change: read again when next asked for. */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.kept.delete(id);
  }

  /** The run folders, oldest first; read again only when the runs folder itself changed. */
  ids(): string[] {
    const stamp = quickStampOfFolder(this.stateDir);
    if (this.folders?.stamp !== stamp) this.folders = { stamp, ids: runFolders(this.stateDir) };
    return this.folders.ids;
  }

  /**
   * One run's row: the kept one while its stamp holds — the watcher's last look when `check` is false and
   * the watcher runs, else its files statted now — or read again.
   */
  private async read(id: string, now: Date, check: boolean): Promise<RunSummary | null> {
    const hit = this.kept.get(id);
    if (hit && !check && hit.stamp === this.watch?.known(id)?.stamp) return hit.row;
    const runDir = stateLayout.runDir(this.stateDir, id);
    const stamp = quickStamp(runDir);
    if (hit && hit.stamp === stamp) return hit.row;
    const row = await computeRow(this.stateDir, id, now);
    // A running run moves with the clock (progress, a rate-limit pause ending): never kept.
    if (row && (row.status === 'running' || row.rate_limit)) this.kept.delete(id);
    else this.kept.set(id, { stamp, row });
    return row;
  }

  /** How many candidates a run holds for review, without its row when run.json's head says it is no loop. */
  private async waitingIn(id: string, now: Date): Promise<number> {
    const known = this.watch?.known(id);
    const head = known ? known.head : readHead(stateLayout.runDir(this.stateDir, id));
    if (head && !head.loop) return 0;
    return (await this.read(id, now, false))?.waiting ?? 0;
  }

  private async rows(ids: readonly string[], now: Date, check: boolean): Promise<RunSummary[]> {
    const out: RunSummary[] = [];
    for (const id of ids) {
      const r = await this.read(id, now, check);
      if (r) out.push({ ...r, age_ms: Math.max(0, now.getTime() - Date.parse(r.updated_at)) });
    }
    return out;
  }

  /**
   * Counts the runs waiting for review once, reading each loop run's row (a non-loop run needs none),
   * yielding to the server between runs; then the count is known and kept up by the watcher.
   */
  warmUp(now: () => Date): Promise<void> {
    this.warming ??= (async () => {
      await this.watch?.baseline();
      this.watch?.hold(HOLD_MS);
      const ids = this.ids();
      for (let i = 0; i < ids.length; i++) {
        if (this.stopped) return;
        try {
          await this.waitingIn(ids[i]!, now());
        } catch {
          // a run removed or half-written as it was read: read again when a page asks for it
        }
        this.counted = i + 1;
        if (i % 50 === 49) await yieldToServer();
      }
      this.warm = true;
    })();
    return this.warming;
  }

  /** The viewer is closing: the background reading stops. */
  stop(): void {
    this.stopped = true;
  }

  /** Every run's row, oldest first (what `/api/runs` answers: a row not read yet is read now, then kept). */
  all(now: Date): Promise<RunSummary[]> {
    this.watch?.hold(HOLD_MS);
    return this.rows(this.ids(), now, false);
  }

  /** One page of the list, newest first, and how many runs wait for review. */
  async page(now: Date, offset: number, limit: number): Promise<RunPage> {
    this.watch?.hold(HOLD_MS);
    const ids = this.ids();
    const newest = ids.slice(Math.max(0, ids.length - offset - limit), Math.max(0, ids.length - offset)).reverse();
    // The rows shown are checked against their files every time (two stats each): a change made by hand
    // shows on the next draw. The count over every run trusts the watcher's stamps while it runs.
    const rows = await this.rows(newest, now, true);
    if (!this.warm) {
      void this.warmUp(() => now);
      return { total: ids.length, offset, rows, waiting_runs: null, indexed: this.counted };
    }
    let waiting = 0;
    for (const id of ids) {
      // Most runs are no loop: answered from the watcher's look at run.json's head, with no await.
      const head = this.watch?.known(id)?.head;
      if (head && !head.loop) continue;
      if (await this.waitingIn(id, now)) waiting++;
    }
    return { total: ids.length, offset, rows, waiting_runs: waiting, indexed: ids.length };
  }
}

const quickStampOfFolder = (stateDir: string): string => stamp(stateLayout.runsDir(stateDir));
