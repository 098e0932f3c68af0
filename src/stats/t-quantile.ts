// Student's t quantile by the Cornish–Fisher expansion about the normal quantile (Abramowitz & Stegun,
// "Handbook of Mathematical Functions", 26.7.5): error below 1e-3 from 5 degrees of freedom on, which is
// below the precision an interval over a few dozen tasks is reported with. Below 5 the exact closed forms
// for 1 and 2 degrees of freedom are used, and 3–4 take the expansion (error below 1e-2).
import { normalQuantile } from './normal.js';

export function tQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be in (0, 1), got ${p}`);
  if (!(df >= 1)) throw new RangeError(`df must be at least 1, got ${df}`);
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  const z = normalQuantile(p);
  const z2 = z * z;
  const g1 = (z * (z2 + 1)) / 4;
  const g2 = (z * ((5 * z2 + 16) * z2 + 3)) / 96;
  const g3 = (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / 384;
  const g4 = (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / 92160;
  return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4;
}
