// Whether the loop goes on, decided by rules set in pipeline.yaml before the run (never by looking at
// how good the last result was). Checked in this order; the first that fires is named in stop.rule:
//
//  max_iterations  this iteration ≥ loop.max_iterations.
//  budget          the run so far has used at least a configured budget: engine calls (task, judge,
//                  generator and minibatch), cost in USD, or active wall time (the run's Budget
//                  counters). "At least", because another iteration would exceed it.
//  plateau         no `keep` in the last loop.plateau_window iterations (this one included); needs that
//                  many iterations. pending_review is not a keep: the target did not change.
//  oscillation     the candidate evaluated this iteration has the content the target had earlier in this
//                  run (at its start or at the start of an earlier iteration): the loop is proposing to
//                  go back, e.g. to undo a change it kept. Whatever the gate decided, going on would
//                  measure old ground again.
//  no_candidates   nothing was selected and the generator proposed nothing: the next iteration would
//                  start from the same target with the same lessons and propose nothing again.
export const STOP_RULES = ['max_iterations', 'budget', 'plateau', 'oscillation', 'no_candidates'] as const;
export type StopRule = (typeof STOP_RULES)[number];

export interface StopFacts {
  iteration: number;
  loop: { maxIterations: number; plateauWindow: number };
  budgets: { maxEngineCalls?: number | undefined; maxCostUsd?: number | undefined; maxWallTimeMs?: number | undefined };
  totals: { engine_calls: number; cost_usd: number; wall_ms: number };
  /** The gate's decision in each iteration so far (null when that iteration had no gate). */
  decisions: ReadonlyMap<number, string | null>;
  /** Content hash (readSkill contentHash) of the candidate evaluated this iteration, or null. */
  evaluatedContent: string | null;
  /** The target's content at the run's start (iteration 0) and at the start of each iteration. */
  targetHistory: readonly { iteration: number; sha256: string }[];
  selected: string | null;
  candidateCount: number;
}

export interface StopDecision {
  stop: boolean;
  rule: StopRule | null;
  reason: string;
}

function budgetExceeded(f: StopFacts): string[] {
  const b = f.budgets;
  const t = f.totals;
  const over: string[] = [];
  if (b.maxEngineCalls !== undefined && t.engine_calls >= b.maxEngineCalls) over.push(`${t.engine_calls} engine calls ≥ max_engine_calls ${b.maxEngineCalls}`);
  if (b.maxCostUsd !== undefined && t.cost_usd >= b.maxCostUsd) over.push(`cost $${t.cost_usd.toFixed(4)} ≥ max_cost_usd $${b.maxCostUsd}`);
  if (b.maxWallTimeMs !== undefined && t.wall_ms >= b.maxWallTimeMs) over.push(`wall time ${Math.round(t.wall_ms / 1000)}s ≥ max_wall_time ${Math.round(b.maxWallTimeMs / 1000)}s`);
  return over;
}

export function decideStop(f: StopFacts): StopDecision {
  const stop = (rule: StopRule, reason: string): StopDecision => ({ stop: true, rule, reason });
  if (f.iteration >= f.loop.maxIterations) return stop('max_iterations', `iteration ${f.iteration} reached loop.max_iterations ${f.loop.maxIterations}`);

  const over = budgetExceeded(f);
  if (over.length > 0) return stop('budget', `budget used up: ${over.join('; ')}`);

  const w = f.loop.plateauWindow;
  if (f.iteration >= w) {
    const window = Array.from({ length: w }, (_, i) => f.iteration - w + 1 + i);
    if (!window.some((it) => f.decisions.get(it) === 'keep')) {
      const seen = window.map((it) => `${it}: ${f.decisions.get(it) ?? 'nothing evaluated'}`).join(', ');
      return stop('plateau', `no candidate kept in the last ${w} iteration(s) (${seen}; loop.plateau_window ${w})`);
    }
  }

  if (f.evaluatedContent) {
    const current = f.targetHistory.find((h) => h.iteration === f.iteration)?.sha256;
    const earlier = f.targetHistory.find((h) => h.iteration < f.iteration && h.sha256 === f.evaluatedContent && h.sha256 !== current);
    if (earlier) {
      const when = earlier.iteration === 0 ? 'at the start of the run' : `at the start of iteration ${earlier.iteration}`;
      return stop('oscillation', `the candidate evaluated in iteration ${f.iteration} has the content the target had ${when}: the loop is going in circles`);
    }
  }

  if (f.selected === null && f.candidateCount === 0) return stop('no_candidates', 'the generator proposed nothing and nothing was selected; another iteration would start from the same place');

  const parts = [`iteration ${f.iteration} of ${f.loop.maxIterations}`, `${f.totals.engine_calls} engine call(s) so far`];
  return { stop: false, rule: null, reason: `no stop rule fired (${parts.join(', ')}): generate again` };
}
