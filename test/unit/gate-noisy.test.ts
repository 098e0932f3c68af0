// The gate on a noisy engine (issue 27): it decides on the rounds the evaluation recorded, replayed from
// their counts, and refuses them as evidence when they do not recompute — an edited decision, boundary or
// count, or settings other than the registered ones — so a hand-edited evaluation.json cannot keep a
// candidate. Thresholds registered before min_effect existed still resume.
import { describe, expect, it } from 'vitest';
import { evaluationOf, tally } from '../../scripts/decision-trials.js';
import { decide } from '../../stages/gate/decide.js';
import { runRounds } from '../../src/measure/rounds.js';
import { sequentialRecord } from '../../src/measure/held-out-rounds.js';
import { THRESHOLD_DEFAULTS, registeredThresholds, thresholdsDiff, thresholdsHash } from '../../src/config/thresholds.js';

const s = { significance: 0.05, minEffect: 0.1, maxAttempts: 10 };

/** A clear gain: every held-out task passes 4 of 4 on the candidate and 1 of 4 on the baseline. */
async function kept() {
  const ids = Array.from({ length: 12 }, (_, i) => `h${i}`);
  const base = ids.map((id) => tally(id, 'holdout', 1, 0));
  const cand = ids.map((id) => tally(id, 'holdout', 1, 1));
  let round = 1;
  const o = await runRounds({
    settings: s,
    firstAttempts: 1,
    baseline: base,
    candidate: cand,
    measure: async () => {
      round++;
      return { baseline: ids.map((id) => tally(id, 'holdout', 1, round === 2 ? 1 : 0)), candidate: ids.map((id) => tally(id, 'holdout', 1, 1)), engineCalls: 24, judgeCalls: 0 };
    },
  });
  return { base, cand, record: sequentialRecord(o, s, 1, 1) };
}

const gate = (e: ReturnType<typeof evaluationOf>, thresholds = THRESHOLD_DEFAULTS) => decide({ evaluation: e, thresholds, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1 });

describe('the gate on a noisy engine', () => {
  it('keeps on a sequential test that decided keep, and says so with the effect and the rounds', async () => {
    const { base, cand, record } = await kept();
    expect(record.decision).toBe('keep');
    const d = gate(evaluationOf(base, cand, record));
    expect(d.decision).toBe('keep');
    expect(d.reason).toMatch(/^kept: better at significance 0\.05: held-out effect \+\d\.\d\d \(95% CI \+\d\.\d\d to \+\d\.\d\d\) over 12 task\(s\) after \d attempt\(s\) per task/);
    expect(d.sequential).toMatchObject({ decision: 'keep', rounds: record.rounds, calls_saved: record.calls.saved });
    expect(d.checks.find((c) => c.id === 'sequential_record')?.passed).toBe(true);
  });

  it('refuses rounds that do not recompute: an edited decision, an edited count, other settings', async () => {
    const { base, cand, record } = await kept();
    const flipped = { ...record, looks: record.looks.map((l, i, all) => (i === all.length - 1 ? { ...l, decision: 'keep' as const, z: 0.1 } : l)) };
    const lost = { ...record, tasks: record.tasks.map((t, i) => (i === 0 ? { ...t, candidate: { passes: 0, judged: t.candidate.judged } } : t)) };
    const loose = { ...record, settings: { ...record.settings, significance: 0.2 } };
    for (const doctored of [flipped, lost, loose]) {
      const d = gate(evaluationOf(base, cand, doctored));
      expect(d.decision).toBe('reject');
      expect(d.checks.find((c) => c.id === 'sequential_record')).toMatchObject({ passed: false, detail: expect.stringContaining('do not recompute') });
    }
  });

  it('keeps what a run registered before min_effect existed: same hash, no difference reported', () => {
    const { min_effect: _dropped, ...old } = THRESHOLD_DEFAULTS;
    expect(thresholdsHash(old as typeof THRESHOLD_DEFAULTS)).toBe(thresholdsHash(THRESHOLD_DEFAULTS));
    expect(thresholdsDiff(old as typeof THRESHOLD_DEFAULTS, THRESHOLD_DEFAULTS)).toEqual([]);
    expect(registeredThresholds(old).min_effect).toBe(0.1);
    expect(thresholdsHash({ ...THRESHOLD_DEFAULTS, min_effect: 0.2 })).not.toBe(thresholdsHash(THRESHOLD_DEFAULTS));
  });
});
