// One claim per run (issue 38; docs/method.md: One claim per run). A run gates at most one candidate per
// iteration, and at most `loop.max_iterations` of them, so testing each at significance / max_iterations
// (Bonferroni) bounds the chance that a run keeps anything that does nothing by `significance`, whatever
// the dependence between its candidates (each kept edit changes the next one's baseline). Holm over the
// candidates gated so far did not: the first candidate was never corrected, so the run's rate grew with
// its iterations. Also here: the exact one-sided test of the deterministic path, and the task-level test
// over per-task differences that every noisy keep must pass as well as the CMH test (tasks like these).
import { binomialCdf } from '../stats/binomial.js';
import { tQuantile } from '../stats/t-quantile.js';
import { round6 } from '../core/numbers.js';

/** The level each candidate of a run is tested at, so the run as a whole keeps a no-effect edit at most `significance` of the time. */
export function perCandidateAlpha(significance: number, maxIterations: number): number {
  const n = Math.max(1, Math.floor(maxIterations));
  return Number((significance / n).toPrecision(6));
}

/** What gate.json and the summaries say about the run-level claim. */
export interface RunLevel {
  /** thresholds.significance: the most often a run may end having kept an edit that does nothing. */
  significance: number;
  /** loop.max_iterations as registered: the most candidates the run can gate. */
  max_iterations: number;
  /** The level this candidate was tested at: significance / max_iterations. */
  per_candidate: number;
  /** false on the mock engine alone: a demonstration, whose test is shown but not enforced. */
  enforced: boolean;
}

export function runLevel(significance: number, maxIterations: number, enforced: boolean): RunLevel {
  return { significance, max_iterations: Math.max(1, Math.floor(maxIterations)), per_candidate: perCandidateAlpha(significance, maxIterations), enforced };
}

export function runLevelWords(r: RunLevel): string {
  return `run-level: each of at most ${r.max_iterations} candidate(s) tested at ${r.significance}/${r.max_iterations} = ${r.per_candidate}, so a run keeps an edit that does nothing at most ${r.significance} of the time`;
}

/**
 * The one-sided exact sign test on the held-out tasks a deterministic engine fixed and regressed: the
 * chance of at least `fixes` fixes among `fixes + regressions` flipped tasks if each flip were a fair coin
 * (an edit that does nothing on average, over tasks like these). No flipped task gives 1.
 */
export function signTestP(fixes: number, regressions: number): number {
  const n = fixes + regressions;
  if (n === 0) return 1;
  return Number(binomialCdf(regressions, n, 0.5).toPrecision(6));
}

/** The fewest fixes with no regression that can pass the sign test at `alpha`: what a suite must be able to flip. */
export function fixesNeeded(alpha: number): number {
  let n = 1;
  while (0.5 ** n > alpha && n < 60) n++;
  return n;
}

export interface TaskLevelTest {
  /** The t statistic of the mean per-task difference of attempt shares (null: fewer than 2 tasks or no spread). */
  t: number | null;
  /** The one-sided critical value it must reach: Student's t at the candidate's level, never above 2.5% one-sided. */
  critical: number | null;
  passed: boolean;
}

/**
 * The task-level one-sided t test over held-out tasks (tasks a sample of tasks like these; attempts within
 * them): the mean per-task difference of attempt shares over its standard error, against Student's t with
 * tasks − 1 degrees of freedom at `alpha` — the candidate's own level (significance ÷ max_iterations),
 * never above 0.025, so a keep never stands beside a 95% interval that includes 0. The differences are
 * those of the tasks with information (sequential.ts `taskDiffs`). A keep needs the CMH boundary crossed
 * too, so under an edit that does nothing on every task the run's rate is what the CMH design spends;
 * under per-task effects that average zero (sd 0.2) the t test holds it: kept in 3.3% of 400 seeded runs
 * at max_attempts 10 and 4.3% at 30 with one candidate at 0.05 (npm run bench) (checked more often as attempts grow, the
 * t test's own rate creeps up with max_attempts: the bar, 5%, is near at 30). It was held to the CMH boundary's nominal
 * level at each look (about 0.002 at 0.01 per candidate) before: that kept a +25-point edit in 85% of 300
 * runs, 57% on a suite whose half of the held-out tasks nearly always pass or fail. Tasks with identical
 * differences everywhere (no spread) pass only when every difference is above 0.
 */
export function taskLevelTest(diffs: readonly number[], alpha: number): TaskLevelTest {
  const n = diffs.length;
  const level = Math.min(alpha, 0.025);
  if (n < 2 || !(level > 0 && level < 1)) return { t: null, critical: null, passed: false };
  const mean = diffs.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const critical = tQuantile(1 - level, n - 1);
  // No spread: t is ±∞ (or 0/0 when every difference is 0), recorded at ±1e6 so JSON keeps it.
  if (!(sd > 0)) return { t: mean > 0 ? 1e6 : mean < 0 ? -1e6 : 0, critical: round6(critical), passed: mean > 0 };
  const t = mean / (sd / Math.sqrt(n));
  return { t: round6(t), critical: round6(critical), passed: t >= critical };
}

