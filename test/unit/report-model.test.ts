// The report model is a pure function of parsed artifacts: these tests pin what it computes — rates with
// counts and Wilson intervals, errors apart, the paired comparison, the top failure category, the eval
// set's shape, judge metrics under the declared positive class (docs/method.md's check of the arithmetic), thresholds set
// in advance, and the trend from nightly history — and that it always validates against its own schema.
import { describe, expect, it } from 'vitest';
import { buildReportModel, chooseIteration } from '../../src/report/model.js';
import { reportModel } from '../../src/report/model-schema.js';
import { calibrationView } from '../../src/report/model-judges.js';
import { anchorCalibration, historyLine, inputs, iteration, pipeline, result, standalone } from '../fixtures/report/artifacts.js';

const rows = [
  result('a1', 'alpha', 'pass', 'ok', 'train'),
  result('a2', 'alpha', 'fail', 'missing "X"', 'holdout'),
  result('a3', 'alpha', 'fail', 'missing "Y"', 'train'),
  result('b1', 'beta', 'pass', 'ok', 'holdout'),
  result('b2', 'beta', 'error', 'engine timed out after 60000 ms', 'train'),
  result('c1', 'gamma', 'pass', 'ok', 'train', { negative: true }),
];

describe('report model: system metrics', () => {
  const m = buildReportModel(inputs({ evaluation: standalone(rows), durations: { baseline: { a1: 120, a2: 80 } } }));

  it('counts errors apart from failures and gives Wilson intervals over judged tasks', () => {
    expect(m.system.primary).toMatchObject({ role: 'skill', id: 'demo-skill', summary: { total_tasks: 6, judged: 5, passed: 3, failed: 2, errors: 1, pass_rate: 0.6 } });
    // wilson(3, 5) = [0.2307, 0.8824] (the evaluate stage's own figure for 3/5)
    expect(m.system.primary!.summary.pass_rate_ci95).toEqual({ low: 0.2307, high: 0.8824 });
    expect(m.system.errors).toEqual([{ task_id: 'b2', role: 'skill', reason: 'engine timed out after 60000 ms' }]);
    expect(m.system.reference).toBeNull();
    expect(m.system.paired).toBeNull();
  });

  it('computes every category with its counts and names the category that fails most', () => {
    const alpha = m.system.per_category.find((c) => c.category === 'alpha')!;
    expect(alpha.primary).toMatchObject({ passed: 1, failed: 2, judged: 3, pass_rate: 0.3333 });
    const beta = m.system.per_category.find((c) => c.category === 'beta')!;
    expect(beta.primary).toMatchObject({ passed: 1, failed: 0, errors: 1, judged: 1, pass_rate: 1 });
    expect(m.system.top_failure_category).toEqual({ category: 'alpha', failed: 2, judged: 3, role: 'skill' });
  });

  it('keeps per-task outcomes with durations from the results log, and the verdict as a check with its evidence', () => {
    expect(m.tasks.find((t) => t.task_id === 'a1')?.primary).toEqual({ status: 'pass', score: 1, reason: 'ok', duration_ms: 120 });
    expect(m.tasks.find((t) => t.task_id === 'c1')?.negative).toBe(true);
    expect(m.verdict).toEqual({ verdict: 'pass', reason: 'pass rate 0.6000 ≥ 0.5', checks: [{ id: 'min_pass_rate', passed: true, detail: 'pass rate 0.6000 ≥ 0.5' }] });
    expect(m.thresholds).toMatchObject({ registered: false, values: { min_pass_rate: 0.5 } });
    expect(m.notes.some((n) => n.includes('mock'))).toBe(true);
    expect(() => reportModel.parse(m)).not.toThrow();
  });
});

