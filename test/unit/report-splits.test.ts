// Train and held-out rates side by side in the report (the generator sees train failures only, the gate
// decides on held out): per split, each variant's rate with its counts and Wilson interval, in every format.
import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../src/report/model.js';
import { reportModel } from '../../src/report/model-schema.js';
import { renderHtml } from '../../src/report/render-html.js';
import { renderJunit } from '../../src/report/render-junit.js';
import { renderMarkdown } from '../../src/report/render-md.js';
import { evidenceItems } from '../../src/report/evidence.js';
import { ARTIFACT_SCHEMAS, jsonSchemaOf } from '../../src/report/schemas.js';
import { inputs, pipeline, result, standalone } from '../fixtures/report/artifacts.js';

const cand = [result('t1', 'x', 'pass', 'ok', 'train'), result('t2', 'x', 'pass', 'ok', 'train'), result('t3', 'x', 'fail', 'no', 'train'), result('h1', 'x', 'pass', 'ok', 'holdout'), result('h2', 'x', 'fail', 'no', 'holdout')];
const base = [result('t1', 'x', 'fail', 'no', 'train'), result('t2', 'x', 'pass', 'ok', 'train'), result('t3', 'x', 'fail', 'no', 'train'), result('h1', 'x', 'fail', 'no', 'holdout'), result('h2', 'x', 'fail', 'no', 'holdout')];

describe('report: train and held out side by side', () => {
  const m = buildReportModel(inputs({ evaluation: pipeline(cand, base) }));

  it('gives candidate and baseline rates per split, with counts and Wilson intervals', () => {
    expect(m.system.per_split.map((s) => s.split)).toEqual(['train', 'holdout']);
    const [train, holdout] = m.system.per_split;
    expect(train!.primary).toMatchObject({ passed: 2, judged: 3, pass_rate: 0.6667 });
    expect(train!.reference).toMatchObject({ passed: 1, judged: 3, pass_rate: 0.3333 });
    // wilson(1, 2) = [0.0945, 0.9055] (Wilson 1927, z = 1.96)
    expect(holdout!.primary).toMatchObject({ passed: 1, judged: 2, pass_rate_ci95: { low: 0.0945, high: 0.9055 } });
    expect(holdout!.reference).toMatchObject({ passed: 0, judged: 2, pass_rate: 0 });
    expect(holdout!.delta).toBe(0.5);
    expect(() => reportModel.parse(m)).not.toThrow();
  });

  it('prints them in markdown, HTML and JUnit', () => {
    const md = renderMarkdown(m);
    expect(md).toContain('### Per split (train and held out)');
    expect(md).toContain('| holdout | 0.5000 (1/2) [0.0945, 0.9055] | 0.0000 (0/2) [0.0000, 0.6576] | +0.5000 |');
    const html = renderHtml(m);
    expect(html).toContain('data-testid="split-row" data-split="holdout" data-rate="0.5000"');
    expect(evidenceItems(m)).toContain('split holdout: candidate 0.5000 (1/2) [0.0945, 0.9055]; baseline 0.0000 (0/2) [0.0000, 0.6576]');
    expect(renderJunit(m)).toContain('name="whetstone.split.holdout.pass_rate" value="0.0000 (0/2) 0.0000..0.6576"');
  });

  it('has no split rows when no task carries a split', () => {
    expect(buildReportModel(inputs({ evaluation: standalone([result('a', 'x', 'pass')]) })).system.per_split).toEqual([]);
  });
});

it('whet schemas exports per_split', () => {
  expect(JSON.stringify(jsonSchemaOf(ARTIFACT_SCHEMAS.find((a) => a.name === 'report')!))).toContain('"per_split"');
});
