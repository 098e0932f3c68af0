// A nightly run measures one variant, so it has no candidate-vs-baseline comparison; its comparison is with
// the previous night of the same target, which `whet nightly` recorded in the day file (drift.ts). This
// finds the night that names the run and turns its drift record into the report's `nightly` section,
// so every format shows the night-vs-night test instead of only a chart tooltip.
import { dirname, resolve } from 'node:path';
import { targetKey } from '../config/targets.js';
import { driftReport } from '../nightly/schema.js';
import { sequentialWords } from '../nightly/drift-noisy.js';
import { arr, at, isObj, str, type Json, type NightDay } from './inputs.js';
import type { ReportModel } from './model-schema.js';

type Night = NonNullable<ReportModel['nightly']>;

/** The newest night whose targets name this run (a night's day file holds the full drift record). */
export function nightOfRun(days: NightDay[], runId: string): { day: NightDay; target: Json; siblings: number } | undefined {
  const sorted = [...days].sort((a, b) => a.file.localeCompare(b.file, 'en', { numeric: true }));
  for (const day of sorted.reverse()) {
    const targets = arr(day.json.targets).filter(isObj);
    const target = targets.find((t) => t.run_id === runId);
    if (target) return { day, target, siblings: targets.filter((t) => t.target === target.target).length };
  }
  return undefined;
}

/**
 * Tonight against the previous night. The drift record keeps the regressions, the fixes and per-category
 * rates before and after over the paired tasks; the both-pass count is recovered from those rates
 * (passes before = both pass + regressed), so the table reads like a candidate-vs-baseline one.
 */
export function nightlyOf(found: ReturnType<typeof nightOfRun>): Night | null {
  if (!found) return null;
  const parsed = driftReport.safeParse(found.target.drift);
  if (!parsed.success) return null;
  const d = parsed.data;
  const passedBefore = Object.values(d.per_category).reduce((n, c) => n + (c.before === null ? 0 : Math.round(c.before * c.tasks)), 0);
  const bothPass = Math.max(0, passedBefore - d.regressions.length);
  return {
    date: str(found.day.json.date) ?? found.day.file.replace(/\.json$/, ''),
    file: found.day.file,
    target_key: str(found.target.target_key) ?? null,
    label: str(found.target.label) ?? str(found.target.target) ?? '?',
    compared_with: d.compared_with,
    tasks_compared: d.tasks_compared,
    both_pass: bothPass,
    both_fail: Math.max(0, d.tasks_compared - bothPass - d.fixes.length - d.regressions.length),
    fixed: d.fixes.length,
    regressed: d.regressions.length,
    fixes: d.fixes,
    regressions: d.regressions,
    p_value: d.p_value,
    // The paired counts and this p are the first attempts' by status; on a noisy engine `noisy_test` decided.
    method: 'exact McNemar',
    pass_rate_change: d.pass_rate_change,
    per_category: Object.entries(d.per_category).map(([category, c]) => ({ category, ...c })),
    critical_failures: d.critical_failures,
    engine_failed: d.engine_failed,
    changed: d.changed,
    cause: d.cause,
    alert: d.alert,
    reasons: d.reasons,
    noisy_test: d.sequential
      ? {
          test: d.sequential.method,
          decision: d.sequential.decision,
          attempts: d.sequential.attempts,
          previous_attempts: d.sequential.previous_attempts,
          rounds: d.sequential.rounds,
          tasks: d.sequential.tasks,
          effect: d.sequential.effect.effect,
          low: d.sequential.effect.low,
          high: d.sequential.effect.high,
          p_value: d.sequential.p_value,
          summary: sequentialWords(d.sequential),
        }
      : null,
  };
}

/**
 * The target keys this run belongs to, for matching nightly history lines: the key its night recorded,
 * else the key targets.ts gives the run's skill and suite with no engine override (a run outside
 * `whet nightly` does not record an override, and the config's default engine is the common case).
 */
export function runTargetKeys(manifest: Json | undefined, night: Night | null): string[] {
  if (night?.target_key) return [night.target_key];
  const skill = str(at(manifest, 'target', 'skill_dir')) ?? (str(at(manifest, 'target', 'skill_path')) ? dirname(str(at(manifest, 'target', 'skill_path'))!) : undefined);
  const suite = str(at(manifest, 'suite', 'path'));
  return skill && suite ? [targetKey(resolve(skill), resolve(suite), undefined)] : [];
}