describe('report model: candidate against baseline', () => {
  const cand = [result('t1', 'x', 'pass'), result('t2', 'x', 'pass'), result('t3', 'y', 'fail'), result('t4', 'y', 'pass'), result('t5', 'y', 'error')];
  const base = [result('t1', 'x', 'fail'), result('t2', 'x', 'pass'), result('t3', 'y', 'pass'), result('t4', 'y', 'fail'), result('t5', 'y', 'pass')];

  it('computes the paired comparison from the tasks when the artifact has none (exact McNemar)', () => {
    const m = buildReportModel(inputs({ evaluation: pipeline(cand, base) }));
    expect(m.system.paired).toMatchObject({ tasks_compared: 4, excluded_errors: 1, both_pass: 1, both_fail: 0, fixed: 2, regressed: 1, fixes: ['t1', 't4'], regressions: ['t3'] });
    // 1 vs 2 discordant pairs: p = 2 * P(X <= 1 | n = 3, 1/2) = 2 * 4/8 = 1
    expect(m.system.paired!.p_value).toBe(1);
    expect(m.tasks.map((t) => t.change)).toEqual(['fixed', 'same', 'regressed', 'fixed', 'error']);
    const x = m.system.per_category.find((c) => c.category === 'x')!;
    expect(x).toMatchObject({ primary: { pass_rate: 1 }, reference: { pass_rate: 0.5 }, delta: 0.5 });
    expect(m.system.primary).toMatchObject({ role: 'candidate', cached: false });
    expect(m.system.reference).toMatchObject({ role: 'baseline', cached: true });
  });

  it('prefers the paired figures the evaluate stage recorded', () => {
    const paired = { tasks_compared: 9, excluded_errors: 0, both_pass: 5, both_fail: 1, baseline_only: 1, candidate_only: 2, p_value: 0.25, method: 'exact McNemar', regressions: ['r'], fixes: ['f', 'g'] };
    const m = buildReportModel(inputs({ evaluation: pipeline(cand, base, { evaluation: { paired } }) }));
    expect(m.system.paired).toMatchObject({ tasks_compared: 9, fixed: 2, regressed: 1, p_value: 0.25, fixes: ['f', 'g'] });
  });

  it('names the baseline’s worst category when the candidate failed nothing', () => {
    const m = buildReportModel(inputs({ evaluation: pipeline([result('t1', 'x', 'pass')], [result('t1', 'x', 'fail')]) }));
    expect(m.system.top_failure_category).toEqual({ category: 'x', failed: 1, judged: 1, role: 'baseline' });
  });
});

describe('report model: judge metrics', () => {
  it('reproduces the method guide’s check of the arithmetic with the positive class named and the bias reading with counts', () => {
    const c = calibrationView(anchorCalibration(), [])!;
    expect(c).toMatchObject({ judge: 'release-notes-rubric', positive: 'FAIL', answer_key_items: 80, tp: 44, tn: 21, fp: 9, fn: 6, tpr: 0.88, tnr: 0.7, accuracy: 0.8125, precision: 0.8302 });
    expect(c.bias).toEqual({ reading: 'harsh', wrongly_failed: { count: 9, of: 30 }, wrongly_passed: { count: 6, of: 50 } });
  });

  it('derives what a flatter record leaves out, under either positive class', () => {
    const fail = calibrationView({ judge: 'j', positive: 'FAIL', tp: 44, tn: 21, fp: 9, fn: 6 }, [])!;
    expect(fail).toMatchObject({ tpr: 0.88, tnr: 0.7, accuracy: 0.8125, precision: 0.8302, bias: { reading: 'harsh', wrongly_failed: { count: 9, of: 30 } } });
    // The same judgements with PASS positive: TP↔TN, FP↔FN; the bias direction is about errors, so it stays harsh.
    const pass = calibrationView({ judge: 'j', positive: 'PASS', tp: 21, tn: 44, fp: 6, fn: 9, tpr: 0.7, tnr: 0.88 }, [])!;
    expect(pass).toMatchObject({ tpr: 0.7, tnr: 0.88, accuracy: 0.8125, precision: 0.7778, bias: { reading: 'harsh', wrongly_failed: { count: 9, of: 30 }, wrongly_passed: { count: 6, of: 50 } } });
    expect(calibrationView({ judge: 'no counts' }, [])).toBeUndefined();
  });

  it('marks the calibrations of judge specs this suite runs, and says when none is calibrated', () => {
    const hash = `sha256:${'b'.repeat(64)}`;
    const m = buildReportModel(inputs({ evaluation: standalone(rows), calibrations: [anchorCalibration(), anchorCalibration(hash)], suite: { path: 's', tasks: [], specHashes: [hash] } }));
    expect(m.judges.calibrated).toBe(true);
    expect(m.judges.calibrations.map((c) => c.in_suite)).toEqual([true, false]);
    expect(buildReportModel(inputs({ evaluation: standalone(rows) })).judges).toMatchObject({ calibrated: false, calibrations: [], source: 'state', model_graded: [] });
  });
});

