// A baseline taken from the cache has no attempts in the run that used it: they are in the results log of
// the run that measured it, whose `baseline.meta.json` names the cache key it was measured under. Other
// runs may hold a log under the same key (measured again, not from the cache); the one taken is the log
// whose per-task figures are the baseline's as recorded (passes, judged and errors of every task), so the
// exported runs are the very attempts the decision rested on. The skill-creator export reads that log, so
// a candidate's `old_skill` (or a standalone run's `with_skill`) still has its runs, and says whose they are.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stateLayout } from '../state/layout.js';
import { readLenient } from '../state/read-lenient.js';
import { readResults } from '../state/results-log.js';
import { at, str, type Json } from './inputs.js';

/** The cache key the iteration's baseline was read under, when it was a cache hit. */
export function baselineCacheKey(ev: Json, iterationBaseline: Json | undefined): string | undefined {
  for (const e of [iterationBaseline, ev]) {
    if (e && at(e, 'evaluation', 'cache', 'hit') === true) return str(at(e, 'evaluation', 'cache', 'key'));
  }
  return undefined;
}

type Recorded = { task_id: string; passes: number; judged: number; errors: number };

/** A task's figures as a string, from the recorded task results or from a log's attempts. */
const figures = (rows: Iterable<Recorded>) => [...rows].map((r) => `${r.task_id}:${r.passes}/${r.judged}/${r.errors}`).sort().join('\n');

async function figuresOfLog(file: string): Promise<string> {
  const latest = new Map<string, string>();
  await readResults(file, (l) => latest.set(`${l.task_id}#${l.attempt}`, `${l.task_id}\0${l.status}`));
  const byTask = new Map<string, Recorded>();
  for (const v of latest.values()) {
    const [task_id, status] = v.split('\0') as [string, string];
    const t = byTask.get(task_id) ?? { task_id, passes: 0, judged: 0, errors: 0 };
    if (status === 'pass' || status === 'fail') t.judged++;
    if (status === 'pass') t.passes++;
    if (status === 'error') t.errors++;
    byTask.set(task_id, t);
  }
  return figures(byTask.values());
}

/** The baseline results log stored under `key` whose figures are `recorded`'s (newest run first), if any is left. */
export async function cachedResultsLog(stateDir: string, key: string, recorded: Json[]): Promise<{ file: string; run: string } | undefined> {
  const want = figures(recorded.map((r) => ({ task_id: String(r.task_id), passes: Number(r.passes ?? 0), judged: Number(r.judged ?? 0), errors: Number(r.errors ?? 0) })));
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
      if (meta && meta.key === key && existsSync(file) && (await figuresOfLog(file)) === want) return { file, run };
    }
  }
  return undefined;
}
