// The plan of an evaluation before it spends anything (issue 27 §4; docs/method.md: The plan): on a
// noisy engine, how many attempts per held-out task the sequential test expects to take, the engine calls
// that costs, the power it has for thresholds.min_effect, and — when that power is short of 80% — the
// attempts or held-out tasks that would reach it. The held-out tasks' pass chances come from the cached
// baseline of this skill when there is one, else ½ each (the most variable case, so the plan errs toward
// more attempts); `whet plan --pilot` measures the baseline first (the run would measure it anyway, and
// reads it from the cache then). `whet plan` adds the regression guard's rounds, simulated (guard-calls.ts);
// the line before a run does not, and says so.
import { defersTrain } from './train-after-keep.js';
import { lookupBaseline } from '../evaluation/cache.js';
import { MAX_ATTEMPTS_SEARCHED, planWithSurvival, raisedChances, TARGET_POWER, type Plan } from '../evaluation/plan.js';
import type { LoadedSkill } from '../skill/read.js';
import type { SequentialSettings } from '../evaluation/sequential.js';
import { chanceOf, sequentialSettings } from './held-out-rounds.js';
import { fixesNeeded } from '../evaluation/run-level.js';
import { engineNoise, evaluationKey, type Prepared } from './setup.js';
import { guardTrials, simulatedGuardAttempts } from './guard-calls.js';
import { laterRoundAttempts } from './round-calls.js';

export interface PlanReport {
  deterministic: boolean;
  why: string;
  tasks: number;
  held_out: number;
  /** thresholds.significance: the most often a run may end having kept an edit that does nothing (one-sided). */
  significance: number;
  /** loop.max_iterations, and the level each candidate is tested at: significance ÷ it (issue 38). */
  max_iterations: number;
  per_candidate: number;
  /** A deterministic engine's test: the fewest fixed held-out tasks, none regressed, the sign test can keep. */
  fixes_needed: number;
  min_effect: number;
  max_attempts: number;
  pass_k: number;
  /** Where the pass chances came from. */
  chances_from: string;
  plan: Plan | null;
  /**
   * Engine calls one candidate's evaluation is expected to make (candidate and baseline, judges included),
   * settled tasks left out of the later rounds, before the regression guard's rounds; `every_attempt`
   * (every task, every attempt) bounds those too.
   */
  calls: { no_effect: number; min_effect: number; every_attempt: number } | null;
  /** USD for those calls, when the cached baseline reported its cost. */
  cost_usd: { no_effect: number; min_effect: number; every_attempt: number } | null;
  /**
   * The regression guard's rounds per candidate, with no effect and at min_effect: engine calls simulated
   * on `trials` candidates each at these chances (guard-calls.ts), the standard errors of those means, and
   * their USD when known. Only `whet plan` simulates them; null in the line before a run.
   */
  guard_calls: GuardCallsReport | { skipped: string } | null;
}

export interface GuardCallsReport {
  no_effect: number;
  min_effect: number;
  trials: number;
  se: { no_effect: number; min_effect: number };
  cost_usd: { no_effect: number; min_effect: number } | null;
}

const MODEL_JUDGES = new Set(['llm-rubric', 'llm_rubric']);

/** `searchAttempts: false` for the line before a run: the attempts that would give 80% power are left out. */
export function planReport(p: Prepared, skill: LoadedSkill, now: Date, searchAttempts = true): PlanReport {
  return planParts(p, skill, now, searchAttempts).report;
}

/** The largest suite whose guard's rounds `whet plan` simulates: ≈ 3 s at 5,000 held-out tasks on a 2-core machine. */
export const GUARD_SIMULATED_MAX = 5000;

