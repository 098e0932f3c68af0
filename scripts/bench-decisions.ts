// The "decisions" table of `npm run bench` (issue 27 §6): seeded trials of one edit on the simulated noisy
// model (decision-trials.ts: 40 tasks, 20 held out, chances 0.3–0.8, default settings), for each true
// effect the keep rate and the mean engine calls per decision of whetstone's gate, of the same design
// with every attempt run, and of a loop that keeps when the held-out pass rate rose, side by side. The
// reference for the calls is the design with every attempt run.
import { CASES, ISSUE_SETUP, rates, type Rates } from './decision-trials.js';
import { DRIFT_CASE, LOOP_CASES, POPULATION_CASE, deterministicRates, loopRates } from './run-trials.js';
import { TRIGGER_CASES, TRIGGER_SETUP, triggerRates, trueRates } from './trigger-trials.js';
import { driftTrials } from './drift-chains.js';
import { GUARD_CASES, guardRates } from './regression-trials.js';

const pct = (r: Rates) => `${(r.keepRate * 100).toFixed(1)}%`;
/** Engine calls spent per decision that was right (a keep of a real gain, a rejection of anything else). */
const perCorrect = (gain: boolean, r: Rates) => {
  const right = gain ? r.keepRate : 1 - r.keepRate;
  return right > 0 ? (r.meanCalls / right).toFixed(0) : '∞';
};
const share = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * The run-level table (issue 38, scripts/run-trials.ts): what a user reads at the end of a run — whole
 * loops of candidates, a model that changed since the cached baseline, per-task effects that average
 * zero, a deterministic engine that flips tasks both ways, and a suite whose half of the held-out tasks
 * nearly always pass or fail. `trials` runs per row (loops: a fifth as many, each of 5 or 10 decisions).
 */
export async function runLevelRows(trials: number): Promise<string[]> {
  const out = [`| case (default settings: max_attempts 10, max_iterations 5) | runs | kept (loops: ended with a false keep · ended better) | calls per run or decision | calls per correct decision |`, '|---|---|---|---|---|'];
  const loops = Math.max(4, Math.round(trials / 5));
  for (const c of LOOP_CASES) {
    const r = await loopRates(ISSUE_SETUP, c, loops, 31 + LOOP_CASES.indexOf(c) * 100_003);
    console.error(`  run level, ${c.name}: false keep ${share(r.falseKeep)}, better ${share(r.endsBetter)}`);
    out.push(`| loop: ${c.name} | ${loops} | ${share(r.falseKeep)} · ${share(r.endsBetter)} | ${r.calls.toFixed(0)} | — |`);
  }
  // The defect the per-candidate level prevents, on the same seeds: every candidate at the whole significance.
  const raw = await loopRates(ISSUE_SETUP, LOOP_CASES[0]!, loops, 31, true);
  out.push(`| loop: ${LOOP_CASES[0]!.name}, each candidate at the whole significance (no run-level correction) | ${loops} | ${share(raw.falseKeep)} · ${share(raw.endsBetter)} | ${raw.calls.toFixed(0)} | — |`);
  const single = (name: string, r: Rates, gain: boolean) => `| ${name} | ${r.trials} | ${pct(r)} | ${r.meanCalls.toFixed(0)} (${r.meanAttempts.toFixed(2)} attempts per held-out task) | ${perCorrect(gain, r)} |`;
  for (const d of ['whetstone', 'cached baseline'] as const) {
    const r = await rates(ISSUE_SETUP, DRIFT_CASE, d, trials, 41);
    out.push(single(`${DRIFT_CASE.name}${d === 'cached baseline' ? ' — gate fed the cached baseline (before issue 38)' : ''}`, r, false));
  }
  for (const m of [10, 30]) {
    const one = { ...ISSUE_SETUP, maxAttempts: m, maxIterations: 1 };
    out.push(single(`${POPULATION_CASE.name}, max_attempts ${m}, one candidate at 0.05`, await rates(one, POPULATION_CASE, 'whetstone', trials, 43 + m), false));
  }
  const det = await deterministicRates(ISSUE_SETUP, 0.05, trials, 47);
  out.push(`| deterministic engine, every edit flips 5% of tasks each way | ${trials} | ${share(det.keep)} (kept when the rate rose with no new failure: ${share(det.keptWhenRose)}) | 80 | — |`);
  const plus25 = CASES[3]!;
  out.push(single('+25 points on every task', await rates(ISSUE_SETUP, plus25, 'whetstone', trials, 53), true));
  const extreme = { ...ISSUE_SETUP, extreme: 0.5 };
  out.push(single('half the held-out tasks at 0.02 or 0.98, edit does nothing', await rates(extreme, CASES[0]!, 'whetstone', trials, 59), false));
  out.push(single('half the held-out tasks at 0.02 or 0.98, +25 points (clipped at 1)', await rates(extreme, plus25, 'whetstone', trials, 61), true));
  return out;
}

