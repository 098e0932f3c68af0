// Whole simulated evaluations of the held-out split through the product's rounds (src/measure/guard-calls.ts
// simulatedEvaluations): what the plan's call figures are held against, on seeds the plan's own simulation
// never draws (it starts at 1, steps of 7919).
import type { SequentialSettings } from '../../src/evaluation/sequential.js';
import { simulatedEvaluations } from '../../src/measure/guard-calls.js';

/** Mean calls of `runs` evaluations (both variants' held-out attempts, the guard's rounds included) and of the guard's rounds alone. */
export async function simulatedCalls(chances: readonly number[], effect: number, runs: number, settings: SequentialSettings): Promise<{ all: number; guard: number }> {
  const r = await simulatedEvaluations(chances, settings, 1, effect, runs, 100_003, 131);
  return { all: r.reduce((a, x) => a + x.all, 0) / runs, guard: r.reduce((a, x) => a + x.guard, 0) / runs };
}