/** `whet plan`'s report: planReport's, with the regression guard's rounds simulated at its chances. */
export async function planReportWithGuard(p: Prepared, skill: LoadedSkill, now: Date): Promise<PlanReport> {
  const { report, chances, settings: s, callsPerAttempt, perCall } = planParts(p, skill, now, true);
  if (!report.plan || chances.length === 0) return report;
  if (chances.length > GUARD_SIMULATED_MAX) {
    return { ...report, guard_calls: { skipped: `not simulated above ${GUARD_SIMULATED_MAX} held-out tasks (each simulated candidate would take seconds)` } };
  }
  const trials = guardTrials(chances.length);
  const none = await simulatedGuardAttempts(chances, s, p.passK, 0, trials);
  const effect = await simulatedGuardAttempts(chances, s, p.passK, s.minEffect, trials);
  const calls = (x: number) => Math.round(x * callsPerAttempt);
  const usd = (n: number) => Math.round(n * (perCall ?? 0) * 100) / 100;
  const g = { no_effect: calls(none.mean), min_effect: calls(effect.mean) };
  const se = { no_effect: Math.round(none.se * callsPerAttempt * 10) / 10, min_effect: Math.round(effect.se * callsPerAttempt * 10) / 10 };
  return { ...report, guard_calls: { ...g, trials, se, cost_usd: perCall !== undefined ? { no_effect: usd(g.no_effect), min_effect: usd(g.min_effect) } : null } };
}

interface PlanParts {
  report: PlanReport;
  /** The held-out tasks' pass chances the plan assumed, and the design's settings. */
  chances: number[];
  settings: SequentialSettings;
  /** Engine calls per held-out attempt, on average: the answer and its model-graded judges. */
  callsPerAttempt: number;
  /** USD per engine call, when the cached baseline reported its cost. */
  perCall: number | undefined;
}

function planParts(p: Prepared, skill: LoadedSkill, now: Date, searchAttempts: boolean): PlanParts {
  const noise = engineNoise(p);
  const s = sequentialSettings(p);
  const held = p.suite.tasks.filter((t) => t.split === 'holdout');
  const run = s.run ?? { significance: s.significance, maxIterations: 1 };
  const head = { deterministic: noise.deterministic, why: noise.why, tasks: p.suite.tasks.length, held_out: held.length, significance: run.significance, max_iterations: run.maxIterations, per_candidate: s.significance, fixes_needed: fixesNeeded(s.significance), min_effect: s.minEffect, max_attempts: s.maxAttempts, pass_k: p.passK };
  // A deterministic engine decides on one attempt; `whet plan` still says what a noisy one would need.
  if (noise.deterministic && !searchAttempts) return { report: { ...head, chances_from: 'not needed: one attempt per task decides', plan: null, calls: null, cost_usd: null, guard_calls: null }, chances: [], settings: s, callsPerAttempt: 1, perCall: undefined };
  const found = p.useCache ? lookupBaseline(p.cacheDir, evaluationKey(p, skill), p.cacheTtlMs, now) : undefined;
  const byId = found?.hit ? new Map(found.entry.tallies.map((t) => [t.task_id, t])) : undefined;
  const measured = byId ? held.flatMap((t) => { const x = byId.get(t.id); return x && x.judged > 0 ? [chanceOf(x)] : []; }) : [];
  const fromCache = measured.length === held.length && held.length > 0;
  const chances = fromCache ? measured : held.map(() => 0.5);
  const { plan: pl, survival } = planWithSurvival({ chances, settings: s, firstAttempts: p.passK }, searchAttempts);
  // Calls per attempt: the task's answer plus one per model-graded judge.
  const perAttempt = (t: (typeof held)[number]) => 1 + t.judges.filter((j) => MODEL_JUDGES.has(j.type)).length;
  const heldCalls = held.reduce((a, t) => a + perAttempt(t), 0);
  const once = (split: 'train' | 'holdout') => p.suite.tasks.reduce((a, t) => a + (t.split === split ? perAttempt(t) * (t.passK ?? p.passK) : 0), 0);
  // The calls are a noisy engine's (on a deterministic one they say what a model would cost), whose
  // candidate runs its train tasks only once kept (train-after-keep.ts): paid at the keep rate.
  const defer = defersTrain(p, false);
  const firstRound = (once('holdout') + (defer ? 0 : once('train'))) * 2;
  const afterKeep = (keepRate: number) => (defer ? Math.round(once('train') * keepRate) : 0);
  // The later rounds give attempts only to tasks not yet settled (round-calls.ts); every attempt, to all.
  const weights = held.map(perAttempt);
  const later = (which: 'none' | 'minEffect') => Math.round(laterRoundAttempts(chances, which === 'none' ? chances : raisedChances(chances, s.minEffect), weights, survival, which, p.passK));
  const calls = {
    no_effect: firstRound + later('none') + afterKeep(s.significance),
    min_effect: firstRound + later('minEffect') + afterKeep(pl.power),
    every_attempt: firstRound + Math.round(Math.max(0, s.maxAttempts - p.passK) * heldCalls * 2) + afterKeep(1),
  };
  const usage = found?.hit && found.entry.usage.cost_reported ? found.entry.usage : undefined;
  const attemptsCached = found?.hit ? found.entry.tallies.reduce((a, t) => a + t.judged + t.errors, 0) : 0;
  const perCall = usage && attemptsCached > 0 ? usage.cost_usd / attemptsCached : undefined;
  const usd = (n: number) => Math.round(n * (perCall ?? 0) * 100) / 100;
  const report: PlanReport = {
    ...head,
    chances_from: fromCache ? `the cached baseline of this skill (${held.length} held-out task(s))` : 'assumed ½ per held-out task: no baseline of this skill is cached yet (whet plan --pilot measures one)',
    plan: pl,
    calls,
    cost_usd: perCall !== undefined ? { no_effect: usd(calls.no_effect), min_effect: usd(calls.min_effect), every_attempt: usd(calls.every_attempt) } : null,
    guard_calls: null,
  };
  return { report, chances, settings: s, callsPerAttempt: held.length ? heldCalls / held.length : 1, perCall };
}

