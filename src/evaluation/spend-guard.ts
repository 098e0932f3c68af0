// Stop spending when the answer cannot change (issue 28): a run whose judge never returns a usable reply
// made 1,807 CLI calls over 207 s, every judgement failed, then exited 3. Two ways the answer is settled
// before the calls are made, each stopping the rest of the variant's attempts (left unrun, so `whet
// resume` or the same command again runs them once the cause is fixed):
//
// - The same failure on the first SAME_FAILURE_CALLS calls of a kind (engine, judge), with no success
//   among them. N = 3: one failure can be a transient (a dropped connection, a model's one malformed
//   reply, which the LLM judge already retries once inside its call); three alike in a row at the start
//   of a run, before any call of that kind succeeded, is a configuration fault (a wrong command or model,
//   an endpoint that refuses, a judge that never writes JSON) that the remaining calls would repeat. A
//   wrong stop costs one resume; a missed one costs the whole suite's calls. Only the first N calls are
//   looked at, so a run that has worked is never stopped by a later bad patch (the error share decides).
// - The errors already exceed evaluate.max_error_share of the suite's judged tasks (src/evaluation/
//   summary.ts tooManyErrors): a task all of whose attempts errored cannot be judged, so once such tasks
//   outnumber the share the verdict can only be `error`, whatever the rest would do.
import type { Task } from '../config/suite-schema.js';

/** How many first calls of a kind, all failing alike, stop the run's remaining calls of that kind. */
export const SAME_FAILURE_CALLS = 3;

export type CallKind = 'engine' | 'judge';

const FIX: Record<CallKind, string> = {
  engine:
    'fix the engine (engine: in pipeline.yaml: its command, model, endpoint or key; `whet doctor` checks it), then run the same command again (or `whet resume`) to run the remaining attempts',
  judge:
    'fix the judge (judge_engine: in pipeline.yaml, or the judge spec; an LLM judge must reply with the JSON verdict it is asked for), then run the same command again (or `whet resume`) to run the remaining attempts',
};

export class SpendGuard {
  private readonly firsts: Record<CallKind, string[]> = { engine: [], judge: [] };
  private readonly settled: Record<CallKind, boolean> = { engine: false, judge: false };
  private readonly erroredAttempts = new Map<string, number>();
  private erroredTasks = 0;
  private readonly gradedTasks: number;
  /** Why the remaining calls were stopped, with what to fix; undefined while spending can still decide. */
  stopped: string | undefined;

  /** `done`: the attempts already judged (resumed), which can no longer error. */
  constructor(
    tasks: readonly Task[],
    private readonly kOf: (t: Task) => number,
    private readonly maxErrorShare: number | undefined,
    done: (taskId: string) => number,
  ) {
    this.gradedTasks = tasks.filter((t) => !t.unjudged).length;
    // A task with a judged attempt already is not all-errors: it never counts toward the share.
    for (const t of tasks) if (done(t.id) > 0) this.erroredAttempts.set(t.id, -Infinity);
  }

  /** One call's outcome, in the order calls finish: `failure` undefined for a success. */
  call(kind: CallKind, failure: string | undefined): void {
    if (this.stopped || this.settled[kind]) return;
    if (failure === undefined) {
      this.settled[kind] = true;
      return;
    }
    const seen = this.firsts[kind];
    seen.push(failure);
    if (seen.length < SAME_FAILURE_CALLS) return;
    this.settled[kind] = true;
    const same = seen.every((f) => signature(f) === signature(seen[0]!));
    if (same) this.stopped = `stopped early: the ${kind} failed the same way on its first ${SAME_FAILURE_CALLS} calls (${oneLine(seen[0]!)}); ${FIX[kind]}`;
  }

  /** An attempt written as an error (`failure`, its reason): when all of a task's attempts errored, it cannot be judged. */
  attemptErrored(task: Task, kind: CallKind, failure: string): void {
    if (this.stopped || this.maxErrorShare === undefined || task.unjudged || this.gradedTasks === 0) return;
    const n = (this.erroredAttempts.get(task.id) ?? 0) + 1;
    this.erroredAttempts.set(task.id, n);
    if (n !== this.kOf(task)) return;
    this.erroredTasks++;
    if (this.erroredTasks / this.gradedTasks <= this.maxErrorShare) return;
    const pct = (x: number) => `${Number((x * 100).toFixed(1))}%`;
    this.stopped =
      `stopped early: ${this.erroredTasks} of ${this.gradedTasks} tasks errored (${pct(this.erroredTasks / this.gradedTasks)}), more than evaluate.max_error_share ${pct(this.maxErrorShare)} allows, so the verdict could only be error (last error: ${oneLine(failure)}); ` +
      FIX[kind];
  }
}

/** A failure's kind, not its particulars: numbers, quoted text and what follows a reply's quote vary per call. */
function signature(failure: string): string {
  return failure
    .replace(/(["'`]).*$/s, '')
    .replace(/\d+/g, '#')
    .trim()
    .slice(0, 120);
}

const oneLine = (s: string) => {
  const line = s.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};
