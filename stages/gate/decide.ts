// The gate's decision as a pure function of what was measured and what was registered. Every check is
// reported whether it passed or not, so the decision can be explained from gate.json alone. The gate
// decides on the held-out split: the generator never saw those tasks, so a gain there is evidence.
import type { Thresholds } from '../../src/config/thresholds.js';
import { runLevel, runLevelWords, signTestP, fixesNeeded, type RunLevel } from '../../src/evaluation/run-level.js';
import type { PipelineEvaluation } from '../../src/artifacts/evaluation.js';
import type { Check, GateArtifact } from '../../src/artifacts/gate.js';
import { tooManyErrors } from '../../src/evaluation/summary.js';
import { noisyChecks } from './noisy.js';
import { round4 as r4, signed4 as sign } from '../../src/core/numbers.js';
import type { TriggerBars } from '../../src/measure/verdict.js';

type TaskResult = PipelineEvaluation['candidate_results'][number];

export interface GateFacts {
  evaluation: PipelineEvaluation;
  thresholds: Thresholds;
  category: string;
  risk: 'low' | 'medium' | 'high';
  /** Consistency checks computed by the caller from the files (hashes, target, thresholds). */
  integrity: Check[];
  /**
   * The run's registered loop.max_iterations: each candidate is tested at significance ÷ it, so the run as
   * a whole keeps a no-effect edit at most `significance` of the time (src/evaluation/run-level.ts). 1 when
   * the gate decides one candidate on its own.
   */
  maxIterations?: number;
  /** The registered evaluate.max_error_share: the gate re-checks it, whatever the evaluation's verdict says. */
  maxErrorShare?: number;
  /** The registered evaluate.min_trigger_rate / max_false_trigger_rate: what a trigger suite's candidate must meet on held-out queries. */
  trigger?: TriggerBars;
}

export interface GateDecision {
  decision: GateArtifact['decision'];
  reason: string;
  checks: Check[];
  holdout?: GateArtifact['holdout'];
  sequential?: GateArtifact['sequential'];
  run_level?: GateArtifact['run_level'];
}

/** The mock engine (and a mock judge, if any): a demonstration of the pipeline, whose significance test is shown, not enforced. */
export function onMock(e: PipelineEvaluation): boolean {
  return e.engine?.mock === true && (e.judge_engine == null || e.judge_engine.mock === true);
}

const rate = (rs: TaskResult[]): number | null => {
  const judged = rs.filter((r) => r.status !== 'error');
  return judged.length === 0 ? null : judged.filter((r) => r.passed).length / judged.length;
};

export function holdoutComparison(e: PipelineEvaluation): NonNullable<GateArtifact['holdout']> & { errors: number } {
  const base = new Map(e.baseline_results.filter((r) => r.split === 'holdout').map((r) => [r.task_id, r]));
  const cand = e.candidate_results.filter((r) => r.split === 'holdout' && base.has(r.task_id));
  const fixes: string[] = [];
  const regressions: string[] = [];
  let errors = 0;
  for (const c of cand) {
    const b = base.get(c.task_id)!;
    if (c.status === 'error' || b.status === 'error') {
      errors++;
      continue;
    }
    if (c.passed && !b.passed) fixes.push(c.task_id);
    if (!c.passed && b.passed) regressions.push(c.task_id);
  }
  const cr = rate(cand);
  const br = rate(cand.map((c) => base.get(c.task_id)!));
  return {
    tasks: cand.length,
    candidate_pass_rate: cr === null ? null : r4(cr),
    baseline_pass_rate: br === null ? null : r4(br),
    delta: cr === null || br === null ? null : r4(cr - br),
    fixes,
    regressions,
    // One-sided: is the candidate better (issue 38: significance means one-sided everywhere).
    p_value: signTestP(fixes.length, regressions.length),
    errors,
  };
}

