// What the gate's other checks mean on a noisy engine (docs/method.md: Deciding on a noisy agent). On an
// engine that answers the same way every time one flipped task is a regression; on a noisy one a task that
// passed its one baseline attempt and failed its one candidate attempt is a coin that fell the other way
// about as often as not. So a held-out task counts as a new failure only when its own attempts show the
// candidate worse by an exact test (regression-guard.ts, with the fall it could find at the attempts run
// stated beside it); a category counts as dropped only when its drop is
// beyond the tolerance and the drop itself is significant (Holm over the categories). supportedRegressions,
// Holm over every task, is what the nightly holds a critical task to.
import { fisherLower } from '../stats/fisher.js';
import { holm } from '../stats/holm.js';
import { normalCdf } from '../stats/normal.js';
import { tQuantile } from '../stats/t-quantile.js';
import { cmh, DESIGN, taskDiffs, type TaskPair } from './sequential.js';
import { round4 as r4 } from '../core/numbers.js';

/** A variant's share of passed attempts on a task. */
export const share = (c: { passes: number; judged: number }) => c.passes / c.judged;
/** The tasks judged at least once on both variants: the only ones a comparison can read. */
export const both = (pairs: readonly TaskPair[]) => pairs.filter((p) => p.candidate.judged > 0 && p.baseline.judged > 0);

export interface Effect {
  /** Mean over tasks of the candidate's share of passed attempts minus the baseline's. */
  effect: number | null;
  /** Confidence interval from the per-task differences (tasks as clusters, attempts within them). */
  low: number | null;
  high: number | null;
  tasks: number;
  confidence: number;
}

/**
 * The held-out effect with a t interval over tasks: each task's difference of shares already carries its
 * attempts' noise, and the spread of those differences across tasks carries the rest, so the interval
 * needs no model of either (a cluster-level analysis; Donner & Klar 2000, ch. 6). The spread is taken over
 * the tasks with information (sequential.ts `taskDiffs`: not every attempt the same verdict on both
 * sides, unless those all moved alike), whose interval is scaled by their share of the tasks: the others'
 * difference is exactly 0. So the interval excludes 0 exactly when the gate's task-level t test at that
 * confidence passes.
 */
export function heldOutEffect(pairs: readonly TaskPair[], confidence = 0.95): Effect {
  const ps = both(pairs);
  const n = ps.length;
  if (n === 0) return { effect: null, low: null, high: null, tasks: 0, confidence };
  const d = taskDiffs(ps);
  const m = d.length;
  const mean = m ? d.reduce((a, b) => a + b, 0) / m : 0;
  const effect = (mean * m) / n;
  if (m < 2) return { effect: r4(effect), low: m === 0 ? r4(effect) : null, high: m === 0 ? r4(effect) : null, tasks: n, confidence };
  const sd = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (m - 1));
  const half = tQuantile(1 - (1 - confidence) / 2, m - 1) * (sd / Math.sqrt(m));
  const scale = m / n;
  return { effect: r4(effect), low: r4(Math.max(-1, scale * (mean - half))), high: r4(Math.min(1, scale * (mean + half))), tasks: n, confidence };
}

/** Tasks whose own attempts show the candidate worse, Holm-corrected over every task compared. */
export function supportedRegressions(pairs: readonly TaskPair[], alpha: number): { task_id: string; p: number }[] {
  const ps = both(pairs);
  if (ps.length === 0) return [];
  const p = ps.map((x) => fisherLower(x.candidate.passes, x.candidate.judged, x.baseline.passes, x.baseline.judged));
  const h = holm(p, alpha);
  return ps.flatMap((x, i) => (h.rejected[i] && share(x.candidate) < share(x.baseline) ? [{ task_id: x.task_id, p: Number(p[i]!.toPrecision(4)) }] : []));
}

export interface CategoryDrop {
  category: string;
  delta: number;
  p: number;
  supported: boolean;
}

/**
 * Each category's change in attempt shares, with the one-sided CMH p-value that it dropped; a drop beyond
 * `tolerance` is `supported` when that p survives Holm over the categories.
 */
export function categoryDrops(byCategory: ReadonlyMap<string, readonly TaskPair[]>, tolerance: number, alpha: number): CategoryDrop[] {
  const rows = [...byCategory].flatMap(([category, pairs]) => {
    const ps = both(pairs);
    if (ps.length === 0) return [];
    const delta = ps.reduce((a, p) => a + share(p.candidate) - share(p.baseline), 0) / ps.length;
    const c = cmh(ps);
    const z = c.info > 0 ? (c.score + DESIGN.continuity) / Math.sqrt(c.info) : 0;
    return [{ category, delta: r4(delta), p: c.info > 0 ? Math.min(1, normalCdf(z)) : 1 }];
  });
  if (rows.length === 0) return [];
  const h = holm(rows.map((r) => r.p), alpha);
  return rows.map((r, i) => ({ ...r, p: Number(r.p.toPrecision(4)), supported: r.delta < -tolerance && h.rejected[i] === true }));
}
