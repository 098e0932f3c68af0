// Per-run budgets (pipeline.yaml `budgets:`): engine calls, cost, wall time. A run stops at a task
// boundary when one is reached — an attempt is only started while the budget allows it, so a budget of N
// calls makes exactly N — and is resumable once the budget is raised (what it used is read back from its
// results files, so a resume counts what was spent before).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface BudgetLimits {
  maxEngineCalls?: number;
  maxCostUsd?: number;
  maxWallTimeMs?: number;
}

export class Budget {
  private calls: number;
  private cost: number;
  exhausted: string | undefined;

  constructor(
    private readonly limits: BudgetLimits,
    used: { calls: number; cost: number; startedAt: number },
    private readonly now: () => number = Date.now,
  ) {
    this.calls = used.calls;
    this.cost = used.cost;
    this.deadline = limits.maxWallTimeMs !== undefined ? used.startedAt + limits.maxWallTimeMs : undefined;
  }

  private readonly deadline: number | undefined;

  /** Reserves one engine call; false (and `exhausted` says why) when a limit is reached. */
  tryStart(): boolean {
    const l = this.limits;
    if (l.maxEngineCalls !== undefined && this.calls >= l.maxEngineCalls) this.exhausted = `engine calls: ${this.calls} of max_engine_calls ${l.maxEngineCalls} used`;
    else if (l.maxCostUsd !== undefined && this.cost >= l.maxCostUsd) this.exhausted = `cost: $${this.cost.toFixed(4)} of max_cost_usd ${l.maxCostUsd} spent`;
    else if (this.deadline !== undefined && this.now() >= this.deadline) this.exhausted = `wall time: max_wall_time ${l.maxWallTimeMs} ms reached`;
    else {
      this.calls++;
      return true;
    }
    return false;
  }

  record(costUsd: number | undefined): void {
    if (costUsd) this.cost += costUsd;
  }

  get used(): { calls: number; cost: number } {
    return { calls: this.calls, cost: this.cost };
  }

  static unlimited(limits: BudgetLimits): boolean {
    return limits.maxEngineCalls === undefined && limits.maxCostUsd === undefined && limits.maxWallTimeMs === undefined;
  }
}

/** Engine calls and cost already spent by a run: every line of its results files (superseded ones too: they were paid for). */
export function usedInRun(runDir: string): { calls: number; cost: number } {
  let calls = 0;
  let cost = 0;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.jsonl') && dir.endsWith('results')) {
        for (const line of readFileSync(p, 'utf8').split('\n')) {
          if (!line.trim()) continue;
          try {
            const l = JSON.parse(line) as { engine_calls?: number; usage?: { cost_usd?: number } };
            calls += l.engine_calls ?? 1;
            cost += l.usage?.cost_usd ?? 0;
          } catch {
            // a torn last line was not a finished call
          }
        }
      }
    }
  };
  if (existsSync(runDir)) walk(runDir);
  return { calls, cost };
}
