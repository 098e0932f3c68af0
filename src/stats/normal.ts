// The standard normal distribution: complementary error function, tail probabilities and quantiles.
//
// Everything here is written out rather than imported because the p-values and intervals we report must be
// trustworthy in the tails (p ~ 1e-10 is a normal McNemar result on a large suite), and a quick textbook
// approximation such as Abramowitz & Stegun 7.1.26 has only ~1e-7 absolute error, which is 100% relative
// error at that size. The methods below keep relative error below ~5e-15 across the range (checked against
// CPython's math.erfc, the C library's).

import { assertProbability } from './validate.js';

const SQRT_PI = Math.sqrt(Math.PI);

// erf(x) = 2x/sqrt(pi) * exp(-x^2) * sum_n (2x^2)^n / (1*3*...*(2n+1)). All terms are positive, so there is
// no cancellation; this is the lower incomplete gamma series P(1/2, x^2). Used only where erfc >= 0.08, so
// forming erfc = 1 - erf loses at most about one digit.
function erfSeries(x: number): number {
  const twoX2 = 2 * x * x;
  let term = 1;
  let sum = 1;
  for (let n = 1; n < 200; n++) {
    term *= twoX2 / (2 * n + 1);
    sum += term;
    if (term < sum * 1e-17) break;
  }
  return ((2 * x) / SQRT_PI) * expMinusSquare(x) * sum;
}

// exp(-x^2) without the error of rounding x^2 first: for x = 5 that rounding alone costs ~5e-15 relative,
// growing with x^2. Split x = hi + lo where hi has few bits, so hi^2 is exact (Cody's trick).
function expMinusSquare(x: number): number {
  const hi = Math.trunc(x * 16) / 16;
  const lo = x - hi;
  return Math.exp(-hi * hi) * Math.exp(-lo * (x + hi));
}

// erfc(x) = Q(1/2, x^2), the upper incomplete gamma ratio, by its continued fraction evaluated with the
// modified Lentz method (Numerical Recipes 6.2). It converges fast once x^2 > a + 1 = 1.5, which is exactly
// where the series above starts to lose digits to the subtraction.
function erfcContinuedFraction(x: number): number {
  const a = 0.5;
  const t = x * x;
  const tiny = 1e-300;
  let b = t + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return ((expMinusSquare(x) * x) / SQRT_PI) * h;
}

// Between √1.5 and 4 the continued fraction takes 11 to 63 steps, and the group-sequential boundaries
// (group-sequential.ts) call erfc there millions of times in a seeded trial. There erfc is read from a
// table at steps of 1/64, made once by the continued fraction, and carried to x by its Taylor series,
// whose derivatives are Hermite polynomials times e^(−x²): erfc^(m+1)(x) = −(2/√π)·(−1)^m·H_m(x)·e^(−x²).
// At |δ| ≤ 1/128 the terms fall by at least 2x|δ| ≤ 1/16 each, so the table's own accuracy is the result's.
const TABLE_FROM = Math.sqrt(1.5);
const TABLE_TO = 4;
const TABLE_STEP = 1 / 64;
let table: { erfc: Float64Array; gauss: Float64Array } | undefined;

function erfcTable(): { erfc: Float64Array; gauss: Float64Array } {
  const n = Math.ceil((TABLE_TO - TABLE_FROM) / TABLE_STEP) + 1;
  const t = { erfc: new Float64Array(n), gauss: new Float64Array(n) };
  for (let k = 0; k < n; k++) {
    const x0 = TABLE_FROM + k * TABLE_STEP;
    t.erfc[k] = erfcContinuedFraction(x0);
    t.gauss[k] = expMinusSquare(x0);
  }
  return t;
}

function erfcByTaylor(x: number): number {
  table ??= erfcTable();
  const k = Math.round((x - TABLE_FROM) / TABLE_STEP);
  const x0 = TABLE_FROM + k * TABLE_STEP;
  const d = x - x0;
  // Σ_m (−1)^m H_m(x0) δ^(m+1)/(m+1)!, with H_(m+1) = 2x·H_m − 2m·H_(m−1).
  let hPrev = 0;
  let h = 1;
  let pow = d;
  let sum = 0;
  let last = Infinity;
  for (let m = 0; m < 40; m++) {
    const term = (m % 2 === 0 ? h : -h) * pow;
    sum += term;
    // Two small terms in a row: one alone may be a root of H_m (H_3 vanishes at √1.5, the table's start).
    if (Math.max(Math.abs(term), Math.abs(last)) <= Math.abs(sum) * 1e-17) break;
    last = term;
    const next = 2 * x0 * h - 2 * m * hPrev;
    hPrev = h;
    h = next;
    pow *= d / (m + 2);
  }
  return table.erfc[k]! - (2 / SQRT_PI) * table.gauss[k]! * sum;
}

