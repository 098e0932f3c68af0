// The gate's checks on a noisy engine (docs/method.md: Deciding on a noisy agent): the evidence is every
// attempt, compared task by task. The keep rests on the sequential test the evaluate stage ran, replayed
// here from its recorded looks (a record whose boundaries or counts do not recompute is refused as
// evidence); new failures and category drops count only when the attempts support them
// (src/evaluation/noisy-checks.ts). Pure: gate.json is written from what this returns.
import type { Thresholds } from '../../src/config/thresholds.js';
import type { PipelineEvaluation, SequentialRecord } from '../../src/artifacts/evaluation.js';
import type { Check, GateArtifact } from '../../src/artifacts/gate.js';
import { categoryDrops, supportedRegressions } from '../../src/evaluation/noisy-checks.js';
import { GUARD_FROM, GUARD_POWER, type RegressionGuard } from '../../src/evaluation/regression-guard.js';
import { guardOfRecord, withGuardRounds } from '../../src/measure/guard-verdict.js';
import { cmh, replay, settingsOfRecord, taskDiffs, type TaskPair } from '../../src/evaluation/sequential.js';
import { runLevelWords, taskLevelTest, type RunLevel } from '../../src/evaluation/run-level.js';
import { decisionWords } from '../../src/measure/sequential-words.js';
import { signed4 as sign } from '../../src/core/numbers.js';

type TaskResult = PipelineEvaluation['candidate_results'][number];

const judgedOf = (r: TaskResult) => r.judged ?? Math.max(0, r.attempts - r.errors);

/** Every task's attempt counts: held-out ones over all rounds, train ones from the first measurement. */
function allPairs(e: PipelineEvaluation, seq: SequentialRecord): { pairs: TaskPair[]; categoryOf: Map<string, string> } {
  const held = new Map(seq.tasks.map((t) => [t.task_id, t]));
  const base = new Map(e.baseline_results.map((r) => [r.task_id, r]));
  const categoryOf = new Map(e.candidate_results.map((r) => [r.task_id, r.category]));
  const pairs: TaskPair[] = [...seq.tasks];
  for (const c of e.candidate_results) {
    const b = base.get(c.task_id);
    if (held.has(c.task_id) || !b) continue;
    pairs.push({ task_id: c.task_id, candidate: { passes: c.passes, judged: judgedOf(c) }, baseline: { passes: b.passes, judged: judgedOf(b) } });
  }
  return { pairs, categoryOf };
}

/** The new-failures line: what the guard found, how it tests, and the fall it could find at the attempts run. */
export function guardWords(g: RegressionGuard, alpha: number, most: number): string {
  const found = g.regressions.length ? `: ${g.regressions.slice(0, 5).map((r) => `${r.task_id} p ${r.p}`).join(', ')}` : '';
  const power = g.detectable === null ? `at ${g.statedAt} attempt(s) per variant no fall from ${GUARD_FROM.toFixed(1)} could show` : `could detect a task falling from ${GUARD_FROM.toFixed(1)} to ${g.detectable.toFixed(2)} at ${g.statedAt} attempt(s) per variant (${GUARD_POWER * 100}% power)`;
  const followed = g.followed ? `; ${g.followed.tasks} task(s) that looked worse when the test stopped at ${g.followed.from} were followed toward ${g.followed.to} attempts` : '';
  return `${g.regressions.length} held-out task(s) whose own attempts show the candidate worse (one-sided Boschloo exact per task at ${alpha}, ${g.tasks} tasks)${found}${followed}; ${power}; at most ${most}`;
}

/** Why the record cannot be evidence, if it cannot: settings not the registered ones, looks or counts that do not recompute. */
export function recordProblems(seq: SequentialRecord, t: Thresholds, level: RunLevel): string[] {
  const problems: string[] = [];
  const set = seq.settings;
  if (set.run_significance === undefined || set.max_iterations === undefined) problems.push(`the test ran without the run-level design (each candidate at significance ÷ loop.max_iterations, issue 38): re-evaluate the candidate`);
  else {
    if (set.run_significance !== t.significance) problems.push(`significance ${set.run_significance} is not the registered ${t.significance}`);
    if (set.max_iterations !== level.max_iterations) problems.push(`loop.max_iterations ${set.max_iterations} is not the registered ${level.max_iterations}`);
    if (Math.abs(set.significance - level.per_candidate) > 1e-9) problems.push(`the per-candidate level ${set.significance} is not ${t.significance}/${level.max_iterations} = ${level.per_candidate}`);
  }
  if (set.min_effect !== t.min_effect) problems.push(`min_effect ${set.min_effect} is not the registered ${t.min_effect}`);
  const s = settingsOfRecord(set);
  problems.push(...replay(seq.looks, s).problems);
  const last = seq.looks.at(-1)!;
  const c = cmh(seq.tasks);
  if (Math.abs(c.score - last.score) > 1e-4 || Math.abs(c.info - last.info) > 1e-4) problems.push(`the tasks' counts give score ${c.score.toFixed(4)} / information ${c.info.toFixed(4)}, the last look records ${last.score} / ${last.info}`);
  if ((last.decision === 'keep') !== (seq.decision === 'keep')) problems.push(`decision ${seq.decision} is not the last look's ${last.decision}`);
  const held = new Set(seq.tasks.map((x) => x.task_id));
  for (const x of withGuardRounds(seq)) if (Math.max(x.candidate.judged, x.baseline.judged) > set.max_attempts) problems.push(`${x.task_id}: more than max_attempts ${set.max_attempts} attempts with the guard's rounds`);
  for (const x of seq.guard?.tasks ?? []) if (!held.has(x.task_id)) problems.push(`the guard followed ${x.task_id}, not a held-out task of the rounds`);
  return problems;
}

