// Per-task tallies built while results stream in. Only counts and the first reasons are kept, never the
// outputs, so memory stays flat however many tasks a suite has.
import type { Task } from '../config/suite-schema.js';
import type { ResultLine } from '../state/results-log.js';
import type { IntentMetricSet } from '../intents/metrics.js';
import { addIntentSets, emptyIntentSet } from '../intents/intent-metrics.js';
import type { StringPool } from '../core/strings.js';

export interface TaskTally {
  task_id: string;
  category: string;
  split?: 'train' | 'holdout';
  negative: boolean;
  critical: boolean;
  /** Attempts asked for (the task's pass-k). */
  k: number;
  judged: number;
  passes: number;
  errors: number;
  timeouts: number;
  bestScore: number;
  /** Why it failed (first failing attempt) or why it errored (last error). */
  reason: string;
  errorMessage?: string;
  /** should_trigger tasks: what was asked, and in how many judged attempts the skill was invoked. */
  shouldTrigger?: boolean;
  triggered?: number;
  /** tool_call tasks: the summed intent-metric contributions of its attempts (errored ones included). */
  intent?: IntentMetricSet;
  /** A task with nothing to grade it by: its attempts run (`ran` counts them) but are never judged. */
  unjudged?: boolean;
  ran?: number;
}

export interface UsageTotals {
  input_tokens: number;
  output_tokens: number;
  cost_usd: number;
  /** Whether any call reported a cost (a 0 total then means free, not unknown). */
  cost_reported: boolean;
}

export function newUsage(): UsageTotals {
  return { input_tokens: 0, output_tokens: 0, cost_usd: 0, cost_reported: false };
}

export function addUsage(total: UsageTotals, u: ResultLine['usage']): void {
  total.input_tokens += u.input_tokens ?? 0;
  total.output_tokens += u.output_tokens ?? 0;
  if (u.cost_usd !== undefined) {
    total.cost_usd += u.cost_usd;
    total.cost_reported = true;
  }
}

export function newTally(task: Task, k: number): TaskTally {
  return {
    task_id: task.id,
    category: task.category,
    split: task.split,
    negative: task.negative,
    critical: task.critical,
    k,
    judged: 0,
    passes: 0,
    errors: 0,
    timeouts: 0,
    bestScore: 0,
    reason: '',
    ...(task.shouldTrigger !== undefined ? { shouldTrigger: task.shouldTrigger, triggered: 0 } : {}),
    ...(task.unjudged ? { unjudged: true, ran: 0 } : {}),
  };
}

/**
 * What folding an attempt needs from its result line: never the output or the per-judge details, so a
 * resumed run holds a few numbers per attempt however large the logged outputs are.
 */
export type AttemptFacts = Pick<ResultLine, 'status' | 'score' | 'reason' | 'error' | 'usage' | 'judge_usage' | 'duration_ms' | 'skill_triggered' | 'intent'>;

/** The facts of a line, copied out so the line (and its output) can be collected. */
export function attemptFacts(line: ResultLine): AttemptFacts {
  const f: AttemptFacts = { status: line.status, score: line.score, reason: line.reason, usage: line.usage, duration_ms: line.duration_ms };
  if (line.error) f.error = line.error;
  if (line.judge_usage) f.judge_usage = line.judge_usage;
  if (line.skill_triggered !== undefined) f.skill_triggered = line.skill_triggered;
  if (line.intent) f.intent = line.intent;
  return f;
}

/**
 * Folds one attempt into its task's tally. `strings` is the run's pool: the reasons a tally keeps are the
 * same few texts across most tasks of a suite, and without it each task held its own copy to the end.
 */
export function foldResult(t: TaskTally, line: AttemptFacts, strings?: StringPool): void {
  const keep = (s: string) => (strings ? strings.intern(s) : s);
  if (line.intent) t.intent = addIntentSets(t.intent ?? emptyIntentSet(), line.intent);
  if (line.status === 'error') {
    t.errors++;
    if (line.error?.kind === 'timeout') t.timeouts++;
    t.errorMessage = keep(line.error ? `${line.error.kind}: ${line.error.message}` : line.reason);
    return;
  }
  if (line.status === 'unjudged') {
    t.ran = (t.ran ?? 0) + 1;
    if (!t.reason) t.reason = keep(line.reason);
    return;
  }
  t.judged++;
  if (t.triggered !== undefined && line.skill_triggered) t.triggered++;
  if (line.status === 'pass') t.passes++;
  else if (!t.reason) t.reason = keep(line.reason);
  if (line.score > t.bestScore) t.bestScore = line.score;
  if (line.status === 'pass' && !t.reason) t.reason = keep(line.reason);
}

/** pass (some attempt passed: pass@k), fail (judged, none passed) or error (no attempt could be judged). */
export function taskStatus(t: TaskTally): 'pass' | 'fail' | 'error' {
  if (t.judged === 0) return 'error';
  return t.passes > 0 ? 'pass' : 'fail';
}
