// The plan before a run (docs/method.md: The plan): from the held-out tasks' pass chances (the baseline's
// per-task pass rates, or ½ for each when none was measured: the most variable case), the registered
// significance, the smallest effect worth finding and evaluate.max_attempts, what the sequential design
// (src/evaluation/sequential.ts) will do — its power for that effect, the attempts it expects to spend
// with no effect and with that effect, and what would give 80% power when the suite cannot. Computed from
// the design's own boundaries at the information the chances imply, not by simulation.
import { boundaries, operatingCharacteristics, type Boundary, type KeepBoundaries, type LookInfo, type SpendingDesign } from '../stats/group-sequential.js';
import { normalQuantile } from '../stats/normal.js';
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

/**
 * The chances under an edit whose held-out effect — the mean over tasks of the rise in pass chance, what
 * min_effect and the design's drift mean — is `effect`: every task raised by the same amount, none past 1,
 * so a suite whose tasks nearly always pass gains it on the others. (Raising each by `effect` and clipping
 * at 1 gave a suite with 70% of its tasks at 0.97 a mean rise of 0.05 for a "+10-point" edit.) Where the
 * tasks cannot rise that far on average, all of them pass.
 */
export function raisedChances(chances: readonly number[], effect: number): number[] {
  const rise = (g: number) => chances.reduce((a, p) => a + Math.min(1, p + g) - p, 0) / Math.max(1, chances.length);
  if (!(effect > 0) || chances.length === 0) return [...chances];
  if (rise(1) <= effect) return chances.map(() => 1);
  let lo = effect;
  let hi = 1;
  // The mean rise grows with g, continuously and piecewise linearly: bisection to far below a pass chance's precision.
  for (let i = 0; i < 50; i++) {
    const g = (lo + hi) / 2;
    if (rise(g) < effect) lo = g;
    else hi = g;
  }
  return chances.map((p) => Math.min(1, p + hi));
}

/** Information one attempt per variant adds for a task of chance p: m·p(1−p)/2 for m attempts each. */
const perAttempt = (chances: readonly number[]) => chances.reduce((a, p) => a + (p * (1 - p)) / 2, 0);

const attemptsOf = (first: number, max: number) => Array.from({ length: max - Math.min(first, max) + 1 }, (_, k) => Math.min(first, max) + k);

/** Keep boundaries by looks and α spending (KeepBoundaries): a plan's search asks for several designs that share them. */
const keepShared = new Map<string, KeepBoundaries>();

/**
 * The keep boundaries of every design whose looks are at `first`..`max` attempts, computed once at one unit
 * of information per attempt: the same numbers whatever design asked first, so a plan does not depend on
 * the order its figures were asked in.
 */
function keepFor(first: number, max: number, d: SpendingDesign): KeepBoundaries {
  const key = `${first}/${max}/${d.alpha}/${d.gammaAlpha}`;
  let keep = keepShared.get(key);
  if (!keep) {
    const looks = attemptsOf(first, max).map((m) => ({ t: m / max, info: m, theta1: null, final: m === max }));
    keep = { alpha: d.alpha, gammaAlpha: d.gammaAlpha, looks: boundaries(looks, { ...d, beta: 0 }).map(({ t, final, upper, alphaSpent }) => ({ t, final, upper, alphaSpent })) };
    if (keepShared.size >= 64) keepShared.clear();
    keepShared.set(key, keep);
  }
  return keep;
}

function designFor(n: number, v: number, s: SequentialSettings, first: number): { bounds: Boundary[]; theta1: number; attempts: number[] } {
  const attempts = attemptsOf(first, s.maxAttempts);
  const theta1 = v > 0 ? (s.minEffect * n) / (2 * v) : 0;
  const looks: LookInfo[] = attempts.map((m) => ({ t: m / s.maxAttempts, info: m * v, theta1, final: m === s.maxAttempts }));
  const d = spendingDesign(s);
  // The run's z is shrunk toward 0 by the continuity correction: on the unshrunk scale a boundary sits
  // ½/√I further from 0 (src/evaluation/sequential.ts zOf).
  const bounds = boundaries(looks, d, keepFor(first, s.maxAttempts, d)).map((b) => {
    const half = DESIGN.continuity / Math.sqrt(b.info);
    const out = (z: number) => (Number.isFinite(z) ? z + (z >= 0 ? half : -half) : z);
    return { ...b, upper: out(b.upper), lower: b.final ? out(b.upper) : out(b.lower) };
  });
  return { bounds, theta1, attempts };
}

