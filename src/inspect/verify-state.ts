// `whet verify [RUN…]`: every run of a state directory (verify-run.ts), and what belongs to no one run —
// the baseline cache, the nightly records (verify-nightly.ts), the lessons log, backups whose run folder is
// gone, and the lock. A copied, cached or merged state directory is checked before anything reads it (issue 31).
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isSafeId } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { judge, readOwner } from '../state/lock-owner.js';
import { problem, readJsonChecked, readJsonlChecked, type Problem } from '../state/verify-files.js';
import { verifyRun, type RunCheck } from './verify-run.js';
import { nightlyProblems } from './verify-nightly.js';

export interface StateCheck {
  runs: RunCheck[];
  /** Problems of files that belong to no one run. */
  shared: Problem[];
}

/**
 * The folders under runs/ with a safe id, oldest first (run ids begin with their start time) — each checked
 * for being a run (`holdsRun`) by whoever reads it: the viewer's runs list, at 10,000 runs, checks only the
 * page it shows.
 */
export function runFolders(stateDir: string): string[] {
  const runs = stateLayout.runsDir(stateDir);
  if (!existsSync(runs)) return [];
  return readdirSync(runs, { withFileTypes: true })
    .filter((e) => e.isDirectory() && isSafeId(e.name))
    .map((e) => e.name)
    .sort();
}

/** Whether a run folder holds a run: run.json, events.jsonl or an iteration (a folder being created, or not a run, holds none). */
export function holdsRun(runDir: string): boolean {
  return existsSync(stateLayout.runManifest(runDir)) || existsSync(stateLayout.events(runDir)) || readdirSync(runDir).some((d) => /^iter-\d{3,}$/.test(d));
}

/** Every folder under runs/ that is a run (a safe id holding run.json, events.jsonl or an iteration). */
export function runIds(stateDir: string): string[] {
  return runFolders(stateDir).filter((id) => holdsRun(stateLayout.runDir(stateDir, id)));
}

export async function verifyState(stateDir: string, only: string[] = [], now = new Date()): Promise<StateCheck> {
  const ids = only.length ? only : runIds(stateDir);
  const runs: RunCheck[] = [];
  for (const id of ids) runs.push(await verifyRun(stateDir, id, { schemas: true, now }));
  const shared = only.length ? [] : await sharedProblems(stateDir, new Set(ids), now);
  return { runs, shared };
}

async function sharedProblems(stateDir: string, runs: Set<string>, now: Date): Promise<Problem[]> {
  const out: Problem[] = [];
  const { schemaProblem } = await import('./verify-schemas.js');
  const cacheHint = '"whet verify --repair" moves it to superseded/; the baseline is measured again when next needed';
  const cache = stateLayout.baselineCacheDir(stateDir);
  if (existsSync(cache)) {
    for (const name of readdirSync(cache).filter((n) => n.endsWith('.json')).sort()) {
      const file = join(cache, name);
      const r = readJsonChecked(file, `cached baseline ${name}`, cacheHint);
      if (!r.ok) {
        out.push(r.problem);
        continue;
      }
      const wrong = schemaProblem('cache', r.value, r.bytes.toString('utf8'), file);
      if (wrong) out.push(problem(file, 'schema', `cached baseline ${name} does not match its schema: ${wrong.message}`, cacheHint, wrong.at));
      // Its key is its name: an entry under another name would answer for content it never measured.
      else if ((r.value as { key?: unknown }).key !== basename(name, '.json')) out.push(problem(file, 'edited', `cached baseline ${name} holds the entry of another key`, cacheHint));
    }
  }
  out.push(...nightlyProblems(stateDir, schemaProblem));
  const lessons = stateLayout.lessons(stateDir);
  if (existsSync(lessons)) out.push(...readJsonlChecked(lessons, 'memory/lessons.jsonl', '"whet verify --repair" moves the bad lines to superseded/').problems);
  const backups = join(stateDir, 'backups');
  if (existsSync(backups)) {
    for (const id of readdirSync(backups).filter(isSafeId).sort()) {
      if (!runs.has(id)) out.push(problem(join(backups, id), 'missing', `backups of run ${id}, whose run folder is gone`, `"whet rollback ${id}" still restores the skill from them (it reads no run.json), but their hashes were in the run's events.jsonl: restore runs/${id} from a copy of the state directory`));
    }
  }
  const lock = stateLayout.lock(stateDir);
  if (existsSync(lock)) {
    const j = judge(lock, readOwner(lock), now.getTime());
    if (!j.held) out.push(problem(lock, 'stale-lock', `the state lock is stale: ${j.why}`, 'the next command that takes the lock sweeps it (so does "whet verify --repair")'));
  }
  return out;
}