export function noisyChecks(e: PipelineEvaluation, seq: SequentialRecord, t: Thresholds, level: RunLevel): { checks: Check[]; holdout: NonNullable<GateArtifact['holdout']>; sequential: NonNullable<GateArtifact['sequential']> } {
  const checks: Check[] = [];
  const problems = recordProblems(seq, t, level);
  checks.push({ id: 'sequential_record', passed: problems.length === 0, detail: problems.length ? `evaluation.json's rounds do not recompute: ${problems.join('; ')}` : `${seq.looks.length} look(s) recomputed from their counts` });
  const share = (side: 'candidate' | 'baseline') => {
    const ps = seq.tasks.filter((x) => x[side].judged > 0);
    return ps.length ? ps.reduce((a, x) => a + x[side].passes / x[side].judged, 0) / ps.length : 0;
  };
  const effect = seq.effect.effect ?? 0;
  const words = decisionWords(seq);
  checks.push({
    id: 'holdout_gain',
    passed: seq.decision === 'keep' && effect > 0 && effect >= t.min_delta,
    detail: `${seq.decision === 'keep' ? 'sequential test: better' : 'sequential test: not better'} — ${words}${t.min_delta > 0 ? `; needs an effect ≥ ${t.min_delta}` : ''}`,
  });
  const candRate = share('candidate');
  checks.push({ id: 'min_pass_rate', passed: candRate >= t.min_pass_rate, detail: `held-out share of passed attempts ${candRate.toFixed(4)} ≥ ${t.min_pass_rate}` });
  const { pairs, categoryOf } = allPairs(e, seq);
  const guard = guardOfRecord(seq, t.significance);
  const regressions = guard.regressions;
  checks.push({ id: 'new_failures', passed: regressions.length <= t.max_new_failures, detail: guardWords(guard, t.significance, t.max_new_failures) });
  const byCategory = new Map<string, TaskPair[]>();
  for (const p of pairs) {
    const c = categoryOf.get(p.task_id) ?? 'other';
    byCategory.set(c, [...(byCategory.get(c) ?? []), p]);
  }
  const drops = categoryDrops(byCategory, t.category_tolerance, t.significance).filter((d) => d.supported);
  checks.push({
    id: 'category_tolerance',
    passed: drops.length === 0,
    detail: drops.length ? `categories whose attempts show a drop beyond ${t.category_tolerance}: ${drops.map((d) => `${d.category} ${sign(d.delta)} (p ${d.p})`).join(', ')}` : `no category shows a supported drop beyond ${t.category_tolerance}`,
  });
  // The run-level claim: this candidate was tested at significance ÷ max_iterations (replayed above), and
  // a keep also passed the task-level t test at its last look (recomputed here from the tasks' counts).
  const diffs = taskDiffs(seq.tasks);
  const tl = taskLevelTest(diffs, level.per_candidate);
  const tText = `task-level one-sided t ${tl.t === null ? '—' : tl.t.toFixed(2)} ${tl.passed ? '≥' : '<'} ${tl.critical === null ? '—' : tl.critical.toFixed(2)} over ${diffs.length} task(s) with information, at ${level.per_candidate}`;
  checks.push({
    id: 'significance',
    passed: seq.decision !== 'keep' || tl.passed,
    detail: `the sequential test at ${level.per_candidate} is the significance test (stage-wise p ${seq.p_value}); ${tText}; ${runLevelWords(level)}`,
  });
  const fixes = supportedRegressions(seq.tasks.map((x) => ({ task_id: x.task_id, candidate: x.baseline, baseline: x.candidate })), t.significance).map((r) => r.task_id);
  return {
    checks,
    holdout: {
      tasks: seq.effect.tasks,
      candidate_pass_rate: Number(candRate.toFixed(4)),
      baseline_pass_rate: Number(share('baseline').toFixed(4)),
      delta: Number(effect.toFixed(4)),
      fixes,
      regressions: regressions.map((r) => r.task_id),
      p_value: seq.p_value,
      effect_ci95: { low: seq.effect.low, high: seq.effect.high },
    },
    sequential: {
      decision: seq.decision,
      rounds: seq.rounds,
      attempts: seq.attempts,
      max_attempts: seq.settings.max_attempts,
      engine_calls: seq.calls.engine,
      judge_calls: seq.calls.judge,
      calls_every_attempt: seq.calls.every_attempt,
      calls_saved: seq.calls.saved,
      power: seq.power,
      min_effect: seq.settings.min_effect,
      attempts_for_80: seq.attempts_for_80,
      words: `${seq.decision === 'keep' ? 'kept' : 'rejected'}: ${words}`,
    },
  };
}