/**
 * After each look, the chance that the test goes on to another round: `after[k]` for the look at
 * `attempts[k]` attempts per task, with no effect and with min_effect. What a round costs depends on how
 * many tasks are still open (settled ones get no more attempts), which the plan's calls count with these.
 */
export interface LookSurvival {
  attempts: number[];
  none: number[];
  minEffect: number[];
}

/** Power and expected attempts of the design on `n` tasks whose summed per-attempt information is `v`. */
function figures(n: number, v: number, s: SequentialSettings, first: number): PlanFigures & { survival: LookSurvival } {
  if (n === 0 || !(v > 0)) {
    const attempts = [Math.min(first, s.maxAttempts)];
    return { heldOut: n, power: 0, expectedAttempts: { none: s.maxAttempts, minEffect: s.maxAttempts }, survival: { attempts, none: [0], minEffect: [0] } };
  }
  const { bounds, theta1, attempts } = designFor(n, v, s, first);
  const expected = (theta: number) => {
    const oc = operatingCharacteristics(bounds, theta);
    let stopped = 0;
    const after = oc.stopAt.map((pr) => Math.max(0, 1 - (stopped += pr)));
    return { keep: oc.keep, attempts: oc.stopAt.reduce((a, pr, k) => a + pr * attempts[k]!, 0), after };
  };
  const none = expected(0);
  const alt = expected(theta1);
  return { heldOut: n, power: alt.keep, expectedAttempts: { none: none.attempts, minEffect: alt.attempts }, survival: { attempts: attempts.slice(0, none.after.length), none: none.after, minEffect: alt.after } };
}

/** figures()'s power alone (the searches ask only that): the same walk under θ₁, without the one under the null. */
function powerOf(n: number, v: number, s: SequentialSettings, first: number): number {
  if (n === 0 || !(v > 0)) return 0;
  const { bounds, theta1 } = designFor(n, v, s, first);
  return operatingCharacteristics(bounds, theta1).keep;
}

export function planFigures(i: PlanInput): PlanFigures {
  const { survival: _, ...f } = figures(i.chances.length, perAttempt(i.chances), i.settings, i.firstAttempts);
  return f;
}

/**
 * The figures, and when the power falls short of 80%, the tasks that would reach it and (unless
 * `searchAttempts` is false: a line printed before every run stays quick) the attempts that would.
 */
export function plan(i: PlanInput, searchAttempts = true): Plan {
  return planWithSurvival(i, searchAttempts).plan;
}

/** plan(), with the design's chance of going on after each look (LookSurvival). */
export function planWithSurvival(i: PlanInput, searchAttempts = true): { plan: Plan; survival: LookSurvival } {
  const n = i.chances.length;
  const v = perAttempt(i.chances);
  const { survival, ...f } = figures(n, v, i.settings, i.firstAttempts);
  const canFind = f.power >= TARGET_POWER;
  if (canFind || n === 0 || !(v > 0)) return { plan: { ...f, canFind, attemptsFor80: canFind ? i.settings.maxAttempts : null, tasksFor80: canFind ? n : null }, survival };
  const critical = normalQuantile(1 - i.settings.significance);
  const powerAt = (m: number) => powerOf(n, v, { ...i.settings, maxAttempts: m }, i.firstAttempts);
  const attemptsFor80 = searchAttempts ? smallestPowered(i.settings.maxAttempts, f.power, MAX_ATTEMPTS_SEARCHED, powerAt, critical) : null;
  const tasksPower = (k: number) => powerOf(k, (v * k) / n, i.settings, i.firstAttempts);
  const tasksFor80 = smallestPowered(n, f.power, n * 100, tasksPower, critical);
  return { plan: { ...f, canFind, attemptsFor80, tasksFor80 }, survival };
}