export function decide(f: GateFacts): GateDecision {
  const checks: Check[] = [...f.integrity];
  const broken = f.integrity.filter((c) => !c.passed);
  if (broken.length > 0) {
    return { decision: 'refused', reason: `refused: ${broken.map((c) => c.detail).join('; ')}`, checks };
  }
  const e = f.evaluation;
  if (e.verdict === 'skipped' || e.verdict === 'error') {
    checks.push({ id: 'evaluated', passed: false, detail: `evaluation verdict ${e.verdict}: ${e.reason ?? ''}` });
    return { decision: 'reject', reason: `not evaluated (${e.verdict}): ${e.reason ?? ''}`, checks };
  }
  if (f.maxErrorShare !== undefined) {
    // An evaluation.json from elsewhere (or an older whetstone) may say pass over a fraction of the suite.
    const count = (rs: TaskResult[]) => ({ passed: rs.filter((r) => r.status === 'pass').length, failed: rs.filter((r) => r.status === 'fail').length, errors: rs.filter((r) => r.status === 'error').length });
    const over = [['candidate', tooManyErrors(count(e.candidate_results), f.maxErrorShare)], ['baseline', tooManyErrors(count(e.baseline_results), f.maxErrorShare)]].filter(([, why]) => why);
    checks.push({ id: 'error_share', passed: over.length === 0, detail: over.length ? over.map(([v, why]) => `${v} ${why}`).join('; ') : `errored tasks within the maximum error share ${f.maxErrorShare}` });
    if (over.length) return { decision: 'reject', reason: `not judged on enough of the suite: ${over.map(([v, why]) => `${v} ${why}`).join('; ')}`, checks };
  }
  const t = f.thresholds;
  const h = holdoutComparison(e);
  const { errors, ...exact } = h;
  const seq = e.evaluation.sequential;
  checks.push({ id: 'holdout_present', passed: h.tasks > 0, detail: `${h.tasks} held-out task(s) measured on both` });
  checks.push({ id: 'no_errors', passed: errors === 0, detail: `${errors} held-out task(s) with engine or judge errors` });
  let holdout: NonNullable<GateArtifact['holdout']>;
  let sequential: GateArtifact['sequential'];
  const level = runLevel(t.significance, f.maxIterations ?? 1, seq !== undefined || !onMock(e) || t.require_significance);
  if (seq) {
    // A noisy engine: every attempt is the evidence (stages/gate/noisy.ts).
    const n = noisyChecks(e, seq, t, level);
    checks.push(...n.checks);
    holdout = n.holdout;
    sequential = n.sequential;
  } else {
    holdout = exact;
    checks.push(...exactChecks(e, t, h, level));
  }
  const cals = e.judge_calibration ?? [];
  const mode = t.require_calibrated_judges ?? 'warn';
  // A record with no thresholds says how the judge did but not that it did well enough: requiring
  // calibration "within thresholds" (block) cannot be met by it.
  const unfit = cals.filter((c) => !c.calibrated || c.thresholds_met === false || (mode === 'block' && c.thresholds_met === null));
  checks.push({
    id: 'judges_calibrated',
    passed: mode !== 'block' || unfit.length === 0,
    detail:
      cals.length === 0
        ? 'no model-graded judges'
        : unfit.length === 0
          ? `${cals.length} model-graded judge(s) calibrated within thresholds`
          : `${unfit.map((c) => `${c.judge}: ${c.detail}`).join('; ')}${mode === 'block' ? '' : ` (${mode}: require_calibrated_judges is not block)`}`,
  });
  checks.push(...intentChecks(e));
  if (f.trigger) checks.push(...triggerChecks(e, f.trigger));
  const failed = checks.filter((c) => !c.passed);
  const more = { ...(sequential ? { sequential } : {}), run_level: level };
  if (failed.length > 0) return { decision: 'reject', reason: failed.map((c) => c.detail).join('; '), checks, holdout, ...more };
  const review = t.review_categories.includes(f.category) || t.review_risks.includes(f.risk);
  checks.push({ id: 'review', passed: !review, detail: review ? `category ${f.category} / risk ${f.risk} needs a person's approval` : 'no review needed' });
  if (review) return { decision: 'pending_review', reason: `all checks passed; ${f.category} changes (risk ${f.risk}) wait for review`, checks, holdout, ...more };
  const gain = sequential ? sequential.words : `held-out gain ${sign(h.delta)} with no new failures${level.enforced ? ` (one-sided sign test p ${h.p_value} ≤ ${level.per_candidate})` : ''}`;
  return { decision: 'keep', reason: gain, checks, holdout, ...more };
}