const pts = (x: number) => `+${Math.round(x * 100)} points`;

/** The run-level claim in one clause (issue 38). */
export const runClaim = (r: Pick<PlanReport, 'significance' | 'max_iterations' | 'per_candidate'>) =>
  `a run keeps an edit that does nothing at most ${r.significance} of the time (one-sided; each of at most ${r.max_iterations} candidate(s) tested at ${r.per_candidate})`;

/** One line, printed before a run, an evaluation or a nightly spends anything. */
export function planLine(r: PlanReport): string {
  if (r.deterministic) return `plan: ${r.why}; one attempt per task decides, on ${r.held_out} held-out task(s)${r.held_out === 0 ? ' — none: the gate cannot keep anything (add tasks or set loop.holdout_ratio)' : `; a keep needs the one-sided sign test at ${r.per_candidate}: at least ${r.fixes_needed} fixed held-out tasks with none regressed${r.fixes_needed > r.held_out ? ` — more than this suite holds${r.why.includes('mock') ? ' (on the mock the test is shown, not enforced)' : ': add held-out tasks'}` : ''}`}; ${runClaim(r)}`;
  const pl = r.plan!;
  const power = `power ${pl.power.toFixed(2)} for ${pts(r.min_effect)} (what the design is sized for) at ${r.per_candidate} per candidate within ${r.max_attempts} attempts per held-out task`;
  const spend = `expected ${pl.expectedAttempts.none.toFixed(1)} attempts per held-out task with no effect, ${pl.expectedAttempts.minEffect.toFixed(1)} at ${pts(r.min_effect)}; ≈ ${r.calls!.min_effect} engine calls per candidate before the regression guard's rounds, which whet plan simulates (every attempt: ${r.calls!.every_attempt})${r.cost_usd ? `, ≈ $${r.cost_usd.min_effect.toFixed(2)}` : ''}`;
  const needs = [...(pl.attemptsFor80 !== null ? [`evaluate.max_attempts ${pl.attemptsFor80}`] : []), ...(pl.tasksFor80 !== null ? [`${pl.tasksFor80} held-out tasks`] : [])];
  const verdict = pl.canFind ? `can find ${pts(r.min_effect)}` : `cannot reliably find ${pts(r.min_effect)}${needs.length ? ` (80% power needs ${needs.join(' or ')}; whet plan says more)` : ' (whet plan says what would)'}`;
  return `plan: ${r.held_out} held-out task(s), ${verdict}; ${power}; ${spend}; ${runClaim(r)}; chances from ${r.chances_from}`;
}