/**
 * The smallest x in (from, hi] whose power reaches TARGET_POWER, for a power that rises with x (the
 * information grows with it); null when even hi falls short. Each power costs a design's futility
 * boundaries and a walk (the keep boundaries are shared: keepFor), and the line before every run asks for
 * this, so the search interpolates rather than doubling and halving from `from` (11 designs on a suite of 300
 * whose answer was 303). It works on the power's probit against √x, where a fixed-sample test at the same
 * level (`critical`) would be a straight line: a first guess from that line, then secants outward until
 * a point has the power, then regula falsi (Illinois) inside the bracket, each step rounded to a whole x
 * and kept strictly inside. Every x is asked of the design itself and the search ends only between a
 * short x and the next one up, so the answer is the one a plain search gives: 3 designs in that case,
 * fewer than a plain search wherever the guess lands near.
 */
export function smallestPowered(from: number, powerFrom: number, hi: number, powerAt: (x: number) => number, critical: number): number | null {
  if (from >= hi) return null;
  // A power that is not a number counts as none: short, as a plain search would take it.
  const probit = (p: number) => normalQuantile(Number.isNaN(p) ? 1e-12 : Math.min(1 - 1e-12, Math.max(1e-12, p)));
  const target = probit(TARGET_POWER);
  // At or above 0 exactly when the power reaches the target, as compared directly (the probit only steers).
  const gapOf = (p: number) => (p >= TARGET_POWER ? Math.max(0, probit(p) - target) : Math.min(-Number.MIN_VALUE, probit(p) - target));
  const gap = (x: number) => gapOf(powerAt(x));
  /** x rounded up into [a, b]; `otherwise` where the arithmetic gave no number. */
  const within = (x: number, a: number, b: number, otherwise: number) => (Number.isFinite(x) ? Math.min(b, Math.max(a, Math.ceil(x))) : otherwise);
  /** Where the line through (a, fa) and (b, fb), in √x, reaches 0. */
  const root = (a: number, fa: number, b: number, fb: number) => {
    const r = Math.sqrt(a) + ((Math.sqrt(b) - Math.sqrt(a)) * -fa) / (fb - fa);
    return r * r;
  };
  let lo = from;
  let fLo = gapOf(powerFrom);
  const drift = probit(powerFrom) + critical;
  let b = within(drift > 0 ? from * ((target + critical) / drift) ** 2 : 2 * from, from + 1, hi, Math.min(hi, 2 * from));
  let fB = gap(b);
  // Outward until a point has the power: at least twice the last step each time, so a flat stretch
  // cannot make it crawl.
  while (fB < 0) {
    if (b >= hi) return null;
    const slope = (fB - fLo) / (Math.sqrt(b) - Math.sqrt(lo));
    const next = slope > 0 && Number.isFinite(slope) ? root(lo, fLo, b, fB) : 0;
    const step = b - lo;
    [lo, fLo] = [b, fB];
    b = within(Math.max(next, b + 2 * step), b + 1, hi, Math.min(hi, b + 2 * step));
    fB = gap(b);
  }
  // Inside [lo, b]: lo short, b enough. Illinois halves the value kept from an end chosen twice running,
  // so one end cannot stall the interpolation; after a few steps plain halving bounds the cost.
  let kept: 'lo' | 'b' | undefined;
  for (let step = 0; b - lo > 1; step++) {
    const half = Math.floor((lo + b) / 2);
    const c = step < 8 ? within(root(lo, fLo, b, fB), lo + 1, b - 1, half) : half;
    const fC = gap(c);
    if (fC >= 0) {
      [b, fB] = [c, fC];
      if (kept === 'lo') fLo /= 2;
      kept = 'lo';
    } else {
      [lo, fLo] = [c, fC];
      if (kept === 'b') fB /= 2;
      kept = 'b';
    }
  }
  return b;
}
