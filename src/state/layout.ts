// Where everything lives in a state directory (DESIGN.md "The state directory"). Only this file knows
// the names, so moving a file is a one-line change.
import { join } from 'node:path';

export const stateLayout = {
  runsDir: (state: string) => join(state, 'runs'),
  runDir: (state: string, runId: string) => join(state, 'runs', runId),
  runManifest: (runDir: string) => join(runDir, 'run.json'),
  events: (runDir: string) => join(runDir, 'events.jsonl'),
  iterDir: (runDir: string, iteration: number) => join(runDir, `iter-${String(iteration).padStart(3, '0')}`),
  resultsDir: (dir: string) => join(dir, 'results'),
  resultsFile: (dir: string, variant: string) => join(dir, 'results', `${variant}.jsonl`),
  supersededDir: (dir: string) => join(dir, 'superseded'),
  baselineCacheDir: (state: string) => join(state, 'cache', 'baselines'),
  lessons: (state: string) => join(state, 'memory', 'lessons.jsonl'),
  backups: (state: string, runId: string) => join(state, 'backups', runId),
  lock: (state: string) => join(state, 'lock'),
};
