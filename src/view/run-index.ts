// The viewer's runs list at 10,000 runs (issue 41): each run's row — what `whet status` says of it, its
// engine and the candidates it holds for review — computed once and kept while the run's run.json and
// events.jsonl are unchanged (every write whetstone makes to a run changes one of them: a stage's
// artifact is recorded in events.jsonl as it is written; a file inside an iteration edited by hand shows
// on the run's own page, which checks every file, and in the list once the run writes again). A running
// run is recomputed on every request (its progress and a paused rate limit move with the clock). Pages of
// the list are read from the folder names alone; the count of runs that wait for review comes from the
// kept rows, built in the background when the viewer starts, a few runs at a time so the server keeps
// answering, and kept fresh by the watcher (watch.ts) instead of two stats a run per request.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { setImmediate as yieldToServer } from 'node:timers/promises';
import { isSafeId } from '../config/safe-id.js';
import { listRuns } from '../inspect/status.js';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { progressOf, type RunRow } from './run-model.js';
import { engineOf, type EngineBadge } from './engine-badge.js';

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

export const stampOf = (file: string): string => {
  try {
    const s = statSync(file);
    // As watch.ts stamps: inode, links and size too, for what coarse timestamps leave unchanged.
    return `${s.ino}:${s.nlink}:${s.size}:${s.mtimeMs}`;
  } catch {
    return '-';
  }
};

/** The folders under runs/ with a safe id, oldest first (run ids begin with their start time). */
export function runFolders(stateDir: string): string[] {
  const dir = stateLayout.runsDir(stateDir);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isSafeId(e.name))
    .map((e) => e.name)
    .sort();
}

async function computeRow(stateDir: string, id: string, now: Date): Promise<RunSummary | null> {
  const runDir = stateLayout.runDir(stateDir, id);
  const manifest = stateLayout.runManifest(runDir);
  // A folder with none of a run's files (being created, or not a run): not listed, as `whet status` does.
  if (!existsSync(manifest) && !existsSync(stateLayout.events(runDir)) && !readdirSync(runDir).some((d) => /^iter-\d{3,}$/.test(d))) return null;
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
  private stopped = false;

  /**
   * `watching`: defined while the live watcher runs (watch.ts: it then reports every run that changes
   * since its baseline, taken before any row is read, and `forget` drops its row), undefined while no page
   * listens — then each request checks every kept row's stamp itself (two stats a run).
   */
  constructor(
    private readonly stateDir: string,
    private readonly watching: () => number | undefined = () => undefined,
  ) {}

  private stamp(id: string): string {
    const runDir = stateLayout.runDir(this.stateDir, id);
    return `${stampOf(stateLayout.runManifest(runDir))}|${stampOf(stateLayout.events(runDir))}`;
  }

  /** Runs the watcher saw change: read again when next asked for. */
  forget(ids: readonly string[]): void {
    for (const id of ids) this.kept.delete(id);
  }

  /** The run folders, oldest first; read again only when the runs folder itself changed. */
  ids(): string[] {
    const stamp = stampOf(stateLayout.runsDir(this.stateDir));
    if (this.folders?.stamp !== stamp) this.folders = { stamp, ids: runFolders(this.stateDir) };
    return this.folders.ids;
  }

  /** One run's row: the kept one (checked against its files when `check`), else read again. */
  private async read(id: string, now: Date, check: boolean): Promise<RunSummary | null> {
    const hit = this.kept.get(id);
    if (hit && !check) return hit.row;
    const stamp = this.stamp(id);
    if (hit && hit.stamp === stamp) return hit.row;
    const row = await computeRow(this.stateDir, id, now);
    // A running run moves with the clock (progress, a rate-limit pause ending): never kept.
    if (row && (row.status === 'running' || row.rate_limit)) this.kept.delete(id);
    else this.kept.set(id, { stamp, row });
    return row;
  }

  /** Whether kept rows must be checked against their files on this request: while no watcher reports changes. */
  private mustCheck(): boolean {
    return this.watching() === undefined;
  }

  private async rows(ids: readonly string[], now: Date, check: boolean): Promise<RunSummary[]> {
    const out: RunSummary[] = [];
    for (const id of ids) {
      const r = await this.read(id, now, check);
      if (r) out.push({ ...r, age_ms: Math.max(0, now.getTime() - Date.parse(r.updated_at)) });
    }
    return out;
  }

  /** Reads every run's row once, yielding to the server between runs; then the count of waiting runs is known. */
  warmUp(now: () => Date): Promise<void> {
    this.warming ??= (async () => {
      for (const id of this.ids()) {
        if (this.stopped) return;
        try {
          if (!this.kept.has(id)) await this.read(id, now(), false);
        } catch {
          // a run removed or half-written as it was read: read again when a page asks for it
        }
        await yieldToServer();
      }
      this.warm = true;
    })();
    return this.warming;
  }

  /** The viewer is closing: the background reading stops. */
  stop(): void {
    this.stopped = true;
  }

  /** Every run's row, oldest first (what `/api/runs` answers). */
  all(now: Date): Promise<RunSummary[]> {
    return this.rows(this.ids(), now, this.mustCheck());
  }

  /** One page of the list, newest first, and how many runs wait for review. */
  async page(now: Date, offset: number, limit: number): Promise<RunPage> {
    const check = this.mustCheck();
    const ids = this.ids();
    const newest = ids.slice(Math.max(0, ids.length - offset - limit), Math.max(0, ids.length - offset)).reverse();
    // The rows shown are checked against their files every time (two stats each): a change made by hand
    // shows on the next draw. The count over every run trusts the watcher while it runs.
    const rows = await this.rows(newest, now, true);
    if (!this.warm) {
      void this.warmUp(() => now);
      return { total: ids.length, offset, rows, waiting_runs: null, indexed: this.kept.size };
    }
    let waiting = 0;
    for (const id of ids) if ((await this.read(id, now, check))?.waiting) waiting++;
    return { total: ids.length, offset, rows, waiting_runs: waiting, indexed: ids.length };
  }
}
