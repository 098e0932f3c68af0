import { describe, expect, it } from 'vitest';
import { decide, holdoutComparison, intentChecks } from '../../stages/gate/decide.js';
import { THRESHOLD_DEFAULTS, thresholdsDiff, thresholdsHash } from '../../src/config/thresholds.js';
import type { PipelineEvaluation } from '../../src/artifacts/evaluation.js';

type R = PipelineEvaluation['candidate_results'][number];
const res = (task_id: string, passed: boolean, split: 'train' | 'holdout', status?: R['status']): R => ({
  task_id,
  passed,
  score: passed ? 1 : 0,
  status: status ?? (passed ? 'pass' : 'fail'),
  category: task_id.split('-')[0]!,
  split,
  attempts: 1,
  passes: passed ? 1 : 0,
  errors: status === 'error' ? 1 : 0,
  reason: '',
});

function evaluation(cand: R[], base: R[], extra: Partial<PipelineEvaluation['evaluation']> = {}): PipelineEvaluation {
  const regressions = cand.filter((c) => !c.passed && base.find((b) => b.task_id === c.task_id)?.passed).map((c) => c.task_id);
  return {
    verdict: 'pass',
    reason: '',
    // The mock engine unless a test says otherwise: its sign test is shown, not enforced (issue 38).
    engine: { type: 'mock', identity: {}, mock: true },
    candidate_results: cand,
    baseline_results: base,
    evaluation: { execution_pass_rate: 0, baseline_pass_rate: 0, delta: 0, verdict: 'pass', paired: { regressions } as never, per_category: {}, ...extra },
  } as unknown as PipelineEvaluation;
}

const facts = (e: PipelineEvaluation, over: Partial<Parameters<typeof decide>[0]> = {}) => ({ evaluation: e, thresholds: THRESHOLD_DEFAULTS, category: 'coverage', risk: 'medium' as const, integrity: [], ...over });

