// Candidate against baseline task by task: McNemar's exact test on the tasks judged in both variants,
// with the names every artifact and report use (measures.ts: fixed, regressed).
import { mcnemarExact } from '../stats/index.js';
import { taskStatus, type TaskTally } from './aggregate.js';

export interface PairedComparison {
  /** Tasks judged in both variants; a task that errored in either is left out and counted. */
  tasks_compared: number;
  excluded_errors: number;
  both_pass: number;
  both_fail: number;
  /** c: failed on the baseline, passed on the candidate (McNemar's discordant pair; measures.ts names). */
  fixed: number;
  /** b: passed on the baseline, failed on the candidate. */
  regressed: number;
  p_value: number;
  method: 'exact McNemar (two-sided binomial on discordant pairs)';
  regressions: string[];
  fixes: string[];
}

export function pairedComparison(baseline: TaskTally[], candidate: TaskTally[]): PairedComparison {
  const base = new Map(baseline.map((t) => [t.task_id, taskStatus(t)]));
  let both_pass = 0;
  let both_fail = 0;
  let excluded = 0;
  const regressions: string[] = [];
  const fixes: string[] = [];
  for (const t of candidate) {
    const b = base.get(t.task_id);
    const c = taskStatus(t);
    if (b === undefined) continue;
    if (b === 'error' || c === 'error') {
      excluded++;
      continue;
    }
    if (b === 'pass' && c === 'pass') both_pass++;
    else if (b === 'fail' && c === 'fail') both_fail++;
    else if (b === 'pass') regressions.push(t.task_id);
    else fixes.push(t.task_id);
  }
  const test = mcnemarExact(regressions.length, fixes.length);
  return {
    tasks_compared: both_pass + both_fail + regressions.length + fixes.length,
    excluded_errors: excluded,
    both_pass,
    both_fail,
    fixed: fixes.length,
    regressed: regressions.length,
    p_value: Number(test.pValue.toPrecision(6)),
    method: 'exact McNemar (two-sided binomial on discordant pairs)',
    regressions,
    fixes,
  };
}
