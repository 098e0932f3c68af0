// The futility bounds weighed against issue 38's two bars on the half-extreme suite (docs/method.md: What
// it does on a noisy model): the same seeded runs (scripts/decision-trials.ts) decided with the design's
// futility spending changed — β and its Hwang–Shih–DeCani γ — and, on the last row, the keep boundary's α
// spent late. The keep boundaries never depend on the futility bound (non-binding), so every row keeps a
// no-effect edit at the design's rate; what moves is the calls and the power. The design's constants are
// changed in this process only, each row restoring them, so what the gate ships is untouched.
//
// node dist/scripts/futility-trials.js [runs per case, default 400]
import { CASES, ISSUE_SETUP, rates } from './decision-trials.js';
import { DESIGN } from '../src/evaluation/sequential.js';
import { startedAsProgram } from './loopback.js';

export interface FutilityVariant {
  name: string;
  beta: number;
  gammaBeta: number;
  gammaAlpha: number;
}

export const VARIANTS: FutilityVariant[] = [
  { name: 'β = 0.3 spent early (γ = 4): the design', beta: 0.3, gammaBeta: 4, gammaAlpha: 2 },
  { name: 'β = 0.2 spent early (γ = 4): the design before the regression guard followed every task that may have fallen', beta: 0.2, gammaBeta: 4, gammaAlpha: 2 },
  { name: 'β = 0.6 (γ = 1)', beta: 0.6, gammaBeta: 1, gammaAlpha: 2 },
  { name: 'β = 0.2, the keep boundary\'s α spent late (γ = 0)', beta: 0.2, gammaBeta: 4, gammaAlpha: 0 },
  { name: 'β = 0.5 (γ = 1), α spent late (γ = 0)', beta: 0.5, gammaBeta: 1, gammaAlpha: 0 },
  { name: 'β = 0.6 (γ = 1), α spent late (γ = 0)', beta: 0.6, gammaBeta: 1, gammaAlpha: 0 },
];

/**
 * The cells of a row: the half-extreme suite's no-effect and +25 cases and the ordinary suite's +25 and
 * no-effect cases, on the bench's seeds, with the design as this process has it now.
 */
export async function barCells(runs: number, digits = 0): Promise<string> {
  const extreme = { ...ISSUE_SETUP, extreme: 0.5 };
  const none = await rates(extreme, CASES[0]!, 'whetstone', runs, 59);
  const plus = await rates(extreme, CASES[3]!, 'whetstone', runs, 61);
  const plusAll = await rates(ISSUE_SETUP, CASES[3]!, 'whetstone', runs, 53);
  const noneAll = await rates(ISSUE_SETUP, CASES[0]!, 'whetstone', runs, 101);
  const p = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `${none.meanCalls.toFixed(digits)} (kept ${p(none.keepRate)}) | ${p(plus.keepRate)}, ${plus.meanCalls.toFixed(0)} | ${p(plusAll.keepRate)}, ${plusAll.meanCalls.toFixed(0)} · ${noneAll.meanCalls.toFixed(0)} (kept ${p(noneAll.keepRate)})`;
}

/** One row: barCells with the futility spending of `v`. */
export async function futilityRow(v: FutilityVariant, runs: number): Promise<string> {
  const mutable = DESIGN as { -readonly [K in keyof typeof DESIGN]: (typeof DESIGN)[K] };
  const kept = { ...DESIGN };
  Object.assign(mutable, { beta: v.beta, gammaBeta: v.gammaBeta, gammaAlpha: v.gammaAlpha });
  try {
    return `| ${v.name} | ${await barCells(runs)} |`;
  } finally {
    Object.assign(mutable, kept);
  }
}

if (startedAsProgram(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 400);
  console.log(`| futility boundary (${runs} runs each) | half extreme: no effect, calls | half extreme: +25 kept, calls | chances 0.3–0.8: +25 kept, calls · no effect, calls |\n|---|---|---|---|`);
  for (const v of VARIANTS) console.log(await futilityRow(v, runs));
}
