// The regression guard over a held-out test's record, for the two stages that read it: the gate decides
// new failures with it (stages/gate/noisy.ts), and the evaluate stage asks it before paying for a kept
// candidate's train tasks (stages/evaluate/pipeline.ts). A candidate the held-out test keeps and the
// guard then rejects — an edit that helps most tasks and breaks one — would otherwise spend a call per
// train task on results nothing reads: train results feed what the run does next with a kept skill, and
// the gate will not keep it. One function, so both stages count the same regressions at the same level.
import type { SequentialRecord } from '../artifacts/evaluation.js';
import { regressionGuard, type RegressionGuard } from '../evaluation/regression-guard.js';
import type { TaskPair } from '../evaluation/sequential.js';

/** Every held-out task's attempts, the regression guard's rounds after the decision added in. */
export function withGuardRounds(seq: SequentialRecord): TaskPair[] {
  const extra = new Map((seq.guard?.tasks ?? []).map((t) => [t.task_id, t]));
  return seq.tasks.map((t) => {
    const e = extra.get(t.task_id);
    const add = (a: TaskPair['baseline'], b: TaskPair['baseline'] | undefined) => ({ passes: a.passes + (b?.passes ?? 0), judged: a.judged + (b?.judged ?? 0) });
    return e ? { task_id: t.task_id, candidate: add(t.candidate, e.candidate), baseline: add(t.baseline, e.baseline) } : t;
  });
}

/** The guard's finding on a record at `significance` (thresholds.significance), its followed tasks described. */
export function guardOfRecord(seq: SequentialRecord, significance: number): RegressionGuard {
  return regressionGuard(withGuardRounds(seq), significance, seq.guard ? { tasks: seq.guard.tasks.length, from: seq.attempts, to: seq.settings.max_attempts } : undefined);
}

/**
 * The held-out tasks the guard names on a record the held-out test kept, when they are more than
 * `max_new_failures`: the gate will reject that keep. Empty when the keep stands or there was none.
 */
export function keepUndoneBy(seq: SequentialRecord, t: { significance: number; max_new_failures: number }): RegressionGuard['regressions'] {
  if (seq.decision !== 'keep') return [];
  const named = guardOfRecord(seq, t.significance).regressions;
  return named.length > t.max_new_failures ? named : [];
}