describe('gate decision', () => {
  const base = [res('a-1', true, 'train'), res('b-1', false, 'train'), res('b-2', false, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];

  it('keeps a candidate with a held-out gain and no new failures', () => {
    const cand = [res('a-1', true, 'train'), res('b-1', true, 'train'), res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    const d = decide(facts(evaluation(cand, base)));
    expect(d.decision).toBe('keep');
    expect(d.holdout).toMatchObject({ tasks: 3, candidate_pass_rate: 0.6667, baseline_pass_rate: 0.3333, delta: 0.3333, fixes: ['b-2'], regressions: [] });
    expect(d.checks.every((c) => c.passed)).toBe(true);
  });

  it('holds a trigger suite’s candidate to its own bars on the held-out queries, whatever the pooled gain', () => {
    const cand = [res('a-1', true, 'train'), res('b-1', true, 'train'), res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    // Should-not queries q0…q9, three runs each; `hits[i]` of query i's runs triggered.
    const queries = (hits: number[]) => Array.from({ length: 10 }, (_, i) => ({ task_id: `q${i}`, should: false, triggered: hits[i] ?? 0, judged: 3 }));
    const trig = (t: number, s: number, hits: number[] | null) => {
      const f = (hits ?? []).reduce((a, b) => a + b, 0);
      const n = hits ? 30 : 0;
      return { trigger_rate: s ? t / s : null, triggered: t, should: s, false_trigger_rate: n ? f / n : null, false_triggered: f, should_not: n, ...(hits ? { queries: queries(hits) } : {}) };
    };
    const bars = { minTriggerRate: 0.5, maxFalseTriggerRate: 0.2 };
    const withTrigger = (h: ReturnType<typeof trig>, baseHits: number[] = []) => evaluation(cand, base, { candidate: { trigger: h, holdout_trigger: h }, baseline: { holdout_trigger: trig(0, 4, baseHits) } } as never);
    // The pooled held-out pass rate rose, but the held-out should-trigger queries mostly still miss.
    const low = decide(facts(withTrigger(trig(1, 4, [])), { trigger: bars }));
    expect(low.decision).toBe('reject');
    const byLow = Object.fromEntries(low.checks.map((c) => [c.id, c]));
    expect(byLow.min_trigger_rate).toMatchObject({ passed: false, detail: 'held-out trigger rate 0.2500 < 0.5 (1/4 should-trigger runs)' });
    // 0 of 30 runs over 10 queries: the bound is t²/(30 + t²), t the 95% quantile on 9 degrees of freedom.
    expect(byLow.max_false_trigger_rate).toMatchObject({ passed: true, detail: 'held-out false-trigger rate 0.0000, its 95% upper bound 0.1007 clustered by query ≤ 0.2 (10 should-not-trigger queries, 30 runs)' });
    expect(byLow.false_trigger_vs_baseline).toMatchObject({ passed: true });
    // Both bars met: kept.
    expect(decide(facts(withTrigger(trig(3, 4, [])), { trigger: bars })).decision).toBe('keep');
    // A measured rate of 0.10 is under the bar, but not its bound: all three false triggers on one query.
    const one = decide(facts(withTrigger(trig(3, 4, [3])), { trigger: bars }));
    expect(one.decision).toBe('reject');
    expect(one.checks.find((c) => c.id === 'max_false_trigger_rate')).toMatchObject({ passed: false, detail: expect.stringMatching(/^held-out false-trigger rate 0\.1000, its 95% upper bound 0\.[3-9]\d+ clustered by query > 0\.2/) });
    // Under a looser bar the bound passes, but 8 false triggers where the baseline had none is significantly more.
    const more = decide(facts(withTrigger(trig(3, 4, [1, 1, 1, 1, 1, 1, 1, 1])), { trigger: { ...bars, maxFalseTriggerRate: 0.5 } }));
    const byMore = Object.fromEntries(more.checks.map((c) => [c.id, c]));
    expect(byMore.max_false_trigger_rate?.passed).toBe(true);
    expect(byMore.false_trigger_vs_baseline).toMatchObject({ passed: false, detail: expect.stringMatching(/^false-triggers more than the baseline on 10 held-out should-not-trigger queries \(one-sided CMH p 0\.00\d+ < 0\.05\)/) });
    // No held-out negative at all: the false-trigger side is "—" and not ok.
    const none = decide(facts(withTrigger(trig(3, 4, null)), { trigger: bars }));
    expect(none.checks.find((c) => c.id === 'max_false_trigger_rate')).toMatchObject({ passed: false, detail: expect.stringMatching(/^held-out false-trigger rate — \(no held-out should-not-trigger query judged\)/) });
    // An evaluation.json with no per-query counts (written before they were recorded) cannot be bounded: not ok.
    const { queries: _q, ...old } = trig(3, 4, []);
    const unbounded = decide(facts(evaluation(cand, base, { candidate: { trigger: old, holdout_trigger: old } } as never), { trigger: bars }));
    expect(unbounded.checks.find((c) => c.id === 'max_false_trigger_rate')).toMatchObject({ passed: false, detail: expect.stringContaining('no per-query counts') });
    // A suite that is not a trigger suite gets no trigger check.
    expect(decide(facts(evaluation(cand, base), { trigger: bars })).checks.some((c) => c.id.includes('trigger'))).toBe(false);
  });

  it('passes no check over nothing: with 0 held-out tasks the rates are null, shown as —, and min_pass_rate is not ok', () => {
    const trainOnly = [res('a-1', true, 'train'), res('b-1', false, 'train')];
    const d = decide(facts(evaluation([res('a-1', true, 'train'), res('b-1', true, 'train')], trainOnly)));
    expect(d.decision).toBe('reject');
    expect(d.holdout).toMatchObject({ tasks: 0, candidate_pass_rate: null, baseline_pass_rate: null, delta: null });
    const by = Object.fromEntries(d.checks.map((c) => [c.id, c]));
    expect(by.holdout_present).toMatchObject({ passed: false, detail: '0 held-out task(s) measured on both' });
    expect(by.min_pass_rate).toEqual({ id: 'min_pass_rate', passed: false, detail: 'held-out pass rate — (not measured: no held-out task judged on both); needs ≥ 0' });
    expect(by.holdout_gain).toMatchObject({ passed: false, detail: expect.stringMatching(/^held-out delta — \(not measured/) });
    // Every held-out task errored on one side: judged on neither, so not measured either.
    const errored = decide(facts(evaluation([res('c-1', false, 'holdout', 'error')], [res('c-1', true, 'holdout')])));
    expect(errored.holdout).toMatchObject({ tasks: 1, candidate_pass_rate: null });
    expect(errored.checks.find((c) => c.id === 'min_pass_rate')?.passed).toBe(false);
  });

  it('rejects a train-only gain: the held-out split decides', () => {
    const cand = [res('a-1', true, 'train'), res('b-1', true, 'train'), res('b-2', false, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    const d = decide(facts(evaluation(cand, base)));
    expect(d.decision).toBe('reject');
    expect(d.reason).toMatch(/held-out delta \+0\.0000 .* needs > 0/);
  });

  it('rejects new failures beyond the registered maximum, naming them', () => {
    const cand = [res('a-1', false, 'train'), res('b-1', true, 'train'), res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    const d = decide(facts(evaluation(cand, base)));
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'new_failures')).toMatchObject({ passed: false, detail: expect.stringContaining('(a-1)') });
    const lenient = decide(facts(evaluation(cand, base), { thresholds: { ...THRESHOLD_DEFAULTS, max_new_failures: 1 } }));
    expect(lenient.decision).toBe('keep');
  });

  it('holds high-risk or review categories for a person', () => {
    const cand = [res('a-1', true, 'train'), res('b-1', true, 'train'), res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    expect(decide(facts(evaluation(cand, base), { risk: 'high' })).decision).toBe('pending_review');
    expect(decide(facts(evaluation(cand, base), { category: 'frontmatter', risk: 'low' })).decision).toBe('pending_review');
  });

  it('tests every keep on a deterministic engine: one-sided exact sign test at significance ÷ max_iterations (issue 38)', () => {
    // Six held-out tasks, all fixed: one-sided sign test p = 0.5^6 = 0.015625.
    const ids = ['h-1', 'h-2', 'h-3', 'h-4', 'h-5', 'h-6'];
    const real = (e: PipelineEvaluation) => ({ ...e, engine: { type: 'openai', identity: {}, mock: false } }) as PipelineEvaluation;
    const e = real(evaluation(ids.map((id) => res(id, true, 'holdout')), ids.map((id) => res(id, false, 'holdout'))));
    const alone = decide(facts(e));
    expect(alone.holdout?.p_value).toBe(0.015625);
    expect(alone.run_level).toEqual({ significance: 0.05, max_iterations: 1, per_candidate: 0.05, enforced: true });
    expect(alone.decision).toBe('keep');
    // One of at most five candidates of a run: tested at 0.01, where six fixed tasks are not enough.
    const ofFive = decide(facts(e, { maxIterations: 5 }));
    const sig = ofFive.checks.find((c) => c.id === 'significance')!;
    expect(sig.passed).toBe(false);
    expect(sig.detail).toBe('one-sided exact sign test on held-out tasks: 6 fixed, 0 regressed, p = 0.015625 > 0.01; run-level: each of at most 5 candidate(s) tested at 0.05/5 = 0.01, so a run keeps an edit that does nothing at most 0.05 of the time (at least 7 fixed held-out tasks with none regressed could pass)');
    expect(ofFive.decision).toBe('reject');
    // Without require_significance too: a real engine's keep is always tested; on the mock it is shown only.
    const base = [res('b-2', false, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    const cand = [res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    expect(decide(facts(real(evaluation(cand, base)))).decision).toBe('reject');
    const mock = decide(facts(evaluation(cand, base)));
    expect(mock.decision).toBe('keep');
    expect(mock.run_level?.enforced).toBe(false);
    expect(mock.checks.find((c) => c.id === 'significance')!.detail).toMatch(/informational: the mock engine demonstrates the pipeline/);
  });

  it('requires significance only when registered, and counts held-out errors against deciding', () => {
    const cand = [res('a-1', true, 'train'), res('b-1', true, 'train'), res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    const strict = decide(facts(evaluation(cand, base), { thresholds: { ...THRESHOLD_DEFAULTS, require_significance: true } }));
    expect(strict.decision).toBe('reject');
    expect(strict.checks.find((c) => c.id === 'significance')!.detail).toMatch(/1 fixed, 0 regressed, p = 0\.5 > 0\.05/);
    const errored = [...cand.slice(0, 4), res('d-1', false, 'holdout', 'error')];
    expect(decide(facts(evaluation(errored, base))).checks.find((c) => c.id === 'no_errors')).toMatchObject({ passed: false });
    expect(holdoutComparison(evaluation(errored, base))).toMatchObject({ tasks: 3, errors: 1 });
  });

  it('refuses when an integrity check failed, and rejects skipped evaluations', () => {
    const cand = [res('a-1', true, 'train')];
    const refused = decide(facts(evaluation(cand, base), { integrity: [{ id: 'target_unchanged', passed: false, detail: 'the target was edited after it was evaluated' }] }));
    expect(refused).toMatchObject({ decision: 'refused', reason: 'refused: the target was edited after it was evaluated' });
    const skipped = { ...evaluation(cand, base), verdict: 'skipped' as const, reason: 'score 5 < threshold 6' };
    expect(decide(facts(skipped)).decision).toBe('reject');
  });

  it('blocks or warns on uncalibrated model-graded judges as registered', () => {
    const cand = [res('a-1', true, 'train'), res('b-1', true, 'train'), res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
    const e = { ...evaluation(cand, base), judge_calibration: [{ judge: 'judges/q.yaml', spec_hash: null, tasks: ['b-2'], calibrated: false, thresholds_met: null, detail: 'no calibration' }] } as PipelineEvaluation;
    const warn = decide(facts(e));
    expect(warn.decision).toBe('keep');
    expect(warn.checks.find((c) => c.id === 'judges_calibrated')!.detail).toMatch(/no calibration \(warn: /);
    const block = decide(facts(e, { thresholds: { ...THRESHOLD_DEFAULTS, require_calibrated_judges: 'block' } }));
    expect(block.decision).toBe('reject');
  });

  const keepable = [res('a-1', true, 'train'), res('b-1', true, 'train'), res('b-2', true, 'holdout'), res('c-1', true, 'holdout'), res('d-1', false, 'holdout')];
  const withCal = (cal: Partial<NonNullable<PipelineEvaluation['judge_calibration']>[number]>) =>
    ({ ...evaluation(keepable, base), judge_calibration: [{ judge: 'judges/q.yaml', spec_hash: null, tasks: ['b-2'], calibrated: true, thresholds_met: true, detail: 'calibrated on 80 labelled outputs', ...cal }] }) as PipelineEvaluation;
  const block = { thresholds: { ...THRESHOLD_DEFAULTS, require_calibrated_judges: 'block' as const } };

  it('under block, rejects a judge calibrated but missing its thresholds', () => {
    const d = decide(facts(withCal({ thresholds_met: false, detail: 'thresholds missed' }), block));
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'judges_calibrated')).toMatchObject({ passed: false, detail: 'judges/q.yaml: thresholds missed' });
    expect(decide(facts(withCal({}), block)).decision).toBe('keep');
  });

  it('under block, a calibration with no thresholds is not calibrated within thresholds; under warn it only warns', () => {
    const e = withCal({ thresholds_met: null, detail: 'thresholds not set' });
    const d = decide(facts(e, block));
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'judges_calibrated')).toMatchObject({ passed: false, detail: 'judges/q.yaml: thresholds not set' });
    expect(decide(facts(e)).decision).toBe('keep');
  });

  it('rejects a category dropping more than the tolerance, naming it', () => {
    const e = evaluation(keepable, base, { per_category: { b: { delta: 0.5 }, c: { delta: -0.3 } } as never });
    const d = decide(facts(e));
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'category_tolerance')).toEqual({ id: 'category_tolerance', passed: false, detail: 'categories dropping more than 0.25: c -0.3000' });
    expect(decide(facts(e, { thresholds: { ...THRESHOLD_DEFAULTS, category_tolerance: 0.3 } })).decision).toBe('keep');
  });

  it('labels hallucinations as counts of call decisions', () => {
    const m = (n: number) => ({ overall: { overreach: { n: 0, d: 2 }, hallucination: { n, d: 9 }, selection: { n: 5, d: 5, rate: 1 } } });
    const e = { evaluation: { candidate: { intent_metrics: m(2) }, baseline: { intent_metrics: m(1) } } } as unknown as PipelineEvaluation;
    expect(intentChecks(e).find((c) => c.id === 'no_new_hallucination')).toEqual({ id: 'no_new_hallucination', passed: false, detail: 'hallucinations 2 of 9 call decisions vs baseline 1 of 9; must not grow' });
  });

  it('shows a threshold change as set-before versus now, and hashes thresholds canonically', () => {
    expect(thresholdsDiff(THRESHOLD_DEFAULTS, { ...THRESHOLD_DEFAULTS, min_delta: 0.1 })).toEqual(['min_delta: 0 (set before results) → 0.1 (pipeline.yaml now)']);
    expect(thresholdsHash({ ...THRESHOLD_DEFAULTS })).toBe(thresholdsHash(THRESHOLD_DEFAULTS));
    expect(thresholdsHash({ ...THRESHOLD_DEFAULTS, significance: 0.01 })).not.toBe(thresholdsHash(THRESHOLD_DEFAULTS));
  });
});
