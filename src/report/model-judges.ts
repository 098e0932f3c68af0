// Judge metrics (docs/guides/reports.md, the first dashboard): for each calibrated judge its four figures
// together — TPR, TNR, accuracy, precision — with the positive class named, the answer key's size and the
// bias reading with the counts behind it. Calibration records are read leniently (another module writes
// them; older or newer records may have more or fewer fields): counts may sit at the top level or under
// `counts`, rates may be numbers or {count, of, rate}; whatever is missing is derived from the counts.
import { arr, at, bool, int, isObj, num, obj, round4, str, type Json } from './inputs.js';
import type { CalibrationView, ModelGraded, ReportModel } from './model-schema.js';

const hex = (h: string | undefined) => h?.replace(/^sha256:/i, '').toLowerCase();

function rateField(v: unknown): number | null | undefined {
  if (v === null) return null;
  const n = num(v);
  if (n !== undefined) return n;
  if (isObj(v)) return v.rate === null ? null : num(v.rate);
  return undefined;
}

const ratio = (a: number, b: number) => (b === 0 ? null : round4(a / b));

/** harsh: the judge fails good work more often than it passes bad work (compared by cross-multiplying, so "equal" is exact). */
export function biasReading(wf: { count: number; of: number }, wp: { count: number; of: number }): string {
  if (wf.of === 0 || wp.of === 0) return 'undetermined';
  const l = wf.count * wp.of;
  const r = wp.count * wf.of;
  return l > r ? 'harsh' : l < r ? 'lenient' : 'balanced';
}

function fractionOf(v: unknown): { count: number; of: number } | undefined {
  const c = int(at(v, 'count'));
  const o = int(at(v, 'of'));
  return c !== undefined && o !== undefined ? { count: c, of: o } : undefined;
}

export function calibrationView(rec: Json, suiteSpecHashes: string[]): CalibrationView | undefined {
  const counts = obj(rec.counts) ?? rec;
  const tp = int(counts.tp);
  const tn = int(counts.tn);
  const fp = int(counts.fp);
  const fn = int(counts.fn);
  if (tp === undefined || tn === undefined || fp === undefined || fn === undefined) return undefined;
  const positive = (str(rec.positive) ?? 'FAIL').toUpperCase();
  const judge = str(rec.judge) ?? str(at(rec, 'judge', 'name')) ?? 'unnamed judge';
  const specHash = str(at(rec, 'judge', 'spec_hash')) ?? str(rec.spec_hash) ?? null;
  const n = tp + tn + fp + fn;
  // FAIL positive: a false positive is a good run failed. PASS positive swaps the roles.
  const failPositive = positive !== 'PASS';
  const wfDerived = failPositive ? { count: fp, of: fp + tn } : { count: fn, of: fn + tp };
  const wpDerived = failPositive ? { count: fn, of: fn + tp } : { count: fp, of: fp + tn };
  const wf = fractionOf(at(rec, 'bias', 'wrongly_failed')) ?? wfDerived;
  const wp = fractionOf(at(rec, 'bias', 'wrongly_passed')) ?? wpDerived;
  const pick = (v: unknown, derived: number | null) => {
    const r = rateField(v);
    return r === undefined ? derived : r === null ? null : round4(r);
  };
  return {
    judge,
    spec_hash: specHash,
    in_suite: specHash !== null && suiteSpecHashes.some((h) => hex(h) === hex(specHash)),
    positive,
    answer_key_items: int(at(rec, 'answer_key', 'items')) ?? int(rec.n) ?? n,
    tp,
    tn,
    fp,
    fn,
    tpr: pick(rec.tpr, ratio(tp, tp + fn)),
    tnr: pick(rec.tnr, ratio(tn, tn + fp)),
    accuracy: pick(rec.accuracy, ratio(tp + tn, n)),
    precision: pick(rec.precision, ratio(tp, tp + fp)),
    bias: { reading: str(at(rec, 'bias', 'reading')) ?? biasReading(wf, wp), wrongly_failed: wf, wrongly_passed: wp },
    small_sample: typeof rec.small_sample === 'boolean' ? rec.small_sample : Math.min(tp + fn, tn + fp) < 30,
    created_at: str(rec.created_at) ?? null,
    engine_mock: bool(at(rec, 'judge', 'engine', 'mock')) ?? bool(at(rec, 'engine', 'mock')) ?? null,
  };
}

function storeViews(records: Json[], suiteSpecHashes: string[]): CalibrationView[] {
  const views = records.flatMap((r) => calibrationView(r, suiteSpecHashes) ?? []);
  views.sort((a, b) => Number(b.in_suite) - Number(a.in_suite) || (a.judge < b.judge ? -1 : a.judge > b.judge ? 1 : 0) || (a.created_at ?? '').localeCompare(b.created_at ?? ''));
  return views;
}

function modelGradedOf(e: Json): ModelGraded {
  const passed = int(e.observed_passed);
  const judged = int(e.observed_judged);
  return {
    judge: str(e.judge) ?? 'unnamed judge',
    spec_hash: str(e.spec_hash) ?? null,
    tasks: arr(e.tasks).length,
    calibrated: bool(e.calibrated) ?? false,
    engine_mock: bool(at(e, 'record', 'engine', 'mock')) ?? null,
    thresholds_met: bool(e.thresholds_met) ?? null,
    detail: str(e.detail) ?? '',
    observed_pass_rate: num(e.observed_pass_rate) ?? null,
    observed: passed !== undefined && judged !== undefined ? { count: passed, of: judged } : null,
    corrected_pass_rate: num(e.corrected_pass_rate) ?? null,
  };
}

/**
 * Judge metrics as the evaluation recorded them when it ran: the store keeps only each spec's latest
 * calibration, so reading it at report time would show figures the gate never used once a judge has been
 * recalibrated. The store is the fallback only for evaluations that recorded none, and the report says so.
 */
export function judgesOf(ev: Json | undefined, records: Json[], suiteSpecHashes: string[]): ReportModel['judges'] {
  if (ev && Array.isArray(ev.judge_calibration)) {
    const recorded = arr(ev.judge_calibration).filter(isObj);
    const calibrations = recorded.flatMap((e) => {
      const rec = obj(e.record);
      if (!rec || e.calibrated !== true) return [];
      const v = calibrationView({ ...rec, judge: { name: str(e.judge), spec_hash: str(e.spec_hash), engine: obj(rec.engine) } }, suiteSpecHashes);
      return v ? [{ ...v, in_suite: true }] : [];
    });
    const bare = recorded.filter((e) => e.calibrated === true && !obj(e.record)).length;
    const note = `as the evaluation recorded them when it ran (the calibrations it used, whatever the state directory holds now)${bare ? `; ${bare} calibrated judge(s) were recorded without their figures (an older evaluation), so their confusion counts are not shown` : ''}`;
    return { calibrated: calibrations.length > 0, calibrations, source: 'evaluation', source_note: note, model_graded: recorded.map(modelGradedOf) };
  }
  const views = storeViews(records, suiteSpecHashes);
  const note = ev
    ? "this evaluation recorded no judge calibration (no model-graded judge, or made by an older version): shown are the state directory's current calibration records, read at report time, which need not be the ones this run used"
    : "no evaluation in this run: shown are the state directory's current calibration records, read at report time";
  return { calibrated: views.length > 0, calibrations: views, source: 'state', source_note: note, model_graded: [] };
}