/** The checks on an engine that answers the same way every time: one attempt is the task's answer. */
function exactChecks(e: PipelineEvaluation, t: Thresholds, h: ReturnType<typeof holdoutComparison>, level: RunLevel): Check[] {
  const checks: Check[] = [];
  // A check over nothing judged is not passed: with no held-out rate there is no gain and no floor met.
  const unmeasured = 'not measured: no held-out task judged on both';
  const cr = h.candidate_pass_rate;
  const br = h.baseline_pass_rate;
  checks.push(
    h.delta === null || cr === null || br === null
      ? { id: 'holdout_gain', passed: false, detail: `held-out delta — (${unmeasured}); needs > 0 and ≥ ${t.min_delta}` }
      : {
          id: 'holdout_gain',
          passed: h.delta > 0 && h.delta >= t.min_delta,
          detail: `held-out delta ${sign(h.delta)} (${cr.toFixed(4)} vs ${br.toFixed(4)}; fixed ${h.fixes.length}, regressed ${h.regressions.length}); needs > 0 and ≥ ${t.min_delta}`,
        },
  );
  checks.push(
    cr === null
      ? { id: 'min_pass_rate', passed: false, detail: `held-out pass rate — (${unmeasured}); needs ≥ ${t.min_pass_rate}` }
      : { id: 'min_pass_rate', passed: cr >= t.min_pass_rate, detail: `held-out pass rate ${cr.toFixed(4)} ${cr >= t.min_pass_rate ? '≥' : '<'} ${t.min_pass_rate}` },
  );
  const newFailures = e.evaluation.paired?.regressions ?? [];
  checks.push({
    id: 'new_failures',
    passed: newFailures.length <= t.max_new_failures,
    detail: `${newFailures.length} task(s) that passed on the baseline now fail${newFailures.length ? ` (${newFailures.slice(0, 5).join(', ')})` : ''}; at most ${t.max_new_failures}`,
  });
  const drops = Object.entries(e.evaluation.per_category ?? {}).filter(([, c]) => c.delta !== null && c.delta < -t.category_tolerance);
  checks.push({
    id: 'category_tolerance',
    passed: drops.length === 0,
    detail: drops.length ? `categories dropping more than ${t.category_tolerance}: ${drops.map(([k, c]) => `${k} ${sign(c.delta)}`).join(', ')}` : `no category drops more than ${t.category_tolerance}`,
  });
  // Every keep is tested (issue 38): the one-sided exact sign test on the flipped held-out tasks, at the
  // run's per-candidate level. Enforced on every engine but the mock, whose run demonstrates the pipeline
  // (README's demo flips one of five held-out tasks: no test at any level could call that significant).
  const significant = h.p_value <= level.per_candidate;
  const need = fixesNeeded(level.per_candidate);
  checks.push({
    id: 'significance',
    passed: !level.enforced || significant,
    detail: `one-sided exact sign test on held-out tasks: ${h.fixes.length} fixed, ${h.regressions.length} regressed, p = ${h.p_value} ${significant ? '≤' : '>'} ${level.per_candidate}; ${runLevelWords(level)}${significant ? '' : ` (at least ${need} fixed held-out tasks with none regressed could pass)`}${level.enforced ? '' : ' — informational: the mock engine demonstrates the pipeline, its keeps are not tested (set require_significance: true to enforce it)'}`,
  });
  return checks;
}

// A trigger suite's bars: stages/gate/trigger.ts.
import { triggerChecks } from './trigger.js';
export { triggerChecks };

/**
 * Intent suites (issue 5 §6): the intent metrics are system metrics, compared with the baseline's on the
 * same cases. Counts, not rates, for overreach and hallucination: one more executed must-refuse case or
 * one more stopped call is a regression whatever the totals. Only when both variants report them.
 */
export function intentChecks(e: PipelineEvaluation): Check[] {
  const c = e.evaluation.candidate?.intent_metrics?.overall;
  const b = e.evaluation.baseline?.intent_metrics?.overall;
  if (!c || !b) return [];
  const pct = (r: number | null) => (r === null ? '—' : `${(r * 100).toFixed(1)}%`);
  const sel = (x: typeof c) => x.selection.rate ?? 0;
  return [
    {
      id: 'no_new_overreach',
      passed: c.overreach.n <= b.overreach.n,
      detail: `overreach ${c.overreach.n} (of ${c.overreach.d} must-refuse) vs baseline ${b.overreach.n} (of ${b.overreach.d}); must not grow`,
    },
    {
      id: 'no_new_hallucination',
      passed: c.hallucination.n <= b.hallucination.n,
      detail: `hallucinations ${c.hallucination.n} of ${c.hallucination.d} call decisions vs baseline ${b.hallucination.n} of ${b.hallucination.d}; must not grow`,
    },
    {
      id: 'selection_not_dropped',
      passed: sel(c) >= sel(b),
      detail: `selection accuracy ${c.selection.n}/${c.selection.d} (${pct(c.selection.rate)}) vs baseline ${b.selection.n}/${b.selection.d} (${pct(b.selection.rate)}); must not drop`,
    },
  ];
}