/**
 * Complementary error function erfc(x) = 1 - erf(x), accurate to ~5e-15 relative for x >= 0 (the side
 * that carries small tail probabilities) and to about 1e-16 absolute for x < 0.
 */
export function erfc(x: number): number {
  if (Number.isNaN(x)) return Number.NaN;
  if (x < 0) return 2 - erfc(-x);
  // erfc(27.3) < 5e-324, the smallest double; past it the fraction would see Infinity * 0.
  if (x >= 27.3) return 0;
  if (x * x < 1.5) return 1 - erfSeries(x);
  if (x <= TABLE_TO) return erfcByTaylor(x);
  return erfcContinuedFraction(x);
}

/** P(Z <= z) for a standard normal Z. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z * Math.SQRT1_2);
}

/** P(Z > z) for a standard normal Z; use this, not 1 - normalCdf(z), for upper-tail p-values. */
export function normalSurvival(z: number): number {
  return 0.5 * erfc(z * Math.SQRT1_2);
}

// Wichura's AS241 (PPND16) rational approximations, coefficients highest degree first. They are the same
// digits as CPython's statistics.NormalDist.inv_cdf and R's qnorm use; relative error about 1e-16.
const CENTRAL_NUM = [
  2.5090809287301226727e3, 3.3430575583588128105e4, 6.7265770927008700853e4, 4.5921953931549871457e4,
  1.3731693765509461125e4, 1.9715909503065514427e3, 1.3314166789178437745e2, 3.3871328727963666080e0,
];
const CENTRAL_DEN = [
  5.2264952788528545610e3, 2.8729085735721942674e4, 3.9307895800092710610e4, 2.1213794301586595867e4,
  5.3941960214247511077e3, 6.8718700749205790830e2, 4.2313330701600911252e1, 1.0,
];
const NEAR_NUM = [
  7.7454501427834140764e-4, 2.27238449892691845833e-2, 2.4178072517745061177e-1, 1.27045825245236838258e0,
  3.64784832476320460504e0, 5.7694972214606914055e0, 4.6303378461565452959e0, 1.42343711074968357734e0,
];
const NEAR_DEN = [
  1.05075007164441684324e-9, 5.475938084995344946e-4, 1.51986665636164571966e-2, 1.4810397642748007459e-1,
  6.8976733498510000455e-1, 1.6763848301838038494e0, 2.05319162663775882187e0, 1.0,
];
const FAR_NUM = [
  2.01033439929228813265e-7, 2.71155556874348757815e-5, 1.2426609473880784386e-3, 2.6532189526576123093e-2,
  2.9656057182850489123e-1, 1.7848265399172913358e0, 5.4637849111641143699e0, 6.6579046435011037772e0,
];
const FAR_DEN = [
  2.04426310338993978564e-15, 1.4215117583164458887e-7, 1.8463183175100546818e-5, 7.868691311456132591e-4,
  1.48753612908506148525e-2, 1.3692988092273580531e-1, 5.9983220655588793769e-1, 1.0,
];

function horner(coefficients: readonly number[], x: number): number {
  let acc = 0;
  for (const c of coefficients) acc = acc * x + c;
  return acc;
}

/**
 * The standard normal quantile: z with P(Z <= z) = p. normalQuantile(0) = -Infinity and
 * normalQuantile(1) = +Infinity; p outside [0, 1] or NaN throws a RangeError.
 */
export function normalQuantile(p: number): number {
  assertProbability('p', p);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * horner(CENTRAL_NUM, r)) / horner(CENTRAL_DEN, r);
  }
  // Work with the smaller tail probability directly, so p = 1e-300 keeps its digits.
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let z: number;
  if (r <= 5) {
    r -= 1.6;
    z = horner(NEAR_NUM, r) / horner(NEAR_DEN, r);
  } else {
    r -= 5;
    z = horner(FAR_NUM, r) / horner(FAR_DEN, r);
  }
  return q < 0 ? -z : z;
}
