// Which model-graded judges of a suite are calibrated against human labels, and the pass rate corrected
// for each calibrated judge's errors (Rogan–Gladen). A calibration belongs to the exact bytes of a judge
// spec; an inline rubric has no spec and so can never be calibrated. It also belongs to the engine that
// answered: a judge is its spec and its model, so a calibration made on another engine (above all the
// offline mock, which grades by word overlap) says nothing about the judge that grades this run.
import { canonicalJson } from '../state/artifact-io.js';
import { readCalibration, type CalibrationRecord } from '../judges/calibration-store.js';
import type { Suite } from '../config/suite-schema.js';
import { fixtureInside } from '../config/fixture-path.js';
import { createEngine } from '../engines/index.js';
import type { Engine } from '../engines/types.js';
import { loadJudgeSpec, type LoadedJudgeSpec } from '../judges/spec.js';
import { roganGladen } from '../stats/index.js';
import { round4 } from '../core/numbers.js';

export interface JudgeCalibration {
  judge: string;
  spec_hash: string | null;
  tasks: string[];
  calibrated: boolean;
  thresholds_met: boolean | null;
  detail: string;
  /** P(judge PASS | human PASS) and P(judge FAIL | human FAIL), whatever the positive class was. */
  pass_sensitivity?: number;
  fail_specificity?: number;
  /** Over the tasks this judge alone decides: observed pass rate and the judge-corrected one. */
  observed_pass_rate?: number;
  observed_passed?: number;
  observed_judged?: number;
  corrected_pass_rate?: number | null;
  /**
   * The calibration this evaluation used, copied in: the store keeps only a spec's latest calibration, so
   * a report made after a recalibration must read these figures, not the store's, to show what was used.
   */
  record?: CalibrationSnapshot;
}

export type CalibrationSnapshot = Pick<CalibrationRecord, 'created_at' | 'positive' | 'n' | 'counts' | 'tpr' | 'tnr' | 'accuracy' | 'precision' | 'bias' | 'small_sample'> & {
  answer_key: { items: number };
  /** mock: the offline engine judged the answer key, so the figures demonstrate the tool, not agreement with people. */
  engine: { type: string; mock: boolean };
};

function snapshotOf(r: CalibrationRecord): CalibrationSnapshot {
  return {
    created_at: r.created_at,
    positive: r.positive,
    n: r.n,
    answer_key: { items: r.answer_key.items },
    counts: r.counts,
    tpr: r.tpr,
    tnr: r.tnr,
    accuracy: r.accuracy,
    precision: r.precision,
    bias: r.bias,
    small_sample: r.small_sample,
    engine: { type: r.judge.engine.type, mock: r.judge.engine.mock },
  };
}

type EngineId = { type: string; identity: Record<string, unknown> };

/**
 * The engine that grades with this spec in a run whose judge engine is `runJudge`, chosen as the spec
 * judge chooses it: a mock run stays on the mock, else the spec's own engine, else the run's judge engine.
 */
function gradingEngine(spec: LoadedJudgeSpec, runJudge: EngineId | undefined): EngineId | undefined {
  if (runJudge?.type === 'mock' || !spec.spec.engine) return runJudge;
  try {
    const e = createEngine(spec.spec.engine, { suiteDir: spec.dir });
    return { type: e.type, identity: e.identity() };
  } catch {
    return undefined;
  }
}

/** Why the record does not describe the engine that grades now, or undefined when it does. */
function engineMismatch(rec: CalibrationRecord, grading: EngineId | undefined): string | undefined {
  const made = rec.judge.engine;
  if (!grading) return made.mock ? 'calibrated with the mock engine, and the engine that grades in this run is unknown' : undefined;
  if (made.mock && grading.type !== 'mock') return `calibrated with the mock engine, but ${grading.type} grades in this run: calibrate it again with its real engine`;
  if (canonicalJson(made.identity) !== canonicalJson(grading.identity)) return `calibrated with another engine (${made.type}) than the one that grades in this run (${grading.type}): calibrate it again with that engine`;
  return undefined;
}

