// What the regression guard's rounds cost as a suite grows, and what they buy (docs/method.md: Regressions
// with stated power). For an edit that does nothing, on suites of 20, 60 and 300 held-out tasks at ½ each:
// the calls of the test's own rounds and of the guard's, and the unchanged tasks the guard names as worse
// over every attempt and over the test's attempts alone. Then, with the chance a task must have of being
// flagged before it is followed after a stop (FOLLOW_CHANCE.stop) changed in this process only, issue 38's
// fallen-task case (scripts/regression-trials.ts) beside the guard's calls on 300 tasks: what a cheaper
// follow rule would cost in naming a real fall. What the gate ships is untouched.
//
// node dist/scripts/guard-scale-trials.js [runs per row, default 100]
import { FOLLOW_CHANCE, regressionGuard } from '../src/evaluation/regression-guard.js';
import type { SequentialSettings } from '../src/evaluation/sequential.js';
import { guardOfRecord } from '../src/measure/guard-verdict.js';
import { simulatedGuardAttempts, simulatedRound, tally } from '../src/measure/guard-calls.js';
import { sequentialRecord } from '../src/measure/held-out-rounds.js';
import { runRounds } from '../src/measure/rounds.js';
import { mulberry32 } from '../src/stats/index.js';
import { ISSUE_SETUP, settingsOf } from './decision-trials.js';
import { startedAsProgram } from './loopback.js';
import { GUARD_CASES, guardRates } from './regression-trials.js';

export interface ScaleRow {
  heldOut: number;
  runs: number;
  lookCalls: number;
  guardCalls: number;
  /** Unchanged tasks named per run, over every attempt (the gate's finding) and over the test's attempts alone. */
  named: number;
  namedWithoutRounds: number;
}

/** A no-effect edit on `heldOut` tasks at ½, `runs` seeded runs through the product's rounds and guard. */
export async function scaleRow(heldOut: number, runs: number, settings: SequentialSettings = settingsOf(ISSUE_SETUP)): Promise<ScaleRow> {
  const ids = Array.from({ length: heldOut }, (_, i) => `t${i}`);
  const alpha = settings.run?.significance ?? settings.significance;
  let looks = 0;
  let guard = 0;
  let named = 0;
  let without = 0;
  for (let k = 0; k < runs; k++) {
    const rnd = mulberry32(555 + k * 131);
    const coin = (p: number) => (rnd() < p ? 1 : 0);
    const baseline = ids.map((id) => tally(id, 'holdout', 1, coin(0.5)));
    const candidate = ids.map((id) => tally(id, 'holdout', 1, coin(0.5)));
    const o = await runRounds({ settings, firstAttempts: 1, baseline, candidate, measure: async (_round, open, _purpose, side) => simulatedRound(open, side, { baseline: () => 0.5, candidate: () => 0.5 }, coin) });
    looks += 2 * heldOut + o.engineCalls - o.guard.engineCalls;
    guard += o.guard.engineCalls;
    named += guardOfRecord(sequentialRecord(o, settings, 1, 1, { withPlan: false }), alpha).regressions.length;
    without += regressionGuard(o.pairs, alpha).regressions.length;
  }
  return { heldOut, runs, lookCalls: looks / runs, guardCalls: guard / runs, named: named / runs, namedWithoutRounds: without / runs };
}

export interface FollowRow {
  stop: number;
  /** Issue 38's case: the fallen task named, the candidate rejected (ISSUE_SETUP, 20 held-out tasks). */
  reported: number;
  rejected: number;
  /** The guard's calls for a no-effect edit on 300 held-out tasks at ½ (20 simulated candidates). */
  guardCalls300: number;
}

/** The fallen-task case and the 300-task guard cost with FOLLOW_CHANCE.stop at `stop`, restored after. */
export async function followRow(stop: number, runs: number): Promise<FollowRow> {
  const shipped = FOLLOW_CHANCE.stop;
  FOLLOW_CHANCE.stop = stop;
  try {
    const r = await guardRates(GUARD_CASES[0]!, runs, 1, ISSUE_SETUP);
    const g = await simulatedGuardAttempts(Array<number>(300).fill(0.5), settingsOf(ISSUE_SETUP), 1, 0, 20);
    return { stop, reported: r.reported, rejected: r.rejected, guardCalls300: g.mean };
  } finally {
    FOLLOW_CHANCE.stop = shipped;
  }
}

if (startedAsProgram(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 100);
  console.log("| held-out tasks at ½, no effect | the test's own calls | the guard's calls | unchanged tasks named per run | without the guard's rounds |");
  console.log('|---|---|---|---|---|');
  for (const h of [20, 60, 300]) {
    const r = await scaleRow(h, h >= 300 ? Math.max(10, Math.round(runs / 3)) : runs);
    console.log(`| ${h} (${r.runs} runs) | ${r.lookCalls.toFixed(0)} | ${r.guardCalls.toFixed(0)} | ${r.named.toFixed(2)} | ${r.namedWithoutRounds.toFixed(2)} |`);
  }
  console.log('');
  console.log('| FOLLOW_CHANCE.stop | fallen task named | rejected | guard calls, 300 tasks at ½, no effect |');
  console.log('|---|---|---|---|');
  for (const stop of [FOLLOW_CHANCE.stop, 0.15, 0.25]) {
    const r = await followRow(stop, runs * 4);
    console.log(`| ${stop} | ${(r.reported * 100).toFixed(1)}% | ${(r.rejected * 100).toFixed(1)}% | ${r.guardCalls300.toFixed(0)} |`);
  }
}
