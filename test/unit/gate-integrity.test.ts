// Every integrity check says what went wrong when it fails: a refusal's reason is built from these
// details, so a failed check must never read like a passed one.
import { describe, expect, it } from 'vitest';
import { integrityChecks, type IntegrityFacts } from '../../src/loop/integrity.js';
import { decide } from '../../stages/gate/decide.js';
import { THRESHOLD_DEFAULTS, thresholdsHash } from '../../src/config/thresholds.js';
import type { PipelineEvaluation } from '../../src/artifacts/evaluation.js';
import type { RankingArtifact } from '../../src/artifacts/ranking.js';

const h = (c: string) => `sha256:${c.repeat(64)}`;
const evaluation = { candidate_id: 'cand-01-x', verdict: 'pass', inputs: { 'ranking.json': h('a'), target: h('t'), candidate: h('v') } } as unknown as PipelineEvaluation;
const ranking = { inputs: { 'candidates.json': h('c') } } as unknown as RankingArtifact;
const good: IntegrityFacts = {
  evaluation,
  ranking,
  rankingSha: h('a'),
  candidatesSha: h('c'),
  cand: { id: 'cand-01-x' } as IntegrityFacts['cand'],
  variantHash: h('v'),
  targetNow: h('t'),
  alreadyApplied: false,
  registered: THRESHOLD_DEFAULTS,
  registeredSha: thresholdsHash(THRESHOLD_DEFAULTS),
  current: THRESHOLD_DEFAULTS,
};
const failing = (over: Partial<IntegrityFacts>) => integrityChecks({ ...good, ...over }).filter((c) => !c.passed);
const refusal = (over: Partial<IntegrityFacts>) => decide({ evaluation, thresholds: THRESHOLD_DEFAULTS, category: 'coverage', risk: 'low', integrity: integrityChecks({ ...good, ...over }) });

describe('gate integrity checks', () => {
  it('all pass on consistent facts', () => {
    expect(failing({})).toEqual([]);
  });

  it('ranking_unchanged fails with a failure message, and the refusal says so', () => {
    expect(failing({ rankingSha: h('b') })).toEqual([{ id: 'ranking_unchanged', passed: false, detail: expect.stringMatching(/^ranking\.json changed after the evaluation read it \(now sha256:bbb/) }]);
    const d = refusal({ rankingSha: h('b') });
    expect(d.decision).toBe('refused');
    expect(d.reason).not.toMatch(/is the one the evaluation read/);
  });

  it('candidates_unchanged fails with a failure message', () => {
    expect(failing({ candidatesSha: h('d') })).toEqual([{ id: 'candidates_unchanged', passed: false, detail: expect.stringMatching(/^candidates\.json changed after the ranking read it/) }]);
  });

  it('variant_unchanged fails when the variant was edited or is missing', () => {
    expect(failing({ variantHash: h('w') })).toEqual([{ id: 'variant_unchanged', passed: false, detail: expect.stringMatching(/^the variant on disk is not the one evaluated \(now sha256:www.*evaluated sha256:vvv/) }]);
    expect(failing({ variantHash: undefined })).toEqual([{ id: 'variant_unchanged', passed: false, detail: 'the variant of cand-01-x is missing from disk' }]);
  });

  it('candidate_known and target_unchanged fail with failure messages; an applied target is not refused', () => {
    expect(failing({ cand: undefined })).toEqual([{ id: 'candidate_known', passed: false, detail: 'candidate cand-01-x is not in candidates.json' }]);
    expect(failing({ targetNow: h('e') })).toEqual([{ id: 'target_unchanged', passed: false, detail: expect.stringMatching(/^the target was edited after it was evaluated/) }]);
    expect(failing({ targetNow: h('v'), alreadyApplied: true })).toEqual([]);
  });

  it('thresholds_registered fails showing the difference', () => {
    const current = { ...THRESHOLD_DEFAULTS, min_delta: 0.1 };
    expect(failing({ current })).toEqual([{ id: 'thresholds_registered', passed: false, detail: expect.stringContaining('min_delta: 0 (set before results) → 0.1 (pipeline.yaml now)') }]);
  });
});
