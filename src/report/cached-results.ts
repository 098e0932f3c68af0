// A baseline taken from the cache has no attempts in the run that used it: they are in the results log of
// the run that measured it, whose `<variant>.meta.json` names the cache key it was stored under. The
// skill-creator export reads that log instead, so a candidate's `old_skill` (or a standalone run's
// `with_skill`) still has its runs, and says which run they come from.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { at, str, type Json } from './inputs.js';

/** The cache key the iteration's baseline was read under, when it was a cache hit. */
export function baselineCacheKey(ev: Json, iterationBaseline: Json | undefined): string | undefined {
  for (const e of [iterationBaseline, ev]) {
    if (e && at(e, 'evaluation', 'cache', 'hit') === true) return str(at(e, 'evaluation', 'cache', 'key'));
  }
  return undefined;
}

/** The newest run's baseline results log stored under `key` (run ids begin with their time), if any is left. */
export function cachedResultsLog(stateDir: string, key: string): { file: string; run: string } | undefined {
  const runsDir = stateLayout.runsDir(stateDir);
  let runs: string[];
  try {
    runs = readdirSync(runsDir).sort().reverse();
  } catch {
    return undefined;
  }
  for (const run of runs) {
    const runDir = join(runsDir, run);
    let iters: string[] = [];
    try {
      iters = readdirSync(runDir).filter((d) => /^iter-\d+$/.test(d)).sort();
    } catch {
      continue;
    }
    for (const dir of [runDir, ...iters.map((d) => join(runDir, d))]) {
      const meta = readLenient(join(stateLayout.resultsDir(dir), 'baseline.meta.json'));
      const file = stateLayout.resultsFile(dir, 'baseline');
      if (meta && meta.key === key && existsSync(file)) return { file, run };
    }
  }
  return undefined;
}
