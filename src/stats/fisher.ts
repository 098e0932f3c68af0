// Fisher's exact test, one-sided, for a 2×2 table of two rates (Fisher 1935; Agresti, "Categorical Data
// Analysis", 3rd ed., §3.5.1): conditional on both margins, the first group's successes are
// hypergeometric, so the p-value is exact whatever the rates. What a single task's attempts can say about
// that task alone, where a normal approximation over a handful of attempts would not hold.
import { assertCount } from './validate.js';

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1]! + Math.log(i));
  return logFactorials[n]!;
}

const logChoose = (n: number, k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k);

/**
 * P(X ≤ xa) for X the first group's successes given the margins: small when group a's rate (xa of na) is
 * lower than group b's (xb of nb) by more than chance. 1 when either group is empty.
 */
export function fisherLower(xa: number, na: number, xb: number, nb: number): number {
  for (const [name, v] of [['xa', xa], ['na', na], ['xb', xb], ['nb', nb]] as const) assertCount(name, v);
  if (xa > na || xb > nb) throw new RangeError('successes cannot exceed trials');
  if (na === 0 || nb === 0) return 1;
  const k = xa + xb;
  const n = na + nb;
  const lo = Math.max(0, k - nb);
  const denom = logChoose(n, k);
  let p = 0;
  for (let x = lo; x <= xa; x++) p += Math.exp(logChoose(na, x) + logChoose(nb, k - x) - denom);
  return Math.min(1, p);
}
