// One attempt's line of a results log as runVariant builds it, and the attempts a results log already
// holds (what a resume does not run again). Kept apart from the run loop itself in run-variant.ts.
import type { Task } from '../config/suite-schema.js';
import type { JudgeResult } from '../judges/types.js';
import { attemptKey, readResults, type ResultLine } from '../state/results-log.js';
import { attemptFacts, type AttemptFacts, type TaskTally } from './aggregate.js';
import { addLineUsage, type RunUsage } from './run-usage.js';

/** The judged attempts of a results file, as facts keyed by attemptKey (src/state/results-log.ts). */
export async function resumedAttempts(file: string, tallies: Map<string, TaskTally>, spent?: RunUsage): Promise<Map<string, AttemptFacts>> {
  const done = new Map<string, AttemptFacts>();
  await readResults(file, (line) => {
    if (spent) addLineUsage(spent, line);
    const t = tallies.get(line.task_id);
    if (!t || line.attempt >= t.k) return;
    const key = attemptKey(line.task_id, line.attempt);
    if (line.status === 'error') done.delete(key);
    else done.set(key, attemptFacts(line));
  });
  return done;
}

export const cpuMsSince = (start: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(start);
  return Math.round((d.user + d.system) / 1000);
};

export const taskOfKey = (key: string) => key.slice(0, key.lastIndexOf('#'));

// An instant engine finishes many attempts within one millisecond, and formatting the time was ≈ 1 µs of
// each: the text of the last millisecond is kept. (An invalid Date never equals it, and throws as before.)
let isoMs = NaN;
let isoText = '';
const isoOf = (d: Date): string => {
  const ms = d.getTime();
  if (ms !== isoMs) {
    isoText = d.toISOString();
    isoMs = ms;
  }
  return isoText;
};

export function baseLine(task: Task, attempt: number, res: { output: string; usage: ResultLine['usage']; duration_ms: number }, now: () => Date): ResultLine {
  return {
    task_id: task.id,
    attempt,
    status: 'fail',
    score: 0,
    reason: '',
    judges: [],
    output: res.output,
    usage: res.usage,
    duration_ms: res.duration_ms,
    engine_calls: 1,
    finished_at: isoOf(now()),
  };
}

/**
 * `should_trigger` tasks: the agent must (or must not) invoke the skill. Only engines that load the skill
 * the way the agent does can tell (claude with mode: installed, codex with skill_delivery: installed); others make this an error, not a guess.
 */
export function triggerJudge(should: boolean, triggered: boolean | undefined): JudgeResult {
  if (triggered === undefined) {
    return { type: 'trigger' as JudgeResult['type'], passed: false, score: 0, reason: 'trigger unknown', error: 'this engine does not report whether the skill was triggered (use claude with mode: installed, or codex with skill_delivery: installed)' };
  }
  const passed = triggered === should;
  return { type: 'trigger' as JudgeResult['type'], passed, score: passed ? 1 : 0, reason: `skill ${triggered ? 'triggered' : 'not triggered'}; should ${should ? '' : 'not '}trigger` };
}
