// The gate on a noisy engine (issue 27): it decides on the rounds the evaluation recorded, replayed from
// their counts, and refuses them as evidence when they do not recompute — an edited decision, boundary or
// count, or settings other than the registered ones — so a hand-edited evaluation.json cannot keep a
// candidate. Thresholds registered before min_effect existed still resume.
import { describe, expect, it } from 'vitest';
import { evaluationOf } from '../../scripts/decision-trials.js';
import { tally } from '../../src/measure/guard-calls.js';
import { decide } from '../../stages/gate/decide.js';
import { runRounds } from '../../src/measure/rounds.js';
import { sequentialRecord } from '../../src/measure/held-out-rounds.js';
import { THRESHOLD_DEFAULTS, registeredThresholds, thresholdsDiff, thresholdsHash } from '../../src/config/thresholds.js';

const s = { significance: 0.05, minEffect: 0.1, maxAttempts: 10, run: { significance: 0.05, maxIterations: 1 } };

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
    expect(d.reason).toMatch(/^kept: better at significance 0\.05 \(one-sided; 0\.05 over the run's 1 candidate\(s\)\): held-out effect \+\d\.\d\d \(95% CI \+\d\.\d\d to \+\d\.\d\d\) over 12 task\(s\) after \d attempt\(s\) per task/);
    expect(d.sequential).toMatchObject({ decision: 'keep', rounds: record.rounds, calls_saved: record.calls.saved });
    expect(d.checks.find((c) => c.id === 'sequential_record')?.passed).toBe(true);
  });

  it('refuses rounds that do not recompute: an edited decision, an edited count, other settings', async () => {
    const { base, cand, record } = await kept();
    const flipped = { ...record, looks: record.looks.map((l, i, all) => (i === all.length - 1 ? { ...l, decision: 'keep' as const, z: 0.1 } : l)) };
    const lost = { ...record, tasks: record.tasks.map((t, i) => (i === 0 ? { ...t, candidate: { passes: 0, judged: t.candidate.judged } } : t)) };
    const loose = { ...record, settings: { ...record.settings, significance: 0.2 } };
    // Tested at 0.05 alone, where the run registered five iterations (0.01 each), or without the run-level design.
    const oneOfFive = { ...record, settings: { ...record.settings, max_iterations: 5 } };
    const { run_significance: _r, max_iterations: _m, task_level: _t, ...bare } = record.settings;
    const unrun = { ...record, settings: bare };
    for (const doctored of [flipped, lost, loose, oneOfFive, unrun]) {
      const d = gate(evaluationOf(base, cand, doctored));
      expect(d.decision).toBe('reject');
      expect(d.checks.find((c) => c.id === 'sequential_record')).toMatchObject({ passed: false, detail: expect.stringContaining('do not recompute') });
    }
  });

  it('tests a candidate of a five-iteration run at 0.01, and a keep needs the task-level test too (issue 38)', async () => {
    const { base, cand, record } = await kept();
    const d = decide({ evaluation: evaluationOf(base, cand, record), thresholds: THRESHOLD_DEFAULTS, category: 'content', risk: 'low', integrity: [], maxErrorShare: 0.1, maxIterations: 5 });
    expect(d.decision).toBe('reject');
    expect(d.checks.find((c) => c.id === 'sequential_record')?.detail).toMatch(/loop\.max_iterations 1 is not the registered 5/);
    expect(d.run_level).toEqual({ significance: 0.05, max_iterations: 5, per_candidate: 0.01, enforced: true });
    // A record whose last look kept although its tasks' t falls short of the look's level is refused.
    const last = record.looks.at(-1)!;
    const weak = { ...record, looks: [...record.looks.slice(0, -1), { ...last, task_t: 0.5 }] };
    expect(gate(evaluationOf(base, cand, weak)).checks.find((c) => c.id === 'sequential_record')?.detail).toMatch(/kept without the task-level test/);
  });

  it('keeps what a run registered before min_effect existed: same hash, no difference reported', () => {
    const { min_effect: _dropped, ...old } = THRESHOLD_DEFAULTS;
    expect(thresholdsHash(old as typeof THRESHOLD_DEFAULTS)).toBe(thresholdsHash(THRESHOLD_DEFAULTS));
    expect(thresholdsDiff(old as typeof THRESHOLD_DEFAULTS, THRESHOLD_DEFAULTS)).toEqual([]);
    expect(registeredThresholds(old).min_effect).toBe(0.1);
    expect(thresholdsHash({ ...THRESHOLD_DEFAULTS, min_effect: 0.2 })).not.toBe(thresholdsHash(THRESHOLD_DEFAULTS));
  });
});
