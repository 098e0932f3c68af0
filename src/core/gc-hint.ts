// A full garbage collection between the phases of a large evaluation. V8 collects its old generation
// only once it has grown to a multiple of what was live after the last full collection, so reading a
// 100,000-task suite (its text, its parsed slices, the split bookkeeping) left ~60 MB of dead objects
// that no collection reclaimed before the run ended: peak RSS 240 MB for ~80 MB alive. One collection
// after loading and one before the artifact is built take ~35 ms each at that size and bring the peak
// to ~180 MB. At 10,000 tasks they take ~18 ms each (~4% of the run's CPU) for ~4.5 MB less peak RSS
// (115 → 110 MB, six runs each); smaller suites skip them (their garbage is small, and the pause would
// be most of their time).
//
// `gc` is not exposed by default; the flag is set at run time and the function taken from a new context,
// as Jest's leak detector does. If that ever fails, the hint is simply skipped.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Suites at least this large get the collections. */
export const GC_HINT_TASKS = 10_000;

let collect: (() => void) | null | undefined;

function gcFunction(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    setFlagsFromString('--expose-gc');
    const fn: unknown = runInNewContext('gc');
    collect = typeof fn === 'function' ? (fn as () => void) : null;
  } catch {
    collect = null;
  }
  return collect;
}

/** Collects now when `tasks` is a large suite's size; returns whether it did. */
export function collectBetweenPhases(tasks: number): boolean {
  if (tasks < GC_HINT_TASKS) return false;
  const gc = gcFunction();
  if (!gc) return false;
  gc();
  return true;
}
