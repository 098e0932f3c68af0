// The maximum error share (evaluate.max_error_share, registered in run.json): errored tasks are kept
// apart from failures, but a verdict resting on a fraction of the suite is no verdict. Shared by the
// evaluate stage's verdicts, the gate's re-check and the nightly report.

type Counts = { passed: number; failed: number; errors: number };

/**
 * Why a measurement rests on too little of its suite to carry a verdict: more tasks errored (engine or
 * judge) than `maxShare` allows. Errors stay out of the pass rate, but a rate over 70% of the suite is not
 * the suite's rate. Undefined when the share is within the limit.
 */
export function tooManyErrors(s: Counts, maxShare: number): string | undefined {
  const total = s.passed + s.failed + s.errors;
  if (total === 0 || s.errors / total <= maxShare) return undefined;
  const judged = s.passed + s.failed;
  const pct = (x: number) => `${Number((x * 100).toFixed(1))}%`;
  return `judged ${judged} of ${total} tasks (${pct(judged / total)}); ${s.errors} errored task(s) (engine or judge) exceed the maximum error share ${pct(maxShare)} (evaluate.max_error_share)`;
}

/** The error share recorded beside the verdict. */
export const errorShareOf = (s: Counts) => {
  const total = s.passed + s.failed + s.errors;
  return total === 0 ? 0 : Math.round((s.errors / total) * 10_000) / 10_000;
};
