// When a held-out task that agreed with itself stops getting attempts (src/measure/rounds.ts SETTLE_AFTER),
// weighed against issue 38's bars on the half-extreme suite (docs/method.md: What it does on a noisy model): the
// same seeded runs as scripts/futility-trials.ts, decided with tasks that failed every attempt on both
// sides settling after 2, 3 or 4 attempts each. Whether a task settles depends only on its margins, so
// every row keeps a no-effect edit at the design's rate; what moves is the calls and the power — most on
// the half-extreme suite, whose tasks near 0 are where a +25-point edit shows (0.02 → 0.27). The setting
// is changed in this process only, each row restoring it, so what the gate ships is untouched.
//
// node dist/scripts/settle-trials.js [runs per case, default 400]
import { SETTLE_AFTER } from '../src/measure/rounds.js';
import { barCells } from './futility-trials.js';
import { startedAsProgram } from './loopback.js';

/** One row: all-fail ties settling after `allFail` attempts each, on the bench's seeds. */
export async function settleRow(allFail: number, runs: number): Promise<string> {
  const kept = { ...SETTLE_AFTER };
  SETTLE_AFTER.allFail = allFail;
  try {
    return `| after ${allFail} each${allFail === kept.allFail ? ' (shipped)' : ''} | ${await barCells(runs, 1)} |`;
  } finally {
    Object.assign(SETTLE_AFTER, kept);
  }
}

if (startedAsProgram(import.meta.url)) {
  const runs = Number(process.argv[2] ?? 400);
  console.log(`| a task that failed every attempt settles (${runs} runs each) | half extreme: no effect, calls | half extreme: +25 kept, calls | chances 0.3–0.8: +25 kept, calls · no effect, calls |\n|---|---|---|---|`);
  for (const f of [2, 3, 4]) console.log(await settleRow(f, runs));
}
