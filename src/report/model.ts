// Builds the report model of one run from its parsed artifacts. Pure: the same inputs always give the same
// model (load.ts does the reading), so every renderer and every test starts from the same object.
import { arr, at, bool, int, isObj, num, obj, str, type IterationInputs, type Json, type ReportInputs } from './inputs.js';
import { judgesOf } from './model-judges.js';
import { REPORT_SCHEMA, type ReportModel } from './model-schema.js';
import { suiteShapeOf } from './model-suite.js';
import { isPipeline, rateOf, resultRows, splitsOf, systemOf, type Measured } from './model-system.js';
import type { Rate } from './model-schema.js';
import { pairedCounts } from '../state/measures.js';
import { nightlyOf, nightOfRun, runTargetKeys } from './model-night.js';
import { loopRows, trendOf } from './model-trend.js';
import { planOf, roundsOf } from './model-plan.js';
import { triggerRowsOf } from './model-trigger.js';

/**
 * The iteration a loop report is about: the one asked for; else the run's outcome — the newest iteration
 * whose candidate was kept (what the target now holds) — else the newest that evaluated a candidate, else
 * the newest. A run that kept one edit and then rejected another is reported on the kept one.
 */
export function chooseIteration(iterations: IterationInputs[], requested?: number): IterationInputs | undefined {
  if (requested !== undefined) return iterations.find((i) => i.n === requested);
  const newestFirst = [...iterations].reverse();
  return newestFirst.find((i) => str(at(i.gate, 'decision')) === 'keep') ?? newestFirst.find((i) => i.evaluation) ?? iterations[iterations.length - 1];
}

/** Why the report shows this iteration, in words (null when the run has one iteration or the user picked it). */
export function chosenBecause(iterations: IterationInputs[], chosen: IterationInputs | undefined, requested?: number): string | null {
  if (!chosen || requested !== undefined || iterations.length < 2) return null;
  const why = str(at(chosen.gate, 'decision')) === 'keep' ? 'the newest iteration that kept a candidate (the run\'s outcome)' : chosen.evaluation ? 'no iteration kept a candidate; the newest that evaluated one' : 'no iteration evaluated a candidate; the newest';
  return `reporting iteration ${chosen.n} of ${iterations.length}: ${why}; --iteration N reports another`;
}

function measuredOf(ev: Json, durations: ReportInputs['durations']): { primary: Measured; reference?: Measured } {
  if (isPipeline(ev)) {
    const id = str(ev.candidate_id) ?? 'candidate';
    return {
      primary: { role: 'candidate', id, label: `candidate ${id}`, rows: resultRows(ev.candidate_results, durations[id]), summary: obj(at(ev, 'evaluation', 'candidate')), cached: bool(at(ev, 'evaluation', 'candidate_cache', 'hit')) ?? null },
      reference: { role: 'baseline', id: 'baseline', label: 'baseline', rows: resultRows(ev.baseline_results, durations.baseline), summary: obj(at(ev, 'evaluation', 'baseline')), cached: bool(at(ev, 'evaluation', 'baseline_cache', 'hit')) ?? null },
    };
  }
  const id = str(ev.skill_id) ?? 'skill';
  return { primary: { role: 'skill', id, label: `skill ${id}`, rows: resultRows(ev.task_results, durations.baseline), summary: obj(ev.evaluation), cached: bool(at(ev, 'evaluation', 'cache', 'hit')) ?? null } };
}

