// What an auditor found missing from reports: each model-graded judge's corrected pass rate beside the
// raw one (and a mock-engine calibration marked as such), and judge metrics taken from what the evaluation
// recorded rather than from whatever the state directory holds now.
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../src/report/model.js';
import { reportModel } from '../../src/report/model-schema.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { ARTIFACT_SCHEMAS, jsonSchemaOf } from '../../src/report/schemas.js';
import { anchorCalibration, inputs, result, standalone } from '../fixtures/report/artifacts.js';

const cand = [result('t1', 'x', 'pass', 'ok', 'train'), result('t2', 'x', 'pass', 'ok', 'train'), result('t3', 'x', 'fail', 'no', 'train'), result('h1', 'x', 'pass', 'ok', 'holdout'), result('h2', 'x', 'fail', 'no', 'holdout')];

/** A judge_calibration entry as the evaluate stage records it, with the calibration it used copied in. */
function recorded(mock: boolean) {
  const a = anchorCalibration();
  const { judge, schema, kappa, gap, thresholds, thresholds_met, errors, ...rest } = a;
  void [schema, kappa, gap, thresholds, thresholds_met, errors];
  const engine = { type: mock ? 'mock' : 'anthropic', mock };
  return {
    judge: 'judges/q.yaml',
    spec_hash: (judge as { spec_hash: string }).spec_hash,
    tasks: ['h1', 'h2', 't1', 't2'],
    calibrated: true,
    thresholds_met: null,
    detail: 'calibrated on 80 labelled outputs',
    pass_sensitivity: 0.7,
    fail_specificity: 0.88,
    observed_pass_rate: 0.5,
    observed_passed: 2,
    observed_judged: 4,
    corrected_pass_rate: 0.7241,
    record: { ...rest, answer_key: { items: 80 }, engine },
  };
}

describe('report: judge metrics as the evaluation recorded them', () => {
  // The store was recalibrated after the run: other counts under the same spec hash.
  const later = { ...anchorCalibration(), counts: { tp: 10, tn: 10, fp: 0, fn: 0 }, tpr: 1, tnr: 1, accuracy: 1, precision: 1, created_at: '2026-12-01T00:00:00.000Z' };

  it('renders the recorded calibration, not the state directory’s current one', () => {
    const m = buildReportModel(inputs({ evaluation: standalone(cand, { judge_calibration: [recorded(false)] }), calibrations: [later] }));
    expect(m.judges.source).toBe('evaluation');
    expect(m.judges.calibrations).toHaveLength(1);
    expect(m.judges.calibrations[0]).toMatchObject({ judge: 'judges/q.yaml', tp: 44, tn: 21, fp: 9, fn: 6, tpr: 0.88, in_suite: true, engine_mock: false, created_at: '2026-11-01T10:00:00.000Z' });
    expect(m.judges.model_graded[0]).toMatchObject({ calibrated: true, observed_pass_rate: 0.5, observed: { count: 2, of: 4 }, corrected_pass_rate: 0.7241, engine_mock: false });
    expect(() => reportModel.parse(m)).not.toThrow();
  });

  it('falls back to the store only when the evaluation recorded none, and says so', () => {
    const m = buildReportModel(inputs({ evaluation: standalone(cand), calibrations: [later] }));
    expect(m.judges.source).toBe('state');
    expect(m.judges.source_note).toMatch(/recorded no judge calibration.*read at report time/);
    expect(m.judges.calibrations[0]).toMatchObject({ tp: 10 });
    expect(renderMarkdown(m)).toContain('read at report time');
  });

  it('shows the corrected rate beside the raw one in every format, and marks a mock-engine calibration', () => {
    const uncal = { judge: 'inline rubric', spec_hash: null, tasks: ['t3'], calibrated: false, thresholds_met: null, detail: 'inline rubrics cannot be calibrated' };
    const m = buildReportModel(inputs({ evaluation: standalone(cand, { judge_calibration: [recorded(true), uncal] }) }));
    const md = renderMarkdown(m);
    expect(md).toContain('| judges/q.yaml | 4 | yes (mock engine: not agreement with people) | 0.5000 (2/4) | 0.7241 |');
    expect(md).toContain('| inline rubric | 1 | no — inline rubrics cannot be calibrated | — | — |');
    expect(md).toContain('judges/q.yaml (mock engine)');
    expect(md).toMatch(/offline mock engine: these figures demonstrate the tool, they are not agreement with people/);
    const html = renderHtml(m);
    expect(html).toMatch(/data-testid="model-graded" data-judge="judges\/q.yaml" data-calibrated="true" data-mock="true">.*<td data-testid="corrected">0.7241</);
    expect(html).toContain('data-testid="mock-calibration"');
    const xml = renderJunit(m);
    expect(xml).toContain('name="whetstone.judge.judges/q.yaml.calibrated" value="yes (mock engine: not agreement with people)"');
    expect(xml).toContain('name="whetstone.judge.judges/q.yaml.corrected_pass_rate" value="0.7241"');
    expect(xml).toContain('name="whetstone.judge.inline rubric.calibrated" value="no"');
    const json = JSON.parse(JSON.stringify(reportModel.parse(m)));
    expect(json.judges.model_graded.map((g: { corrected_pass_rate: number | null }) => g.corrected_pass_rate)).toEqual([0.7241, null]);
  });
});

describe('whet schemas keeps in step', () => {
  it('exports the new report and evaluation fields', () => {
    const text = (name: string) => JSON.stringify(jsonSchemaOf(ARTIFACT_SCHEMAS.find((a) => a.name === name)!));
    for (const key of ['model_graded', 'source_note', 'engine_mock', 'corrected_pass_rate']) expect(text('report')).toContain(`"${key}"`);
    for (const key of ['observed_judged', 'record']) expect(text('evaluation')).toContain(`"${key}"`);
  });
});
