// The plan before a run (docs/method.md: The plan): from the held-out tasks' pass chances (the baseline's
// per-task pass rates, or ½ for each when none was measured: the most variable case), the registered
// significance, the smallest effect worth finding and evaluate.max_attempts, what the sequential design
// (src/evaluation/sequential.ts) will do — its power for that effect, the attempts it expects to spend
// with no effect and with that effect, and what would give 80% power when the suite cannot. Computed from
// the design's own boundaries at the information the chances imply, not by simulation.
import { boundaries, operatingCharacteristics, type Boundary, type LookInfo } from '../stats/group-sequential.js';
import { DESIGN, spendingDesign, type SequentialSettings } from './sequential.js';

export const TARGET_POWER = 0.8;
/** The attempts search stops here: each candidate design costs the square of its looks. */
export const MAX_ATTEMPTS_SEARCHED = 100;

export interface PlanInput {
  /** Each held-out task's pass chance on the baseline (0–1). */
  chances: readonly number[];
  settings: SequentialSettings;
  /** Attempts per task in the first measurement (pass_k). */
  firstAttempts: number;
}

export interface PlanFigures {
  heldOut: number;
  power: number;
  /** Expected attempts per held-out task per variant, for an edit with no effect and one of min_effect. */
  expectedAttempts: { none: number; minEffect: number };
}

export interface Plan extends PlanFigures {
  canFind: boolean;
  /** max_attempts that would give 80% power on these tasks (null: more than MAX_ATTEMPTS_SEARCHED, or not searched). */
  attemptsFor80: number | null;
  /** Held-out tasks that would give 80% power within max_attempts (null: more than 100 times as many). */
  tasksFor80: number | null;
}

/** Information one attempt per variant adds for a task of chance p: m·p(1−p)/2 for m attempts each. */
const perAttempt = (chances: readonly number[]) => chances.reduce((a, p) => a + (p * (1 - p)) / 2, 0);

function designFor(n: number, v: number, s: SequentialSettings, first: number): { bounds: Boundary[]; theta1: number; attempts: number[] } {
  const attempts: number[] = [];
  for (let m = Math.min(first, s.maxAttempts); m <= s.maxAttempts; m++) attempts.push(m);
  const theta1 = v > 0 ? (s.minEffect * n) / (2 * v) : 0;
  const looks: LookInfo[] = attempts.map((m) => ({ t: m / s.maxAttempts, info: m * v, theta1, final: m === s.maxAttempts }));
  // The run's z is shrunk toward 0 by the continuity correction: on the unshrunk scale a boundary sits
  // ½/√I further from 0 (src/evaluation/sequential.ts zOf).
  const bounds = boundaries(looks, spendingDesign(s)).map((b) => {
    const half = DESIGN.continuity / Math.sqrt(b.info);
    const out = (z: number) => (Number.isFinite(z) ? z + (z >= 0 ? half : -half) : z);
    return { ...b, upper: out(b.upper), lower: b.final ? out(b.upper) : out(b.lower) };
  });
  return { bounds, theta1, attempts };
}

/** Power and expected attempts of the design on `n` tasks whose summed per-attempt information is `v`. */
function figures(n: number, v: number, s: SequentialSettings, first: number): PlanFigures {
  if (n === 0 || !(v > 0)) return { heldOut: n, power: 0, expectedAttempts: { none: s.maxAttempts, minEffect: s.maxAttempts } };
  const { bounds, theta1, attempts } = designFor(n, v, s, first);
  const expected = (theta: number) => {
    const oc = operatingCharacteristics(bounds, theta);
    return { keep: oc.keep, attempts: oc.stopAt.reduce((a, pr, k) => a + pr * attempts[k]!, 0) };
  };
  const none = expected(0);
  const alt = expected(theta1);
  return { heldOut: n, power: alt.keep, expectedAttempts: { none: none.attempts, minEffect: alt.attempts } };
}

export function planFigures(i: PlanInput): PlanFigures {
  return figures(i.chances.length, perAttempt(i.chances), i.settings, i.firstAttempts);
}

/**
 * The figures, and when the power falls short of 80%, the tasks that would reach it and (unless
 * `searchAttempts` is false: a line printed before every run stays quick) the attempts that would.
 */
export function plan(i: PlanInput, searchAttempts = true): Plan {
  const n = i.chances.length;
  const v = perAttempt(i.chances);
  const f = figures(n, v, i.settings, i.firstAttempts);
  const canFind = f.power >= TARGET_POWER;
  if (canFind || n === 0 || !(v > 0)) return { ...f, canFind, attemptsFor80: canFind ? i.settings.maxAttempts : null, tasksFor80: canFind ? n : null };
  const powerAt = (m: number) => figures(n, v, { ...i.settings, maxAttempts: m }, i.firstAttempts).power;
  const attemptsFor80 = searchAttempts ? smallest(i.settings.maxAttempts + 1, MAX_ATTEMPTS_SEARCHED, (m) => powerAt(m) >= TARGET_POWER) : null;
  const tasksPower = (k: number) => figures(k, (v * k) / n, i.settings, i.firstAttempts).power;
  const tasksFor80 = smallest(n + 1, n * 100, (k) => tasksPower(k) >= TARGET_POWER);
  return { ...f, canFind, attemptsFor80, tasksFor80 };
}

/** The smallest x in [lo, hi] with ok(x), for ok monotone; null when even hi is not enough. */
function smallest(lo: number, hi: number, ok: (x: number) => boolean): number | null {
  let a = lo;
  let b = lo;
  while (!ok(b)) {
    if (b >= hi) return null;
    a = b + 1;
    b = Math.min(hi, b * 2);
  }
  while (a < b) {
    const mid = Math.floor((a + b) / 2);
    if (ok(mid)) b = mid;
    else a = mid + 1;
  }
  return b;
}
