// One vocabulary (issue 32): a pass rate, a task's outcome and a paired comparison have one schema each,
// used by the evaluation artifact, the nightly records and the report model; files written under the
// older names still read, and come back in today's.
import { describe, expect, it } from 'vitest';
import { pairedComparison, passRate, taskStatus } from '../../src/state/measures.js';
import { pipelineEvaluation, rateSummary, taskResult } from '../../src/artifacts/evaluation.js';
import { rate, reportModel } from '../../src/report/model-schema.js';
import { historySummary, nightTask } from '../../src/nightly/schema.js';

const paired = { tasks_compared: 9, excluded_errors: 0, both_pass: 5, both_fail: 1, p_value: 0.25, method: 'exact McNemar', regressions: ['r'], fixes: ['f', 'g'] };

describe('one vocabulary of measures', () => {
  it('reads a paired comparison under either generation of names and gives today’s', () => {
    expect(pairedComparison.parse({ ...paired, fixed: 2, regressed: 1 })).toMatchObject({ fixed: 2, regressed: 1 });
    const old = pairedComparison.parse({ ...paired, candidate_only: 2, baseline_only: 1 });
    expect(old).toMatchObject({ fixed: 2, regressed: 1 });
    expect(old).not.toHaveProperty('candidate_only');
    expect(pairedComparison.safeParse({ ...paired }).success).toBe(false);
  });

  it('is the same schema object in the artifact, the report model and the nightly records', () => {
    expect(rateSummary).toBe(passRate);
    expect(taskResult.shape.status).toBe(taskStatus);
    expect(nightTask.shape.status).toBe(taskStatus);
    // The report's rate is the artifact's, less timeouts, plus the judged count it shows.
    expect(Object.keys(rate.shape).sort()).toEqual([...Object.keys(passRate.shape).filter((k) => k !== 'timeouts'), 'judged'].sort());
    expect(Object.keys(historySummary.shape)).toContain('pass_rate_ci95');
    expect(Object.keys(historySummary.shape)).not.toContain('ci95');
    const reportPaired = reportModel.shape.system.shape.paired.unwrap();
    const artifactPaired = pipelineEvaluation.shape.evaluation.shape.paired.unwrap();
    expect(Object.keys(reportPaired.shape).sort()).toEqual(Object.keys((artifactPaired as unknown as { out: { shape: object } }).out.shape).sort());
  });
});
