// `whet prune --older-than 30d`: removes runs last touched before the cutoff (and their mock copies), cache entries past their
// TTL, and suites' checked copies written before the cutoff (an evaluation of a suite still in use writes
// its copy again). A run that promoted a candidate (it has backups) is kept with its backups: it is the lineage of the
// target as it is now, and its backups are the only way back.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isSafeId } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { mockCopyRuns, removeMockCopy } from '../state/mock-copies.js';

export interface PruneResult {
  removed_runs: string[];
  kept_promoted: string[];
  removed_cache: string[];
  /** Mock copies removed (state/mock-copies/<run>): of the runs removed, and of runs already gone. */
  removed_mock_copies: string[];
  dry_run: boolean;
}

export function prune(stateDir: string, o: { olderThanMs: number; cacheTtlMs: number; cacheDir?: string; now: Date; dryRun: boolean }): PruneResult {
  const cutoff = o.now.getTime() - o.olderThanMs;
  const r: PruneResult = { removed_runs: [], kept_promoted: [], removed_cache: [], removed_mock_copies: [], dry_run: o.dryRun };
  const runs = stateLayout.runsDir(stateDir);
  for (const id of existsSync(runs) ? readdirSync(runs).filter(isSafeId).sort() : []) {
    const dir = stateLayout.runDir(stateDir, id);
    let touched: number;
    try {
      const m = JSON.parse(readFileSync(stateLayout.runManifest(dir), 'utf8')) as { updated_at?: string; created_at?: string; status?: string };
      if (m.status === 'running') continue;
      touched = Date.parse(m.updated_at ?? m.created_at ?? '');
    } catch {
      touched = statSync(dir).mtimeMs;
    }
    if (!(touched < cutoff)) continue;
    if (existsSync(stateLayout.backups(stateDir, id))) {
      r.kept_promoted.push(id);
      continue;
    }
    r.removed_runs.push(id);
    if (o.dryRun) continue;
    rmSync(dir, { recursive: true, force: true });
    // What status remembered of the run's files goes with it (src/inspect/verified-memo.ts).
    rmSync(stateLayout.verifiedMemo(stateDir, id), { force: true });
  }
  // A mock run's copy goes with its run; a copy whose run was removed by hand goes too (src/state/mock-copies.ts).
  const removed = new Set(r.removed_runs);
  for (const id of mockCopyRuns(stateDir)) {
    if (!removed.has(id) && existsSync(stateLayout.runDir(stateDir, id))) continue;
    r.removed_mock_copies.push(id);
    if (!o.dryRun) removeMockCopy(stateDir, id);
  }
  const cache = o.cacheDir ?? stateLayout.baselineCacheDir(stateDir);
  for (const f of existsSync(cache) ? readdirSync(cache).filter((x) => x.endsWith('.json')).sort() : []) {
    let created: number;
    try {
      created = Date.parse((JSON.parse(readFileSync(join(cache, f), 'utf8')) as { created_at: string }).created_at);
    } catch {
      created = Number.NaN;
    }
    if (Number.isNaN(created) || o.now.getTime() - created > o.cacheTtlMs) {
      r.removed_cache.push(f);
      if (!o.dryRun) rmSync(join(cache, f), { force: true });
    }
  }
  // Listed as `suites/<file>` among the cache entries.
  const copies = stateLayout.suiteCopyDir(stateDir);
  for (const f of existsSync(copies) ? readdirSync(copies).filter((x) => x.endsWith('.suite')).sort() : []) {
    if (!(statSync(join(copies, f)).mtimeMs < cutoff)) continue;
    r.removed_cache.push(`suites/${f}`);
    if (!o.dryRun) rmSync(join(copies, f), { force: true });
  }
  return r;
}