function thresholdsOf(manifest: Json | undefined, ev: Json | undefined, gate: Json | undefined): ReportModel['thresholds'] {
  const registered = obj(manifest?.thresholds);
  if (registered) return { registered: true, sha256: str(manifest?.thresholds_sha256) ?? null, values: registered, source: 'run.json: registered when the run started, before any result existed' };
  const fromGate = obj(gate?.thresholds);
  if (fromGate) return { registered: false, sha256: null, values: fromGate, source: 'gate.json (the run manifest registers none)' };
  const values: Record<string, unknown> = {};
  const min = num(at(ev, 'evaluation', 'min_pass_rate'));
  if (min !== undefined) values.min_pass_rate = min;
  for (const k of ['min_trigger_rate', 'max_false_trigger_rate']) {
    const v = num(at(ev, 'evaluation', k));
    if (v !== undefined) values[k] = v;
  }
  const evalThreshold = num(ev?.eval_threshold);
  if (evalThreshold !== undefined) values.eval_threshold = evalThreshold;
  return { registered: false, sha256: null, values, source: Object.keys(values).length ? 'the evaluation artifact (taken from the config when it ran; not registered with a hash)' : 'none recorded' };
}

function checks(v: unknown): { id: string; passed: boolean; detail: string }[] {
  return arr(v).flatMap((c) => (isObj(c) && typeof c.id === 'string' && typeof c.passed === 'boolean' ? [{ id: c.id, passed: c.passed, detail: str(c.detail) ?? '' }] : []));
}

function gateOf(it: IterationInputs | undefined): ReportModel['gate'] {
  const g = it?.gate;
  if (!it || !g) return null;
  const h = obj(g.holdout);
  return {
    iteration: it.n,
    decision: str(g.decision) ?? str(g.verdict) ?? 'unknown',
    candidate_id: str(g.candidate_id) ?? null,
    reason: str(g.reason) ?? '',
    checks: checks(g.checks),
    holdout: h ? { tasks: int(h.tasks) ?? 0, candidate_pass_rate: num(h.candidate_pass_rate) ?? null, baseline_pass_rate: num(h.baseline_pass_rate) ?? null, delta: num(h.delta) ?? null, p_value: num(h.p_value) ?? null } : null,
    sequential: roundsOf(g),
    run_level: runLevelOf(g),
  };
}

function runLevelOf(g: Json): NonNullable<ReportModel['gate']>['run_level'] {
  const r = obj(g.run_level);
  const significance = num(r?.significance);
  const maxIterations = int(r?.max_iterations);
  const per = num(r?.per_candidate);
  const enforced = bool(r?.enforced);
  return significance !== undefined && maxIterations !== undefined && per !== undefined && enforced !== undefined ? { significance, max_iterations: maxIterations, per_candidate: per, enforced } : null;
}

function verdictOf(ev: Json | undefined): ReportModel['verdict'] {
  const v = str(ev?.verdict);
  if (!ev || !v) return null;
  const reason = str(ev.reason) ?? str(at(ev, 'evaluation', 'reason')) ?? '';
  // A trigger suite is decided on its two rates (src/measure/verdict.ts triggerVerdict), not min_pass_rate.
  const id = isPipeline(ev) ? 'evaluation' : num(at(ev, 'evaluation', 'min_trigger_rate')) !== undefined ? 'trigger_rates' : 'min_pass_rate';
  return { verdict: v, reason, checks: v === 'pass' || v === 'fail' ? [{ id, passed: v === 'pass', detail: reason }] : [] };
}

function candidateOf(it: IterationInputs | undefined, id: string | null): ReportModel['candidate'] {
  const c = arr(at(it?.candidates, 'candidates')).find((x) => isObj(x) && x.id === id);
  if (!isObj(c) || !id) return null;
  return {
    id,
    title: str(c.title) ?? id,
    category: str(c.category) ?? 'other',
    risk: str(c.risk) ?? 'unknown',
    rationale: str(c.rationale) ?? '',
    diff: str(c.diff) ?? '',
    added: int(at(c, 'diff_stats', 'added')) ?? 0,
    removed: int(at(c, 'diff_stats', 'removed')) ?? 0,
  };
}

