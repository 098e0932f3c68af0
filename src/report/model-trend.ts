// The pass rate over time: one point per night from the nightly history of the run's target when there is
// one, else the baseline of each iteration of a loop run, else the run itself — each point with its counts
// and its Wilson interval, so a chart can draw the band and a reader can see how much a move means.
import { dirname, resolve } from 'node:path';
import { at, bool, int, num, obj, round4, str, type IterationInputs, type Json } from './inputs.js';
import type { Rate, ReportModel } from './model-schema.js';
import { rateOf } from './model-system.js';

type Trend = ReportModel['trend'];
type LoopRow = ReportModel['loop'][number];

/** Paths an older, keyless history line's `target` may use for this run's skill: the folder or its SKILL.md. */
export function targetKeys(manifest: Json | undefined): string[] {
  const keys = new Set<string>();
  const file = str(at(manifest, 'target', 'skill_path'));
  const dir = str(at(manifest, 'target', 'skill_dir'));
  if (file) keys.add(resolve(file)).add(resolve(dirname(file)));
  if (dir) keys.add(resolve(dir));
  return [...keys];
}

export function summaryRate(s: unknown): Rate | null {
  const o = obj(s);
  if (!o) return null;
  const passed = int(o.passed);
  const failed = int(o.failed);
  if (passed === undefined || failed === undefined) return null;
  return rateOf(passed, failed, int(o.errors) ?? 0, int(o.total_tasks));
}

/** How this run's history lines are recognised: by target key, and by skill path for lines without one. */
export interface TrendMatch {
  keys: string[];
  byPath: boolean;
}

function historyPoints(history: Json[], paths: string[], match: TrendMatch): Trend['points'] {
  const mine = history.filter((h) => {
    // A target is skill + suite + engine: the same skill measured with two suites has two series.
    const key = str(h.target_key);
    if (key) return match.keys.includes(key);
    const t = str(h.target);
    return match.byPath && t !== undefined && paths.includes(resolve(t));
  });
  mine.sort((a, b) => (str(a.date) ?? '').localeCompare(str(b.date) ?? ''));
  return mine.flatMap((h) => {
    const passed = int(h.passed);
    const failed = int(h.failed);
    if (passed === undefined || failed === undefined) return [];
    const r = rateOf(passed, failed, int(h.errors) ?? 0);
    const low = num(at(h, 'pass_rate_ci95', 'low')) ?? num(at(h, 'ci95', 'low'));
    const high = num(at(h, 'pass_rate_ci95', 'high')) ?? num(at(h, 'ci95', 'high'));
    const alert = bool(at(h, 'drift', 'alert')) ?? false;
    return [
      {
        label: str(h.date) ?? '?',
        passed,
        judged: r.judged,
        pass_rate: r.pass_rate,
        pass_rate_ci95: low !== undefined && high !== undefined ? { low: round4(low), high: round4(high) } : r.pass_rate_ci95,
        alert,
        note: str(at(h, 'drift', 'reason')) ?? null,
      },
    ];
  });
}

export function loopRows(iterations: IterationInputs[]): LoopRow[] {
  return iterations.map((it) => {
    const stop = obj(at(it.learning, 'stop'));
    return {
      iteration: it.n,
      baseline: summaryRate(at(it.baseline, 'evaluation')),
      candidate_id: str(at(it.evaluation, 'candidate_id')) ?? null,
      candidate: summaryRate(at(it.evaluation, 'evaluation', 'candidate')),
      decision: str(at(it.gate, 'decision')) ?? null,
      stop: stop && stop.stop === true ? `${str(stop.rule) ?? 'stop'}: ${str(stop.reason) ?? ''}` : null,
    };
  });
}

export function trendOf(history: Json[], manifest: Json | undefined, loop: LoopRow[], primary: Rate | null, runId: string, match: TrendMatch = { keys: [], byPath: true }): Trend {
  const nights = historyPoints(history, targetKeys(manifest), match);
  if (nights.length > 0) return { source: 'nightly', points: nights };
  const its = loop.filter((r) => r.baseline && r.baseline.judged > 0);
  if (its.length > 0) {
    return {
      source: 'iterations',
      points: its.map((r) => ({ label: `iter ${r.iteration}`, passed: r.baseline!.passed, judged: r.baseline!.judged, pass_rate: r.baseline!.pass_rate, pass_rate_ci95: r.baseline!.pass_rate_ci95, alert: false, note: r.decision ? `gate: ${r.decision}` : null })),
    };
  }
  if (primary && primary.judged > 0) {
    return { source: 'run', points: [{ label: runId, passed: primary.passed, judged: primary.judged, pass_rate: primary.pass_rate, pass_rate_ci95: primary.pass_rate_ci95, alert: false, note: null }] };
  }
  return { source: 'none', points: [] };
}