/** `whet plan`'s text: the line's figures one per line, and the sources behind them. */
export function planText(r: PlanReport): string {
  const out = [`whet plan — ${r.tasks} task(s), ${r.held_out} held out · significance ${r.significance} over the run (${r.per_candidate} per candidate, max_iterations ${r.max_iterations}) · min_effect ${r.min_effect} · max_attempts ${r.max_attempts} · pass_k ${r.pass_k}`];
  out.push(`engine: ${r.deterministic ? 'deterministic' : 'noisy'} (${r.why})`);
  out.push(`run-level: ${runClaim(r)}`);
  if (r.deterministic) out.push(`one attempt per task: the gate decides on the ${r.held_out} held-out task(s) as measured, with no rounds; a keep needs the one-sided exact sign test at ${r.per_candidate}, at least ${r.fixes_needed} fixed held-out tasks with none regressed${r.why.includes('mock') ? ' (on the mock engine the test is shown, not enforced: a demonstration)' : ''}`);
  if (!r.plan) return out.join('\n');
  const pl = r.plan;
  if (r.deterministic) out.push('', 'on an engine whose answers vary from call to call (a real model), this suite would have:');
  out.push(`pass chances: ${r.chances_from}`);
  out.push(`power for ${pts(r.min_effect)} (min_effect: what the design is sized for, not a bar a keep must clear): ${pl.power.toFixed(2)} (target ${TARGET_POWER})${pl.canFind ? '' : ' — this suite cannot reliably find it'}`);
  out.push(`attempts per held-out task per variant: expected ${pl.expectedAttempts.none.toFixed(1)} with no effect, ${pl.expectedAttempts.minEffect.toFixed(1)} at ${pts(r.min_effect)}, at most ${r.max_attempts}`);
  const c = r.calls!;
  const g = r.guard_calls && 'trials' in r.guard_calls ? r.guard_calls : null;
  if (g) {
    // The guard's rounds (src/measure/rounds.ts), simulated (guard-calls.ts): the totals a budget needs, and
    // how much of them the guard is.
    out.push(`engine calls per candidate (both variants, judges included): ≈ ${c.no_effect + g.no_effect} with no effect, ≈ ${c.min_effect + g.min_effect} at ${pts(r.min_effect)}, ${c.every_attempt} if every attempt ran`);
    out.push(`  of which the regression guard's rounds on tasks that look worse after the decision: ≈ ${g.no_effect} (± ${g.se.no_effect}) and ≈ ${g.min_effect} (± ${g.se.min_effect}), simulated on ${g.trials} candidates each at these chances`);
    if (r.cost_usd) out.push(`cost per candidate: ≈ $${(r.cost_usd.no_effect + (g.cost_usd?.no_effect ?? 0)).toFixed(2)} / $${(r.cost_usd.min_effect + (g.cost_usd?.min_effect ?? 0)).toFixed(2)} / $${r.cost_usd.every_attempt.toFixed(2)}`);
  } else {
    const skipped = r.guard_calls && 'skipped' in r.guard_calls ? `, ${r.guard_calls.skipped},` : '';
    out.push(`engine calls per candidate (both variants, judges included): ≈ ${c.no_effect} with no effect, ≈ ${c.min_effect} at ${pts(r.min_effect)}, ${c.every_attempt} if every attempt ran; the regression guard's rounds on tasks that look worse after the decision${skipped} come on top of the first two, within the third`);
    if (r.cost_usd) out.push(`cost per candidate: ≈ $${r.cost_usd.no_effect.toFixed(2)} / $${r.cost_usd.min_effect.toFixed(2)} / $${r.cost_usd.every_attempt.toFixed(2)}`);
  }
  if (!pl.canFind) out.push(`for 80% power: ${pl.attemptsFor80 !== null ? `evaluate.max_attempts ${pl.attemptsFor80}` : `more than ${MAX_ATTEMPTS_SEARCHED} attempts per task`}${pl.tasksFor80 !== null ? `, or ${pl.tasksFor80} held-out tasks at max_attempts ${r.max_attempts}` : ''}, or a larger thresholds.min_effect`);
  return out.join('\n');
}
