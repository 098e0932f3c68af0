// A full garbage collection between the phases of a large evaluation. V8 collects its old generation
// only once it has grown to a multiple of what was live after the last full collection, so reading a
// 100,000-task suite (its text, its parsed slices, the split bookkeeping) left ~50 MB of dead objects
// that no collection reclaimed before the run ended. One collection after loading and one before the
// artifact is built take ~25 ms each at that size and keep the peak at ~138 MB instead of ~185 MB.
// Whether one pays depends on how much the heap holds, not on how many tasks made it: at 10,000 tasks the
// heap holds ~20 MB and the two collections freed ~4 MB of peak RSS for ~6% of the run's time (A/B, 21
// pairs), so a heap under GC_HINT_HEAP_BYTES is left to V8.
//
// `gc` is not exposed by default; the flag is set at run time and the function taken from a new context,
// as Jest's leak detector does. If that ever fails, the hint is simply skipped.
//
// Node documents changing V8 flags after start-up (v8.setFlagsFromString) as unsupported: behaviour may
// differ between versions. So, as NODE_DISABLE_COMPILE_CACHE=1 turns off the compile cache
// (compile-cache.ts), WHET_NO_GC_HINT=1 turns off everything here: no flag is set, no collection made, the
// young generation left to V8 — for a Node on which a flag misbehaves, or to measure without the hints.
// Read from process.env at each call, not from a RunEnv: like Node's own switches it is about the process
// (V8's flags are process-wide), and the suite reader that holds the young generation has no RunEnv.
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A heap holding at least this much gets the collections. */
export const GC_HINT_HEAP_BYTES = 48 << 20;

let collect: (() => void) | null | undefined;

/** Whether WHET_NO_GC_HINT=1 turns the hints off (only '1', as Node reads NODE_DISABLE_COMPILE_CACHE). */
export function gcHintDisabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env['WHET_NO_GC_HINT'] === '1';
}

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

/** What the heap held after the last collection made here. */
let liveAfter = 0;

/** Collects now when the heap holds GC_HINT_HEAP_BYTES or more (`heapBytes`: its size now); returns whether it did. */
export function collectBetweenPhases(heapBytes = getHeapStatistics().used_heap_size): boolean {
  if (heapBytes < GC_HINT_HEAP_BYTES || gcHintDisabled()) return false;
  const gc = gcFunction();
  if (!gc) return false;
  gc();
  liveAfter = getHeapStatistics().used_heap_size;
  return true;
}

// Inside a phase that allocates a lot and keeps part of it (a large suite read in slices, a long artifact
// written in pieces), V8 lets the old generation grow to a multiple of what was live before collecting it:
// at 100,000 tasks the heap reached 72 MB with 28 MB live at the end of the suite's reading, the run's
// peak. Collected each time the heap has grown GROWN_BYTES past what the last collection left, the peak
// stays near what is live, for a few collections of ~30-60 ms each.

/** How far the heap grows past what was live after the last collection before collectWhenGrown collects. */
export const GROWN_BYTES = 24 << 20;

/** Called between steps of a long phase: collects when the heap has grown GROWN_BYTES since the last collection made here. */
export function collectWhenGrown(): boolean {
  const used = getHeapStatistics().used_heap_size;
  if (used < liveAfter + GROWN_BYTES) return false;
  return collectBetweenPhases(used);
}

// V8 doubles its young generation (two semi-spaces, up to 16 MB each on 64-bit Node 20) while most young
// objects survive their scavenge, which is what reading a large suite does: every task lives on. At
// 10,000 tasks the new space reached its 32 MB maximum, a fifth of the run's peak RSS. Its maximum can be
// set only when Node starts (--max-semi-space-size; set later it has no effect, measured), but the growth
// factor is read at each growth: once the new space has reached YOUNG_HOLD_BYTES it stops growing.
// Measured (A/B, fresh processes): 10,000 tasks peak 89 MB instead of 105 MB at the same CPU time;
// 100,000 tasks 138 MB instead of 149 MB for ≈ 3% more CPU. Smaller holds cost time: held from the
// start (≈ 1 MB semi-spaces), 10,000 tasks took ≈ 10% longer.

/** The new space (both semi-spaces) stops growing once it is this large. */
export const YOUNG_HOLD_BYTES = 16 << 20;

let held = false;

/**
 * Called between steps of work that keeps most of what it allocates (a large suite's slices): stops the
 * young generation's growth once it has reached YOUNG_HOLD_BYTES. Returns whether it is held now.
 */
export function holdYoungGeneration(): boolean {
  if (held) return true;
  if (gcHintDisabled()) return false;
  const young = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
  if (!young || young.space_size < YOUNG_HOLD_BYTES) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  held = true;
  return true;
}
