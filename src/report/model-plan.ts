// The report's plan and rounds (issue 27 §4–5): what the run's suite could find on its engine, computed
// from the run's own measurements (the held-out tasks' baseline pass chances) with the registered
// significance, min_effect and max_attempts, and what the rounds of the reported iteration took. Read
// leniently like the rest of the report's inputs: a field an older artifact lacks leaves its part out.
import { plan } from '../evaluation/plan.js';
import { arr, at, bool, int, isObj, num, obj, str, type Json } from './inputs.js';
import type { ReportModel } from './model-schema.js';

const chance = (passes: number, judged: number) => (passes + 0.5) / (judged + 1);

/** The held-out tasks' baseline chances: over every round when the evaluation ran rounds, else its first measurement. */
function chancesOf(ev: Json | undefined): { chances: number[]; deterministic: boolean } | null {
  if (!ev) return null;
  const seq = obj(at(ev, 'evaluation', 'sequential'));
  const deterministic = bool(at(ev, 'evaluation', 'engine_noise', 'deterministic')) ?? bool(at(ev, 'engine', 'mock')) ?? true;
  if (seq) {
    const chances = arr(seq.tasks).flatMap((t) => {
      const p = int(at(t, 'baseline', 'passes'));
      const j = int(at(t, 'baseline', 'judged'));
      return p !== undefined && j !== undefined && j > 0 ? [chance(p, j)] : [];
    });
    return { chances, deterministic };
  }
  const rows = arr(ev.baseline_results ?? ev.task_results).filter((r) => isObj(r) && r.split === 'holdout');
  const chances = rows.flatMap((r) => {
    const passes = int(at(r, 'passes'));
    const judged = int(at(r, 'judged')) ?? (int(at(r, 'attempts')) ?? 0) - (int(at(r, 'errors')) ?? 0);
    return passes !== undefined && judged > 0 ? [chance(passes, judged)] : [];
  });
  return { chances, deterministic };
}

export function planOf(ev: Json | undefined, manifest: Json | undefined, thresholds: Record<string, unknown>): ReportModel['plan'] {
  const c = chancesOf(ev);
  if (!c) return null;
  // The gate's design: each candidate at significance ÷ loop.max_iterations (issue 38).
  const runSignificance = typeof thresholds.significance === 'number' ? thresholds.significance : 0.05;
  const iterations = int(at(ev, 'evaluation', 'sequential', 'settings', 'max_iterations')) ?? int(at(manifest, 'settings', 'max_iterations')) ?? 1;
  const significance = num(at(ev, 'evaluation', 'sequential', 'settings', 'significance')) ?? runSignificance / Math.max(1, iterations);
  const minEffect = typeof thresholds.min_effect === 'number' ? thresholds.min_effect : 0.1;
  const maxAttempts = int(at(ev, 'evaluation', 'sequential', 'settings', 'max_attempts')) ?? int(at(manifest, 'settings', 'max_attempts')) ?? 10;
  const base = { held_out: c.chances.length, significance, min_effect: minEffect, max_attempts: maxAttempts, deterministic: c.deterministic };
  if (c.deterministic || c.chances.length === 0) return { ...base, power: null, expected_attempts_none: null, expected_attempts_min_effect: null, attempts_for_80: null, tasks_for_80: null, can_find: null };
  const pl = plan({ chances: c.chances, settings: { significance, minEffect, maxAttempts }, firstAttempts: int(ev?.pass_k) ?? 1 }, false);
  const r2 = (x: number) => Math.round(x * 100) / 100;
  return { ...base, power: r2(pl.power), expected_attempts_none: r2(pl.expectedAttempts.none), expected_attempts_min_effect: r2(pl.expectedAttempts.minEffect), attempts_for_80: num(at(ev, 'evaluation', 'sequential', 'attempts_for_80')) ?? null, tasks_for_80: pl.tasksFor80, can_find: pl.canFind };
}

/** gate.json's rounds, with the effect and its interval from the evaluation. */
export function roundsOf(gate: Json | undefined): NonNullable<ReportModel['gate']>['sequential'] {
  const s = obj(gate?.sequential);
  if (!s) return null;
  const ci = obj(at(gate, 'holdout', 'effect_ci95'));
  return {
    rounds: int(s.rounds) ?? 0,
    attempts: int(s.attempts) ?? 0,
    max_attempts: int(s.max_attempts) ?? 0,
    calls: (int(s.engine_calls) ?? 0) + (int(s.judge_calls) ?? 0),
    calls_saved: int(s.calls_saved) ?? 0,
    power: num(s.power) ?? null,
    min_effect: num(s.min_effect) ?? 0,
    effect: num(at(gate, 'holdout', 'delta')) ?? null,
    low: num(ci?.low) ?? null,
    high: num(ci?.high) ?? null,
    words: str(s.words) ?? '',
  };
}
