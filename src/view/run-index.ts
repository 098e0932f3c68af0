// The viewer's runs list at 10,000 runs (issue 41): each run's row — what `whet status` says of it, its
// engine and the candidates it holds for review — computed once and kept while the run's run.json and
// events.jsonl are unchanged (every write whetstone makes to a run changes one of them: a stage's
// artifact is recorded in events.jsonl as it is written). A running run is recomputed on every request
// (its progress and a paused rate limit move with the clock). Pages of the list are read from the folder
// names alone; the count of runs that wait for review comes from the kept rows, built in the background
// when the viewer starts, a few runs at a time so the server keeps answering.
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
    return `${s.size}:${s.mtimeMs}`;
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
    progress: progressOf(runDir, m, now),
    engine: engineOf(runDir, m),
    waiting: r.decisions.filter((d) => /^\d+:pending_review\b/.test(d)).length,
  };
}

export class RunIndex {
  private readonly kept = new Map<string, { stamp: string; row: RunSummary | null }>();
  private warming: Promise<void> | undefined;
  private warm = false;

  constructor(private readonly stateDir: string) {}

  private stamp(id: string): string {
    const runDir = stateLayout.runDir(this.stateDir, id);
    return `${stampOf(stateLayout.runManifest(runDir))}|${stampOf(stateLayout.events(runDir))}`;
  }

  /** One run's row: the kept one while its files are unchanged, else read again. */
  async row(id: string, now: Date): Promise<RunSummary | null> {
    const stamp = this.stamp(id);
    const hit = this.kept.get(id);
    if (hit && hit.stamp === stamp) return hit.row && { ...hit.row, age_ms: Math.max(0, now.getTime() - Date.parse(hit.row.updated_at)) };
    const row = await computeRow(this.stateDir, id, now);
    // A running run moves with the clock (progress, a rate-limit pause ending): never kept.
    if (row && (row.status === 'running' || row.rate_limit)) this.kept.delete(id);
    else this.kept.set(id, { stamp, row });
    return row;
  }

  /** Reads every run's row once, yielding to the server between runs; then the count of waiting runs is known. */
  warmUp(now: () => Date): Promise<void> {
    this.warming ??= (async () => {
      for (const id of runFolders(this.stateDir)) {
        try {
          if (!this.kept.has(id)) await this.row(id, now());
        } catch {
          // a run removed or half-written as it was read: read again when a page asks for it
        }
        await yieldToServer();
      }
      this.warm = true;
    })();
    return this.warming;
  }

  /** Every run's row, oldest first (what `/api/runs` answers). */
  async all(now: Date): Promise<RunSummary[]> {
    const out: RunSummary[] = [];
    for (const id of runFolders(this.stateDir)) {
      const r = await this.row(id, now);
      if (r) out.push(r);
    }
    return out;
  }

  /** One page of the list, newest first, and how many runs wait for review. */
  async page(now: Date, offset: number, limit: number): Promise<RunPage> {
    const ids = runFolders(this.stateDir).reverse();
    const rows: RunSummary[] = [];
    for (const id of ids.slice(offset, offset + limit)) {
      const r = await this.row(id, now);
      if (r) rows.push(r);
    }
    if (!this.warm) void this.warmUp(() => now);
    let waiting: number | null = null;
    let indexed = 0;
    if (this.warm) {
      waiting = 0;
      // Each run's stamp checked (two stats a run), and only what changed read again.
      for (const id of ids) {
        const r = await this.row(id, now);
        if (r?.waiting) waiting++;
        indexed++;
      }
    } else indexed = [...this.kept.keys()].length;
    return { total: ids.length, offset, rows, waiting_runs: waiting, indexed };
  }
}