/** `judgeEngine` is the run's judge engine (undefined when the run has none), whose identity calibrations must match. */
export function judgeCalibrations(suite: Suite, stateDir: string, judgeEngine?: Pick<Engine, 'type' | 'identity'>): JudgeCalibration[] {
  const runJudge = judgeEngine ? { type: judgeEngine.type, identity: judgeEngine.identity() } : undefined;
  const groups = new Map<string, { spec?: string; tasks: string[] }>();
  for (const t of suite.tasks) {
    for (const j of t.judges) {
      if (j.type !== 'llm-rubric' && j.type !== 'llm_rubric') continue;
      const key = j.spec ?? 'inline rubric';
      const g = groups.get(key) ?? { spec: j.spec, tasks: [] };
      g.tasks.push(t.id);
      groups.set(key, g);
    }
  }
  const out: JudgeCalibration[] = [];
  for (const [key, g] of groups) {
    if (!g.spec) {
      out.push({ judge: key, spec_hash: null, tasks: g.tasks, calibrated: false, thresholds_met: null, detail: 'inline rubrics cannot be calibrated: write the judge as a spec file (whet calibrate --judge)' });
      continue;
    }
    const file = fixtureInside(suite.dir, g.spec, () => undefined);
    const spec = file ? loadJudgeSpec(file) : undefined;
    const rec = spec ? readCalibration(stateDir, spec.hash) : undefined;
    if (!spec || !rec) {
      out.push({ judge: g.spec, spec_hash: spec?.hash ?? null, tasks: g.tasks, calibrated: false, thresholds_met: null, detail: 'no calibration for this exact spec (run whet calibrate --answer-key … --judge …)' });
      continue;
    }
    const mismatch = engineMismatch(rec, gradingEngine(spec, runJudge));
    if (mismatch) {
      out.push({ judge: g.spec, spec_hash: spec.hash, tasks: g.tasks, calibrated: false, thresholds_met: null, detail: mismatch });
      continue;
    }
    const passIsPositive = rec.positive === 'PASS';
    const sens = passIsPositive ? rec.tpr.rate : rec.tnr.rate;
    const spec_ = passIsPositive ? rec.tnr.rate : rec.tpr.rate;
    out.push({
      judge: g.spec,
      spec_hash: spec.hash,
      tasks: g.tasks,
      calibrated: rec.errors === 0,
      thresholds_met: rec.thresholds_met,
      detail: `calibrated on ${rec.n} labelled outputs (${rec.created_at})${rec.judge.engine.mock ? ' judged by the offline mock engine: it demonstrates the tool, it is not agreement with people' : ''}; thresholds ${rec.thresholds_met === null ? 'not set' : rec.thresholds_met ? 'met' : 'missed'}`,
      ...(sens !== null ? { pass_sensitivity: sens } : {}),
      ...(spec_ !== null ? { fail_specificity: spec_ } : {}),
      record: snapshotOf(rec),
    });
  }
  return out;
}

/** Adds the observed and corrected pass rates over the tasks each calibrated judge alone decides. */
export function withCorrectedRates(cals: JudgeCalibration[], results: { task_id: string; status: string }[], suite: Suite): JudgeCalibration[] {
  const only = new Map(suite.tasks.filter((t) => t.judges.length === 1).map((t) => [t.id, t]));
  const status = new Map(results.map((r) => [r.task_id, r.status]));
  return cals.map((c) => {
    if (c.pass_sensitivity === undefined || c.fail_specificity === undefined) return c;
    const judged = c.tasks.filter((id) => only.has(id) && (status.get(id) === 'pass' || status.get(id) === 'fail'));
    if (judged.length === 0) return c;
    const passed = judged.filter((id) => status.get(id) === 'pass').length;
    const observed = passed / judged.length;
    const corrected = roganGladen(observed, c.pass_sensitivity, c.fail_specificity);
    return { ...c, observed_pass_rate: round4(observed), observed_passed: passed, observed_judged: judged.length, corrected_pass_rate: Number.isNaN(corrected) ? null : round4(corrected) };
  });
}