describe('report model: eval set, thresholds, loop, trend', () => {
  const suite = {
    path: '/s/tasks.yaml',
    sha256: 'sha256:s',
    grid: { intent: ['write', 'review'], persona: ['dev', 'pm'] },
    tasks: [
      { id: 'a1', prompt: 'p1', category: 'alpha', cell: { intent: 'write', persona: 'dev' }, negative: false, judges: ['contains'] },
      { id: 'a2', prompt: 'p2', category: 'alpha', cell: { intent: 'write', persona: 'pm' }, negative: false, judges: ['contains', 'regex'] },
      { id: 'c1', prompt: 'p3', category: 'gamma', negative: true, judges: ['not_contains'] },
    ],
    specHashes: [],
  };
  const manifest = { run_id: 'run-1', mode: 'loop', status: 'completed', target: { skill_path: '/skills/demo/SKILL.md', skill_dir: '/skills/demo' }, suite: { path: '/s/tasks.yaml' }, thresholds: { min_delta: 0.05 }, thresholds_sha256: 'sha256:t' };
  const base = (p: number, f: number) => standalone([...Array(p)].map((_, i) => result(`p${i}`, 'alpha', 'pass')).concat([...Array(f)].map((_, i) => result(`f${i}`, 'alpha', 'fail'))));
  const its = [
    iteration(1, { baseline: base(3, 2), evaluation: pipeline([result('a1', 'alpha', 'pass')], [result('a1', 'alpha', 'fail')]), gate: { decision: 'keep', candidate_id: 'cand-01', reason: 'gain', checks: [{ id: 'holdout_gain', passed: true, detail: '+0.2' }] }, learning: { proposed_cases: { file: 'proposed-cases.yaml', count: 1 }, stop: { stop: false } }, proposedCases: { tasks: [{ id: 'a1-more-1', source: { task: 'a1' }, category: 'alpha', description: 'another like a1' }] } }),
    iteration(2, { baseline: base(4, 1), learning: { proposed_cases: { file: null, count: 0 }, stop: { stop: true, rule: 'plateau', reason: 'no gain' } } }),
  ];

  it('reads the shape of the declared grid, negative controls and judge families from the suite', () => {
    const m = buildReportModel(inputs({ manifest, iterations: its, suite }));
    expect(m.suite).toMatchObject({ source: 'suite', tasks: 3, negative_controls: 1, categories: [{ name: 'alpha', tasks: 2 }, { name: 'gamma', tasks: 1 }] });
    expect(m.suite.grid).toEqual({
      dimensions: [{ name: 'intent', values: ['write', 'review'] }, { name: 'persona', values: ['dev', 'pm'] }],
      cells_total: 4,
      cells_filled: 2,
      empty_cells: ['intent=review × persona=dev', 'intent=review × persona=pm'],
      tasks_without_cell: 1,
    });
    expect(m.suite.judge_types).toEqual([{ type: 'contains', tasks: 2 }, { type: 'not_contains', tasks: 1 }, { type: 'regex', tasks: 1 }]);
  });

  it('reports the newest iteration that evaluated a candidate, its gate, and the thresholds registered before results', () => {
    expect(chooseIteration(its)?.n).toBe(1);
    expect(chooseIteration(its, 2)?.n).toBe(2);
    const m = buildReportModel(inputs({ manifest, iterations: its, suite }));
    expect(m.run.iteration).toBe(1);
    expect(m.gate).toMatchObject({ iteration: 1, decision: 'keep', checks: [{ id: 'holdout_gain', passed: true }] });
    expect(m.thresholds).toEqual({ registered: true, sha256: 'sha256:t', values: { min_delta: 0.05 }, source: expect.stringContaining('before any result') });
    expect(m.loop.map((r) => [r.iteration, r.baseline?.pass_rate, r.decision, r.stop])).toEqual([[1, 0.6, 'keep', null], [2, 0.8, null, 'plateau: no gain']]);
    expect(m.proposed_cases).toEqual({ total: 1, by_iteration: [{ iteration: 1, file: 'proposed-cases.yaml', count: 1, cases: [{ id: 'a1-more-1', source_task: 'a1', category: 'alpha', description: 'another like a1' }] }, { iteration: 2, file: null, count: 0, cases: [] }] });
    expect(m.tasks.find((t) => t.task_id === 'a1')?.prompt).toBe('p1');
  });

  it('charts the baseline over iterations without nightly history, and the target’s nights when there are some', () => {
    const m = buildReportModel(inputs({ manifest, iterations: its }));
    expect(m.trend.source).toBe('iterations');
    expect(m.trend.points.map((p) => [p.label, p.pass_rate, p.pass_rate_ci95?.low])).toEqual([['iter 1', 0.6, 0.2307], ['iter 2', 0.8, 0.3755]]);
    const history = [historyLine('2026-11-02', '/skills/demo', 7, 3, true, 'pass rate fell'), historyLine('2026-11-01', '/skills/demo/SKILL.md', 8, 2), historyLine('2026-11-01', '/skills/other', 1, 9)];
    const n = buildReportModel(inputs({ manifest, iterations: its, history }));
    expect(n.trend.source).toBe('nightly');
    expect(n.trend.points.map((p) => [p.label, p.passed, p.judged, p.alert, p.note])).toEqual([['2026-11-01', 8, 10, false, 'no drift'], ['2026-11-02', 7, 10, true, 'pass rate fell']]);
  });

  it('makes a valid, empty report of a run that has measured nothing yet', () => {
    const m = buildReportModel(inputs({ manifest: { ...manifest, status: 'running' } }));
    expect(m.system).toMatchObject({ primary: null, reference: null, per_category: [], paired: null });
    expect(m.trend).toEqual({ source: 'none', points: [] });
    expect(m.suite.source).toBe('none');
    expect(() => reportModel.parse(m)).not.toThrow();
  });

  it('reports a loop iteration that evaluated nothing as the baseline alone, saying so', () => {
    const m = buildReportModel(inputs({ manifest, iterations: its, iteration: 2 }));
    expect(m.system.primary).toMatchObject({ role: 'baseline', summary: { passed: 4, failed: 1 } });
    expect(m.gate).toBeNull();
    expect(m.notes.some((n) => n.includes('iteration 2 evaluated no candidate'))).toBe(true);
    expect(m.proposed_cases.by_iteration.map((b) => b.iteration)).toEqual([1, 2]);
    expect(() => reportModel.parse(m)).not.toThrow();
  });

  it('reports the run’s outcome — the kept iteration — over a later rejected one, and says why', () => {
    const kept = its[0]!;
    const rejected = iteration(2, { baseline: base(4, 1), evaluation: pipeline([result('a1', 'alpha', 'pass')], [result('a1', 'alpha', 'pass')]), gate: { decision: 'reject', candidate_id: 'cand-02', reason: 'no gain', checks: [{ id: 'holdout_gain', passed: false, detail: '+0' }] } });
    const three = [kept, rejected, iteration(3, { baseline: base(4, 1) })];
    expect(chooseIteration(three)?.n).toBe(1);
    const m = buildReportModel(inputs({ manifest, iterations: three }));
    expect(m.gate).toMatchObject({ iteration: 1, decision: 'keep', candidate_id: 'cand-01' });
    expect(m.notes).toContain('reporting iteration 1 of 3: the newest iteration that kept a candidate (the run\'s outcome); --iteration N reports another');
    // With no keep, the newest evaluated iteration (the rejection), named as such.
    const noKeep = [iteration(1, { baseline: base(3, 2) }), rejected, iteration(3, { baseline: base(4, 1) })];
    expect(chooseIteration(noKeep)?.n).toBe(2);
    expect(buildReportModel(inputs({ manifest, iterations: noKeep })).notes.some((n) => n.includes('no iteration kept a candidate; the newest that evaluated one'))).toBe(true);
    expect(buildReportModel(inputs({ manifest, iterations: three, iteration: 2 })).gate).toMatchObject({ decision: 'reject' });
  });
});
