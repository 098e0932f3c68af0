// The "decisions" table of `npm run bench` (issue 27 §6): seeded trials of one edit on the simulated noisy
// model (decision-trials.ts: 40 tasks, 20 held out, chances 0.3–0.8, default settings), for each true
// effect the keep rate and the mean engine calls per decision of whetstone's gate, of the same design
// with every attempt run, and of a loop that keeps when the held-out pass rate rose, side by side. The
// reference for the calls is the design with every attempt run.
import { CASES, ISSUE_SETUP, rates, type Rates } from './decision-trials.js';

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
