// The "decisions" table of `npm run bench` (issue 27 §6): seeded trials of one edit on the simulated noisy
// model (decision-trials.ts: 40 tasks, 20 held out, chances 0.3–0.8, default settings), for each true
// effect the keep rate and the mean engine calls per decision of whetstone's gate, of the same design
// with every attempt run, and of a loop that keeps when the held-out pass rate rose, side by side. The
// reference for the calls is the design with every attempt run.
import { CASES, ISSUE_SETUP, rates, type Rates } from './decision-trials.js';
import { TRIGGER_CASES, TRIGGER_SETUP, triggerRates, trueRates } from './trigger-trials.js';
import { driftTrials } from './drift-chains.js';

const pct = (r: Rates) => `${(r.keepRate * 100).toFixed(1)}%`;

export async function decisionRows(trials: number): Promise<string[]> {
  const out = [
    `| true effect (${trials} seeded runs each) | whetstone's gate: keeps · attempts per held-out task · calls | every attempt run: keeps · calls | kept when the held-out rate rose: keeps · calls | calls, whetstone ÷ every attempt |`,
    '|---|---|---|---|---|',
  ];
  for (const c of CASES) {
    const seed = 1 + CASES.indexOf(c) * 100_003;
    const w = await rates(ISSUE_SETUP, c, 'whetstone', trials, seed);
    const every = await rates(ISSUE_SETUP, c, 'every attempt', trials, seed);
    const rose = await rates(ISSUE_SETUP, c, 'kept when it rose', trials, seed);
    console.error(`  decisions, ${c.name}: keeps ${pct(w)} in ${w.meanAttempts.toFixed(2)} attempts`);
    out.push(`| ${c.name} | ${pct(w)} · ${w.meanAttempts.toFixed(2)} · ${w.meanCalls.toFixed(0)} | ${pct(every)} · ${every.meanCalls.toFixed(0)} | ${pct(rose)} · ${rose.meanCalls.toFixed(0)} | ${(w.meanCalls / every.meanCalls).toFixed(2)}× |`);
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
