// Per-run budgets (pipeline.yaml `budgets:`): engine calls, cost, wall time. A run stops at a task
// boundary when one is reached — an attempt is only started while the budget allows it, so a budget of N
// calls makes exactly N — and is resumable once the budget is raised (what it used is read back from its
// results files, so a resume counts what was spent before).
import { readFileSync } from 'node:fs';
import { usedInRun } from './run-usage.js';
import { writeFileAtomicallySync } from '../core/atomic.js';
import { join } from 'node:path';
import { log as logger } from '../core/log.js';

export interface BudgetLimits {
  maxEngineCalls?: number;
  maxCostUsd?: number;
  maxWallTimeMs?: number;
}

export class Budget {
  private calls: number;
  private cost: number;
  exhausted: string | undefined;

  private readonly uncosted = new Set<string>();

  private readonly sessionStart: number;
  private readonly activeBefore: number;
  private readonly sessionKey: string;

  constructor(
    private readonly limits: BudgetLimits,
    /** What the run spent before this process; `activeMs` is the running time of its earlier sessions. */
    used: { calls: number; cost: number; activeMs?: number },
    private readonly now: () => number = Date.now,
    /** Where the one-time "cost budget cannot be enforced" warning goes (default: the diagnostic log). */
    private readonly warn: (line: string) => void = (line) => logger.warn(line),
    /** The run's active-time file (see activeTimeFile); absent: this session's time is not kept. */
    private readonly timeFile?: string,
  ) {
    this.calls = used.calls;
    this.cost = used.cost;
    this.activeBefore = used.activeMs ?? 0;
    this.sessionStart = now();
    this.sessionKey = `${new Date(this.sessionStart).toISOString()}#${process.pid}`;
  }

  /**
   * The budget of a run directory. Wall time counts only the time processes spent running it, not the
   * idle time between sessions: a run resumed a day later is not out of time before it starts.
   */
  static forRun(limits: BudgetLimits, runDir: string, now: () => number = Date.now, warn?: (line: string) => void): Budget {
    const file = activeTimeFile(runDir);
    return new Budget(limits, { ...usedInRun(runDir), activeMs: readActiveMs(file) }, now, warn, file);
  }

  /** Active time of the run so far: earlier sessions plus this one. */
  get activeMs(): number {
    return this.activeBefore + Math.max(0, this.now() - this.sessionStart);
  }

  /** Saves this session's running time, so a later session counts it (called at each call boundary). */
  private keepTime(): void {
    if (!this.timeFile || this.limits.maxWallTimeMs === undefined) return;
    const sessions = readSessions(this.timeFile);
    sessions[this.sessionKey] = Math.max(0, this.now() - this.sessionStart);
    writeFileAtomicallySync(this.timeFile, `${JSON.stringify({ sessions })}\n`);
  }

  /** Reserves one engine call; false (and `exhausted` says why) when a limit is reached. */
  tryStart(): boolean {
    const l = this.limits;
    if (l.maxEngineCalls !== undefined && this.calls >= l.maxEngineCalls) this.exhausted = `engine calls: ${this.calls} of max_engine_calls ${l.maxEngineCalls} used`;
    else if (l.maxCostUsd !== undefined && this.cost >= l.maxCostUsd) this.exhausted = `cost: $${this.cost.toFixed(4)} of max_cost_usd ${l.maxCostUsd} spent`;
    else if (l.maxWallTimeMs !== undefined && this.activeMs >= l.maxWallTimeMs) this.exhausted = `wall time: max_wall_time ${l.maxWallTimeMs} ms of active time reached`;
    else {
      this.calls++;
      this.keepTime();
      return true;
    }
    this.keepTime();
    return false;
  }

  /** Gives back a reservation whose call was never made (aborted while queued). */
  unstart(): void {
    if (this.calls > 0) this.calls--;
  }

  /**
   * Adds a finished call's cost. A call with no cost under a cost budget means the budget cannot see
   * this engine's spending: said once per engine, since silently ignoring max_cost_usd is the worse outcome.
   */
  record(costUsd: number | undefined, engineType?: string): void {
    if (costUsd) this.cost += costUsd;
    this.keepTime();
    if (costUsd === undefined && this.limits.maxCostUsd !== undefined && engineType !== undefined && !this.uncosted.has(engineType)) {
      this.uncosted.add(engineType);
      this.warn(`warning: the ${engineType} engine reported no cost for a call, so max_cost_usd (${this.limits.maxCostUsd}) cannot be enforced for it; give it a price table (price: {input_per_mtok, output_per_mtok})`);
    }
  }

  get used(): { calls: number; cost: number } {
    return { calls: this.calls, cost: this.cost };
  }

  static unlimited(limits: BudgetLimits): boolean {
    return limits.maxEngineCalls === undefined && limits.maxCostUsd === undefined && limits.maxWallTimeMs === undefined;
  }
}

/** Where a run keeps its sessions' running time (max_wall_time counts active time only). */
export function activeTimeFile(runDir: string): string {
  return join(runDir, 'active-time.json');
}

function readSessions(file: string): Record<string, number> {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8')) as { sessions?: Record<string, number> };
    return v.sessions && typeof v.sessions === 'object' ? v.sessions : {};
  } catch {
    return {};
  }
}

/** The summed running time of a run's sessions, as far as they recorded it. */
export function readActiveMs(file: string): number {
  return Object.values(readSessions(file)).reduce((a, b) => a + (typeof b === 'number' ? b : 0), 0);
}

