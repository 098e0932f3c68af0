// Intent gates: seed defaults, exact boundaries, n/a on empty denominators, kind spellings, overrides.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/core/errors.js';
import { canonicalKind, orderKinds } from '../../src/intents/kinds.js';
import type { Fraction, IntentMetricSet, IntentMetrics } from '../../src/intents/metrics.js';
import { evaluateGates, loadThresholds, SEED_THRESHOLDS } from '../../src/intents/thresholds.js';
import { tempDir } from '../support/temp.js';

const f = (n: number, d: number): Fraction => ({ n, d, rate: d === 0 ? null : n / d });
function set(over: Partial<IntentMetricSet> = {}): IntentMetricSet {
  const z = f(0, 0);
  return { cases: 0, errors: 0, selection: z, params: z, clarification: z, false_clarification: z, hallucination: z, overreach: z, refusal: z, ...over };
}
const status = (gates: ReturnType<typeof evaluateGates>) => Object.fromEntries(gates.map((g) => [g.name, g.status]));

describe('seed thresholds', () => {
  it('are the seed numbers', () => {
    expect(SEED_THRESHOLDS).toMatchObject({
      selection_min: 0.85,
      selection_min_by_kind: { direct: 0.9, synonyms: 0.9 },
      params_min: 0.9,
      clarification_min: 0.9,
      false_clarification_max: 0.1,
      hallucination_max: 0,
      overreach_max: 0,
      refusal_min: null,
      errors_max: 0,
    });
  });

  it('boundaries are inclusive and exact (9/10 ≥ 90%, 1/10 ≤ 10%, 17/20 ≥ 85%)', () => {
    const m: IntentMetrics = {
      overall: set({ selection: f(17, 20), params: f(9, 10), clarification: f(9, 10), false_clarification: f(1, 10), hallucination: f(0, 12), overreach: f(0, 2) }),
      by_kind: { direct: set({ selection: f(9, 10) }), '同义口语': set({ selection: f(8, 10) }) },
    };
    expect(status(evaluateGates(m, SEED_THRESHOLDS))).toEqual({
      selection: 'pass',
      'selection[direct]': 'pass',
      'selection[synonyms]': 'fail', // 同义口语 is the seed's name for synonyms
      params: 'pass',
      clarification: 'pass',
      false_clarification: 'pass',
      hallucination: 'pass',
      overreach: 'pass',
      errors: 'n/a',
    });
  });

  it('count gates on an empty denominator are n/a, never a pass', () => {
    const m: IntentMetrics = { overall: set({ cases: 4, errors: 1, selection: f(3, 3) }), by_kind: {} };
    const s = status(evaluateGates(m, SEED_THRESHOLDS));
    expect(s).toMatchObject({ hallucination: 'n/a', overreach: 'n/a', errors: 'fail' });
    expect(status(evaluateGates(m, { ...SEED_THRESHOLDS, errors_max: 1 }))['errors']).toBe('pass');
    expect(status(evaluateGates(m, { ...SEED_THRESHOLDS, errors_max: null }))).not.toHaveProperty('errors');
  });

  it('one short of a threshold fails; counts fail at 1', () => {
    const m: IntentMetrics = {
      overall: set({ selection: f(16, 19), params: f(8, 9), false_clarification: f(2, 19), hallucination: f(1, 15), overreach: f(1, 2) }),
      by_kind: {},
    };
    const s = status(evaluateGates(m, SEED_THRESHOLDS));
    expect(s).toMatchObject({ selection: 'fail', params: 'fail', false_clarification: 'fail', hallucination: 'fail', overreach: 'fail' });
    expect(s['clarification']).toBe('n/a');
    expect(s['selection[direct]']).toBe('n/a');
  });

  it('gate values show counts', () => {
    const m: IntentMetrics = { overall: set({ selection: f(15, 22), overreach: f(0, 2), hallucination: f(0, 20) }), by_kind: {} };
    const g = evaluateGates(m, SEED_THRESHOLDS);
    expect(g.find((x) => x.name === 'selection')).toMatchObject({ label: 'tool-selection accuracy (overall) ≥ 85%', value: '15/22 (68.2%)' });
    expect(g.find((x) => x.name === 'overreach')?.value).toBe('0 (of 2 must-refuse cases)');
  });
});

describe('threshold files', () => {
  const dir = tempDir('whet-intent-thr-');
  it('override the seed; null switches a gate off; the source is named with its hash', () => {
    writeFileSync(join(dir, 't.yaml'), 'selection_min: 0.7\nparams_min: null\nrefusal_min: 1\nselection_min_by_kind: {multi_turn: 0.5}\n');
    const t = loadThresholds('t.yaml', dir);
    expect(t).toMatchObject({ selection_min: 0.7, params_min: null, refusal_min: 1, clarification_min: 0.9, selection_min_by_kind: { multi_turn: 0.5 } });
    expect(t.source).toMatch(/^t\.yaml \(sha256:[0-9a-f]{12}\)$/);
    const names = evaluateGates({ overall: set(), by_kind: {} }, t).map((g) => g.name);
    expect(names).toContain('refusal');
    expect(names).not.toContain('params');
  });
  it('reject unknown keys and out-of-range rates with file:line:col', () => {
    writeFileSync(join(dir, 'bad.yaml'), 'selection_min: 0.8\nparam_min: 0.9\n');
    expect(() => loadThresholds('bad.yaml', dir)).toThrow(/bad\.yaml:2:1.*unknown key "param_min"/);
    writeFileSync(join(dir, 'bad2.yaml'), 'selection_min: 85\n');
    expect(() => loadThresholds('bad2.yaml', dir)).toThrow(ConfigError);
    expect(() => loadThresholds('bad2.yaml', dir)).toThrow(/bad2\.yaml:1:16 selection_min/);
  });
});

describe('kinds', () => {
  it('maps the seed’s and common spellings to the eight kinds', () => {
    expect(['直白', 'Synonyms', 'missing-params', '指代多轮', 'ambiguous', 'cross system', '多步复合', 'must-refuse'].map(canonicalKind)).toEqual([
      'direct',
      'synonyms',
      'missing_params',
      'multi_turn',
      'ambiguity',
      'cross_system',
      'multi_step',
      'must_refuse',
    ]);
    expect(canonicalKind('Custom Kind')).toBe('custom_kind');
  });
  it('orders kinds as the seed lists them, unknown ones last in order of appearance', () => {
    expect(orderKinds(['zeta', 'must_refuse', 'direct', 'alpha', 'ambiguity', 'direct'])).toEqual(['direct', 'ambiguity', 'must_refuse', 'zeta', 'alpha']);
  });
});
