// Where everything lives in a state directory (docs/concepts/state-directory.md). Only this file knows
// the names, so moving a file is a one-line change. Ids are checked where they enter (a flag, a suite, an
// artifact: src/config/safe-id.ts); the paths built from them here are checked again to stay inside their
// folder, so a missed check is an internal error and never a write outside the state directory.
import { join } from 'node:path';
import { insideRoot, layoutId, MAX_ITERATION } from '../config/safe-id.js';
import { InternalError } from '../core/errors.js';

/** The manifest each shard of an evaluation leaves in its directory (src/evaluation/shard-manifest.ts). */
export const SHARD_FILE = 'shard.json';

const idPath = (root: string, id: string, what: string, suffix = '') => insideRoot(root, join(root, `${layoutId(id, what)}${suffix}`), what);

/** iter-001 …: the folder name of an iteration number. */
export function iterName(iteration: number): string {
  if (!Number.isSafeInteger(iteration) || iteration < 0 || iteration > MAX_ITERATION) throw new InternalError(`iteration ${String(iteration)} reached the path layer unchecked: an iteration is a whole number from 0 to ${MAX_ITERATION}`);
  return `iter-${String(iteration).padStart(3, '0')}`;
}

export const stateLayout = {
  runsDir: (state: string) => join(state, 'runs'),
  runDir: (state: string, runId: string) => idPath(join(state, 'runs'), runId, 'run id'),
  runManifest: (runDir: string) => join(runDir, 'run.json'),
  /** The manifest as registered when the run started, written once: what `whet verify --repair` rebuilds run.json from. */
  registeredManifest: (runDir: string) => join(runDir, 'registered.json'),
  events: (runDir: string) => join(runDir, 'events.jsonl'),
  iterDir: (runDir: string, iteration: number) => join(runDir, iterName(iteration)),
  resultsDir: (dir: string) => join(dir, 'results'),
  resultsFile: (dir: string, variant: string) => idPath(join(dir, 'results'), variant, 'variant id', '.jsonl'),
  supersededDir: (dir: string) => join(dir, 'superseded'),
  baselineCacheDir: (state: string) => join(state, 'cache', 'baselines'),
  /** Checked copies of large suites (src/config/suite-copy.ts). */
  suiteCopyDir: (state: string) => join(state, 'cache', 'suites'),
  /** What `whet status` remembers of a run's verified files (src/inspect/verified-memo.ts). */
  verifiedMemo: (state: string, runId: string) => idPath(join(state, 'cache', 'verified'), runId, 'run id', '.json'),
  lessons: (state: string) => join(state, 'memory', 'lessons.jsonl'),
  /** A person's verdicts on outputs, given in `whet view` (src/lessons/feedback.ts). */
  feedback: (state: string) => join(state, 'memory', 'feedback.jsonl'),
  backups: (state: string, runId: string) => idPath(join(state, 'backups'), runId, 'run id'),
  /** The copy of the skill a mock run improves in place of the author's own (issue 41; src/loop/open.ts). */
  mockCopies: (state: string) => join(state, 'mock-copies'),
  mockCopy: (state: string, runId: string) => idPath(join(state, 'mock-copies'), runId, 'run id'),
  lock: (state: string) => join(state, 'lock'),
};
