// How a number is rounded for an artifact and signed for a line of text: one copy of each, so a rate in
// gate.json, a report and a summary line reads the same everywhere and no file keeps a private variant.

/** Four decimals: how rates, deltas and scores are stored. */
export const round4 = (x: number): number => Math.round(x * 10_000) / 10_000;

/** Six decimals, ±∞ kept: how the sequential test's looks record a statistic or a boundary. */
export const round6 = (x: number): number => (Number.isFinite(x) ? Math.round(x * 1e6) / 1e6 : x);

/** "+0.1234" / "-0.0500" (four decimals, as stored); "—" where there is no value. */
export const signed4 = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(4)}`);

/** "+0.12" / "−0.05" with a true minus: an effect in pass-rate points as a sentence says it. */
export const signedPoints = (x: number): string => `${x >= 0 ? '+' : '−'}${Math.abs(x).toFixed(2)}`;