export async function decisionRows(trials: number): Promise<string[]> {
  const out = [
    `| true effect (${trials} seeded runs each) | whetstone's gate: keeps · attempts per held-out task · calls | every attempt run: keeps · calls | kept when the held-out rate rose: keeps · calls | calls, whetstone ÷ every attempt | whetstone's calls per correct decision |`,
    '|---|---|---|---|---|---|',
  ];
  for (const c of CASES) {
    const seed = 1 + CASES.indexOf(c) * 100_003;
    const w = await rates(ISSUE_SETUP, c, 'whetstone', trials, seed);
    const every = await rates(ISSUE_SETUP, c, 'every attempt', trials, seed);
    const rose = await rates(ISSUE_SETUP, c, 'kept when it rose', trials, seed);
    console.error(`  decisions, ${c.name}: keeps ${pct(w)} in ${w.meanAttempts.toFixed(2)} attempts`);
    out.push(`| ${c.name} | ${pct(w)} · ${w.meanAttempts.toFixed(2)} · ${w.meanCalls.toFixed(0)} | ${pct(every)} · ${every.meanCalls.toFixed(0)} | ${pct(rose)} · ${rose.meanCalls.toFixed(0)} | ${(w.meanCalls / every.meanCalls).toFixed(2)}× | ${perCorrect(c.heldOutEffect > 0, w)} |`);
  }
  return out;
}

/**
 * The trigger-suite table (scripts/trigger-trials.ts: 10 should-trigger and 10 should-not held-out queries,
 * the default bars 0.5 and 0.2): for each description edit, how often the gate keeps it (trigger checks on
 * every attempt, the false-trigger bar held to its bound clustered by query), how often the false-trigger
 * bound and the comparison with the baseline each failed, counting the first measurement's runs alone, and
 * on its gain test alone.
 */
export async function triggerRows(trials: number): Promise<string[]> {
  const out = [
    `| description edit (${trials} seeded runs each) | candidate's true trigger · false-trigger rate | keeps | false-trigger bound > 0.2 | more false triggers than the baseline | keeps, trigger checks on the first measurement | keeps on the held-out gain alone |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const c of TRIGGER_CASES) {
    const seed = 7 + TRIGGER_CASES.indexOf(c) * 100_003;
    const every = await triggerRates(TRIGGER_SETUP, c, 'every attempt', trials, seed);
    const first = await triggerRates(TRIGGER_SETUP, c, 'first measurement', trials, seed);
    const t = trueRates(c);
    const p = (x: number) => `${(x * 100).toFixed(1)}%`;
    console.error(`  trigger decisions, ${c.name}: keeps ${p(every.keepRate)}`);
    out.push(`| ${c.name} | ${t.trigger.toFixed(2)} · ${t.falseTrigger.toFixed(2)} | ${p(every.keepRate)} | ${p(every.failed.falseBar)} | ${p(every.failed.moreThanBaseline)} | ${p(first.keepRate)} | ${p(every.gainKeepRate)} |`);
  }
  return out;
}

/**
 * The drift table (scripts/drift-chains.ts: chains of six nights, 40 tasks, chances 0.3–0.8): the alert rate
 * of the sixth night when nothing changed and when every task's chance dropped, and the attempts it took —
 * the full count test/unit/nightly-noisy-drift.test.ts runs a smaller share of, on the same seeds.
 */
export async function driftRows(trials: number): Promise<string[]> {
  const out = [`| tonight (${trials} seeded chains of six nights each) | alert rate | attempts per task | alerts on every unchanged night |`, '|---|---|---|---|'];
  for (const [name, drop, seed] of [['nothing changed', 0, 27], ['every chance down 0.10', 0.1, 28], ['every chance down 0.25', 0.25, 29]] as const) {
    const r = await driftTrials(drop, seed, trials);
    console.error(`  drift, ${name}: alerts ${(r.rate * 100).toFixed(1)}%`);
    out.push(`| ${name} | ${(r.rate * 100).toFixed(1)}% | ${r.attempts.toFixed(2)} | ${r.nullAlerts}/${r.nullNights} |`);
  }
  return out;
}

/**
 * The regression guard's table (scripts/regression-trials.ts, issue 38 §5): how often it names a held-out
 * task that fell from 0.9 to 0.3 while the rest gained +10 points, how often the gate rejects, and where
 * no task fell what it names all the same (per run, and per unchanged task) — with the calls of the decision.
 */
export async function guardRows(trials: number): Promise<string[]> {
  const out = [`| edit (${trials} seeded runs each) | fallen task named | rejected (max_new_failures 0) | a task that did not fall named: per run · per task | attempts per held-out task · calls |`, '|---|---|---|---|---|'];
  for (const c of GUARD_CASES) {
    const r = await guardRates(c, trials, 1 + GUARD_CASES.indexOf(c));
    console.error(`  regression guard, ${c.name}: named ${share(r.reported)}, rejected ${share(r.rejected)}`);
    out.push(`| ${c.name} | ${c.fall ? share(r.reported) : '—'} | ${share(r.rejected)} | ${share(r.falseAlarm)} · ${share(r.perTaskFalseAlarm)} | ${r.meanAttempts.toFixed(2)} · ${r.meanCalls.toFixed(0)} |`);
  }
  return out;
}
