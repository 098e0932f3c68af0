// Input checks shared by the statistics functions.
//
// The policy, used throughout src/stats: an argument that cannot be a valid input (a negative count, a
// fractional count, a probability outside [0, 1], NaN) throws a RangeError, because it is a bug in the
// caller and a number computed from it would look like evidence. A quantity that is simply undefined for
// valid inputs (a rate over zero runs, kappa when both raters never vary) is returned as NaN, so one
// empty category does not abort a whole report; the reporting layer prints NaN as "—".

/** A count of things: a finite, non-negative integer. */
export function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${String(value)}`);
  }
}

/** A probability or rate: a finite number in [0, 1]. */
export function assertProbability(name: string, value: number): void {
  if (!(value >= 0 && value <= 1)) {
    throw new RangeError(`${name} must be a number in [0, 1], got ${String(value)}`);
  }
}

/**
 * A confidence level or significance level: strictly inside (0, 1). The end points would give an
 * infinite or empty interval, which no caller means.
 */
export function assertOpenUnit(name: string, value: number): void {
  if (!(value > 0 && value < 1)) {
    throw new RangeError(`${name} must be a number strictly between 0 and 1, got ${String(value)}`);
  }
}

/** A finite real number (scores fed to the bootstrap). */
export function assertFinite(name: string, value: number): void {
  if (!Number.isFinite(value)) {
    throw new RangeError(`${name} must be a finite number, got ${String(value)}`);
  }
}
