// The numbers whet view shows, worded as the CLI words them (src/measure/print.ts): a rate to 4 decimals
// and its 95% interval to 2, "0.5000 [0.19, 0.81]"; a rate over nothing judged is "—", never a number.
// Plain script for the page, and loaded as it is by test/unit/view-format.test.ts, which holds it to the
// CLI's own functions on the same values.
'use strict';
(function (root) {
  const f4 = (x) => (x === null || x === undefined || !Number.isFinite(Number(x)) ? '—' : Number(x).toFixed(4));
  const interval = (c) => (c ? `[${Number(c.low).toFixed(2)}, ${Number(c.high).toFixed(2)}]` : '—');
  /** A stored rate ({pass_rate, pass_rate_ci95}): "0.5000 [0.19, 0.81]", the interval left out when there is none. */
  const rate = (r) => (!r ? '—' : r.pass_rate_ci95 && r.pass_rate !== null && r.pass_rate !== undefined ? `${f4(r.pass_rate)} ${interval(r.pass_rate_ci95)}` : f4(r.pass_rate));
  const signed = (x) => (x === null || x === undefined ? '—' : `${x >= 0 ? '+' : ''}${Number(x).toFixed(4)}`);
  root.whetFormat = { f4, interval, rate, signed };
})(typeof window !== 'undefined' ? window : globalThis);
