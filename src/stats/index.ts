// The statistics whetstone reports (docs/method.md: Reading the numbers): Wilson intervals for rates, exact McNemar
// for paired pass/fail, a paired cluster bootstrap for scores, unbiased pass@k, Holm for many comparisons,
// and judge-agreement helpers. Inputs that cannot be valid throw RangeError; undefined results are NaN.

export { erfc, normalCdf, normalSurvival, normalQuantile } from './normal.js';
export { binomialPmf, binomialCdf } from './binomial.js';
export { wilson, type RateInterval } from './wilson.js';
export { mcnemarExact, type McNemarExactResult } from './mcnemar.js';
export { passAtK, passHatK } from './pass-at-k.js';
export {
  pairedBootstrapCI,
  mulberry32,
  type BootstrapPair,
  type BootstrapOptions,
  type BootstrapResult,
} from './bootstrap.js';
export { holm, type HolmResult } from './holm.js';
export { cohenKappa, roganGladen } from './agreement.js';