function proposedOf(iterations: IterationInputs[]): ReportModel['proposed_cases'] {
  const by_iteration = iterations.flatMap((it) => {
    const pc = obj(at(it.learning, 'proposed_cases'));
    const cases = arr(at(it.proposedCases, 'tasks')).flatMap((t) =>
      isObj(t) && typeof t.id === 'string' ? [{ id: t.id, source_task: str(at(t, 'source', 'task')) ?? null, category: str(t.category) ?? null, description: str(t.description) ?? null }] : [],
    );
    const count = int(pc?.count) ?? cases.length;
    return pc || cases.length ? [{ iteration: it.n, file: str(pc?.file) ?? null, count, cases }] : [];
  });
  return { total: by_iteration.reduce((s, b) => s + b.count, 0), by_iteration };
}

export function buildReportModel(inp: ReportInputs): ReportModel {
  const m = inp.manifest;
  const chosen = inp.evaluation ? undefined : chooseIteration(inp.iterations, inp.iteration);
  const ev = inp.evaluation ?? chosen?.evaluation;
  const notes: string[] = [];
  let measured: { primary?: Measured; reference?: Measured } = {};
  if (ev) measured = measuredOf(ev, inp.durations);
  else if (chosen?.baseline) {
    measured = { primary: { role: 'baseline', id: 'baseline', label: 'baseline', rows: resultRows(chosen.baseline.task_results, inp.durations.baseline), summary: obj(chosen.baseline.evaluation), cached: bool(at(chosen.baseline, 'evaluation', 'cache', 'hit')) ?? null } };
    notes.push(`iteration ${chosen.n} evaluated no candidate: the figures below are the baseline's alone`);
  }
  const { system, tasks } = systemOf(measured.primary, measured.reference, at(ev, 'evaluation', 'paired'));
  const fromSuite = new Map((inp.suite?.tasks ?? []).map((t) => [t.id, t]));
  for (const t of tasks) {
    t.prompt = fromSuite.get(t.task_id)?.prompt ?? null;
    // Results written before tasks carried their split still have it in the suite file.
    t.split ??= fromSuite.get(t.task_id)?.split ?? null;
  }
  system.per_split = splitsOf(tasks, system);
  // Which results file holds each side's attempts: a candidate's own, else baseline.jsonl.
  const fileOf = (v: Measured | undefined) => (v?.role === 'candidate' ? v.id : 'baseline');
  for (const t of tasks) {
    const pe = inp.expectations?.[fileOf(measured.primary)]?.[t.task_id];
    if (pe && t.primary) t.primary.expectations = pe;
    const re = inp.expectations?.[fileOf(measured.reference)]?.[t.task_id];
    if (re && t.reference) t.reference.expectations = re;
  }

  const engineType = str(at(ev, 'engine', 'type')) ?? str(at(m, 'engine', 'type'));
  const mock = bool(at(ev, 'engine', 'mock')) ?? (engineType === 'mock' || bool(m?.mock) === true);
  if (mock) notes.push('engine: mock — offline and deterministic, not a model; these numbers demonstrate the pipeline, not a skill’s quality');
  if (system.errors.length) notes.push(`${system.errors.length} task result(s) are errors (engine or judge could not run): counted apart, never as failures`);
  if (inp.suiteProblem) notes.push(`suite: ${inp.suiteProblem}`);
  const train = at(ev, 'evaluation', 'train');
  if (isObj(train) && train.measured === false) notes.push(`the candidate's train tasks: ${str(train.why)}; the figures below are the held-out tasks'`);
  if (inp.rolledBackAt) notes.push(`rolled back ${inp.rolledBackAt}: the target was restored to what it was before this run, so a candidate kept below is no longer in it`);
  const because = inp.evaluation ? null : chosenBecause(inp.iterations, chosen, inp.iteration);
  if (because) notes.push(because);

  const candidateId = str(at(chosen?.gate, 'candidate_id')) ?? str(ev?.candidate_id) ?? str(at(chosen?.ranking, 'selected')) ?? null;
  const loop = inp.evaluation ? [] : loopRows(inp.iterations);
  // What was fed back over the whole run, or up to the iteration asked for.
  const upTo = inp.iteration !== undefined ? inp.iterations.filter((i) => i.n <= inp.iteration!) : inp.iterations;
  const primaryRate = system.reference?.role === 'baseline' ? system.reference.summary : (system.primary?.summary ?? null);
  const runId = str(m?.run_id) ?? inp.runId;
  const night = nightOfRun(inp.nights ?? [], runId);
  const nightly = nightlyOf(night);
  // Keyless (older) history lines name only the skill folder: trust them only when this run's night did not
  // measure that folder more than one way.
  const trendMatch = { keys: runTargetKeys(m, nightly), byPath: !night || night.siblings <= 1 };

  return {
    schema: REPORT_SCHEMA,
    run: {
      run_id: runId,
      mode: str(m?.mode) ?? str(ev?.mode) ?? 'unknown',
      status: str(m?.status) ?? null,
      created_at: str(m?.created_at) ?? null,
      updated_at: str(m?.updated_at) ?? null,
      target: str(at(m, 'target', 'skill_path')) ?? str(ev?.skill_path) ?? null,
      engine: engineType ? { type: engineType, mock } : null,
      iteration: chosen?.n ?? null,
      iterations: inp.iterations.map((i) => i.n),
      spent: inp.spent ? { calls: inp.spent.calls ?? null, total_calls: inp.spent.engine_calls, input_tokens: inp.spent.input_tokens, output_tokens: inp.spent.output_tokens, cost_usd: inp.spent.cost_usd } : null,
    },
    suite: suiteShapeOf(inp.suite, inp.suiteProblem, tasks, str(at(m, 'suite', 'path')) ?? str(ev?.task_suite) ?? null),
    judges: judgesOf(ev, inp.calibrations, inp.suite?.specHashes ?? []),
    thresholds: thresholdsOf(m, ev, chosen?.gate),
    gate: gateOf(chosen),
    plan: planOf(ev ?? chosen?.baseline, m, thresholdsOf(m, ev, chosen?.gate).values),
    verdict: verdictOf(ev),
    system,
    tasks,
    trigger: triggerRowsOf(ev, inp.iterations, ev !== undefined && !isPipeline(ev)),
    ...skillEffectOf(ev, system.primary?.summary ?? null),
    candidate: candidateOf(chosen, candidateId),
    loop,
    proposed_cases: proposedOf(upTo),
    nightly,
    trend: trendOf(inp.history, m, loop, primaryRate, runId, trendMatch),
    notes: inp.damaged?.length ? [`DAMAGED RUN: ${inp.damaged.length} file(s) of this run failed verification and are left out of this report (${inp.damaged.map((d) => `${d.file}: ${d.kind}`).join('; ')}); nothing below comes from them`, ...notes] : notes,
    ...(inp.damaged?.length ? { damaged: inp.damaged } : {}),
  };
}

/** The skill against no skill, from a standalone evaluation measured `--without-skill` (src/measure/skill-effect.ts). */
function skillEffectOf(ev: Json | undefined, withSkill: Rate | null): Pick<ReportModel, 'skill_effect'> {
  const w = obj(at(ev, 'without_skill'));
  const summary = obj(w?.summary);
  const effect = obj(w?.effect);
  const paired = pairedCounts.safeParse(w?.paired);
  if (!w || !summary || !effect || !paired.success || !withSkill) return {};
  const n = (v: unknown) => (typeof v === 'number' ? v : null);
  return {
    skill_effect: {
      with_skill: withSkill,
      without_skill: rateOf(int(summary.passed) ?? 0, int(summary.failed) ?? 0, int(summary.errors) ?? 0, int(summary.total_tasks)),
      effect: n(effect.effect),
      low: n(effect.low),
      high: n(effect.high),
      tasks: int(effect.tasks) ?? 0,
      method: str(effect.method) ?? '',
      paired: paired.data,
    },
  };
}
