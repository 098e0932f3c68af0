// Tonight against the previous night of the same target: a paired test on the tasks both nights judged
// (exact McNemar), per-category changes on those same paired tasks, new failures of tasks marked critical,
// and what changed in between (skill, suite, engine, judge engine, evaluation settings — from the hashes),
// because that tells the user where to look. A night that judged nothing is an engine failure, not a drop.
// On a noisy engine, with attempt counts on both nights, the alert is decided by the noisy test instead
// (drift-noisy.ts); the paired status counts are still shown, as what the first attempts did.
import { tooManyErrors } from '../evaluation/summary.js';
import type { SequentialSettings } from '../evaluation/sequential.js';
import { THRESHOLD_DEFAULTS } from '../config/thresholds.js';
import { mcnemarExact } from '../stats/index.js';
import { countsOf, dropLook, hasCounts, MCNEMAR, nightPairs, nightSequential, NIGHT_METHOD, sequentialWords, type NoisyOutcome } from './drift-noisy.js';
import type { DriftReport, EvalSettings, NightRecord, NightRecordRead, NightSequential, NightTask } from './schema.js';
import { round4 } from '../core/numbers.js';

export type { DriftReport, NightRecord, NightTask } from './schema.js';

export interface Changes {
  skill: boolean;
  suite: boolean;
  engine: boolean;
  judge_engine?: boolean;
  /** Settings that differ, each named with its before and after, e.g. "pass_k 1 → 3". */
  settings?: string[];
}

const joinWords = (xs: string[]) => (xs.length <= 1 ? xs.join('') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`);

/** Nothing whetstone can hash changed: same skill, suite, engine config, judge engine and settings. */
export const nothingChanged = (c: Changes) => !c.skill && !c.suite && !c.engine && !c.judge_engine && !c.settings?.length;

/** `resultsChanged`: some task judged both nights passed on one and failed on the other. */
export function describeChange(c: Changes, resultsChanged?: boolean): string {
  const core = (['skill', 'suite', 'engine'] as const).filter((k) => c[k]);
  const same = (['skill', 'suite', 'engine'] as const).filter((k) => !c[k]);
  // The judge engine and the settings are named only when they changed, so the usual statement stays short.
  const extra = [...(c.judge_engine ? ['judge engine'] : []), ...(c.settings?.length ? [`evaluation settings (${c.settings.join(', ')})`] : [])];
  if (core.length === 0 && extra.length === 0) {
    // Every task was measured tonight (the nightly never reads the cache), so a difference here is the
    // engine answering differently to the same inputs: what a nightly run exists to catch.
    if (resultsChanged) return 'results changed while skill, suite and config did not (same content hashes): the model or endpoint behind the engine changed';
    return 'nothing changed (same skill, suite, engine, judge engine and evaluation settings) and every task judged both nights got the same result';
  }
  return `${joinWords([...core, ...extra])} changed${same.length ? `, ${joinWords(same)} unchanged` : ''}`;
}

const fmtMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);

/** The evaluation settings that differ between two nights; a night recorded before settings were kept differs in none. */
export function settingsChanged(before: EvalSettings | undefined, after: EvalSettings): string[] {
  if (!before) return [];
  const out: string[] = [];
  if (before.pass_k !== after.pass_k) out.push(`pass_k ${before.pass_k} → ${after.pass_k}`);
  if (before.task_timeout_ms !== after.task_timeout_ms) out.push(`task timeout ${fmtMs(before.task_timeout_ms)} → ${fmtMs(after.task_timeout_ms)}`);
  return out;
}

function engineFailure(tasks: NightTask[], maxErrorShare: number | undefined): string | undefined {
  const judged = tasks.filter((t) => t.status !== 'error').length;
  const errors = tasks.length - judged;
  if (judged === 0) return `engine failed: nothing was judged (${errors} of ${tasks.length} task(s) errored), so this night says nothing about the skill; check the engine with whet doctor`;
  const partial = maxErrorShare === undefined ? undefined : tooManyErrors({ passed: judged, failed: 0, errors }, maxErrorShare);
  return partial ? `engine failed on part of the suite: ${partial}, so tonight's pass rate is not the suite's; check the engine with whet doctor` : undefined;
}

/** The noisy test's settings (significance is compareNights' own) and, when tonight ran rounds, their outcome. */
export interface NoisyDriftInput {
  minEffect: number;
  maxAttempts: number;
  outcome?: NoisyOutcome;
}

/**
 * The noisy engine's test, when tonight is noisy and both nights kept attempt counts: the rounds' looks
 * when tonight ran them, else one final look at the attempts tonight has (a night merged from shards).
 */
function noisyTest(tonight: NightRecord, previous: NightRecordRead, significance: number, n: NoisyDriftInput | undefined): NightSequential | undefined {
  if (tonight.noise?.deterministic !== false || !hasCounts(previous.tasks) || !hasCounts(tonight.tasks)) return undefined;
  const counts = new Map(tonight.tasks.map((t) => [t.task_id, countsOf(t)!]));
  const pairs = nightPairs(counts, previous.tasks);
  const attempts = Math.max(1, ...tonight.tasks.map((t) => t.attempts ?? t.judged ?? 1));
  const s: SequentialSettings = { significance, minEffect: n?.minEffect ?? THRESHOLD_DEFAULTS.min_effect, maxAttempts: n?.outcome ? Math.max(n.maxAttempts, attempts) : attempts };
  const outcome = n?.outcome ?? { looks: [dropLook([], pairs, { round: 1, attempts }, s)], rounds: 1, attempts, referenceAttempts: attempts, calls: { engine: 0, judge: 0 } };
  return nightSequential(outcome, pairs, s);
}

/**
 * `maxErrorShare`: above it, a night is an engine failure even though some tasks were judged. `noisy`:
 * the noisy test's settings and rounds (used only when tonight's record says the engine is noisy).
 */
export function compareNights(tonight: NightRecord, previous: (NightRecordRead & { label: string }) | undefined, significance: number, maxErrorShare?: number, noisy?: NoisyDriftInput): DriftReport {
  const failed = engineFailure(tonight.tasks, maxErrorShare);
  const base = { fixes: [], regressions: [], critical_failures: [], engine_failed: !!failed, alert: !!failed, reasons: failed ? [failed] : [] };
  if (!previous) {
    return { ...base, compared_with: null, tasks_compared: 0, p_value: null, pass_rate_change: null, per_category: {}, changed: null, cause: 'first night for this target' };
  }
  const before = new Map(previous.tasks.map((t) => [t.task_id, t]));
  const fixes: string[] = [];
  const regressions: string[] = [];
  const critical: string[] = [];
  const cats = new Map<string, { tasks: number; before: number; after: number }>();
  let passBefore = 0;
  let passAfter = 0;
  for (const t of tonight.tasks) {
    const b = before.get(t.task_id);
    if (!b || b.status === 'error' || t.status === 'error') continue;
    const c = cats.get(t.category) ?? { tasks: 0, before: 0, after: 0 };
    c.tasks++;
    if (b.status === 'pass') (c.before++, passBefore++);
    if (t.status === 'pass') (c.after++, passAfter++);
    cats.set(t.category, c);
    if (b.status === 'pass' && t.status === 'fail') {
      regressions.push(t.task_id);
      if (t.critical) critical.push(t.task_id);
    }
    if (b.status === 'fail' && t.status === 'pass') fixes.push(t.task_id);
  }
  const compared = [...cats.values()].reduce((n, c) => n + c.tasks, 0);
  // Categories of either night that have no paired task are shown as — (null) rather than as 0%.
  const allCats = new Set([...previous.tasks, ...tonight.tasks].map((t) => t.category));
  const per_category: DriftReport['per_category'] = {};
  for (const cat of [...allCats].sort()) {
    const c = cats.get(cat);
    per_category[cat] = c ? { tasks: c.tasks, before: round4(c.before / c.tasks), after: round4(c.after / c.tasks), change: round4((c.after - c.before) / c.tasks) } : { tasks: 0, before: null, after: null, change: null };
  }
  const p = mcnemarExact(regressions.length, fixes.length).pValue;
  const changed = {
    skill: tonight.skill_sha256 !== previous.skill_sha256,
    suite: tonight.suite_sha256 !== previous.suite_sha256,
    engine: tonight.engine_sha256 !== previous.engine_sha256,
    judge_engine: previous.judge_engine_sha256 !== undefined && tonight.judge_engine_sha256 !== previous.judge_engine_sha256,
    settings: settingsChanged(previous.settings, tonight.settings),
  };
  const reasons = [...base.reasons];
  const mcnemarDrop = regressions.length > fixes.length && p < significance ? `significant drop: ${regressions.length} task(s) regressed vs ${fixes.length} fixed, exact McNemar p = ${Number(p.toPrecision(4))} < ${significance}` : undefined;
  const seq = compared ? noisyTest(tonight, previous, significance, noisy) : undefined;
  let criticalFailures = critical;
  if (!seq) {
    if (mcnemarDrop) reasons.push(mcnemarDrop);
    if (critical.length) reasons.push(`critical task(s) newly failing: ${critical.join(', ')}`);
  } else {
    // A flip of one task is noise here: the first attempts' counts and the critical tasks that fell are
    // named only once the test has decided drift, and otherwise a critical task raises an alert only when
    // its own attempts show the drop (Fisher exact, Holm over the tasks compared).
    const isCritical = new Set(tonight.tasks.filter((t) => t.critical).map((t) => t.task_id));
    const supported = seq.supported_drops.map((d) => d.task_id).filter((id) => isCritical.has(id));
    criticalFailures = [...new Set([...(seq.decision === 'drift' ? critical : []), ...supported])];
    if (seq.decision === 'drift') reasons.push(`drift on a noisy engine: ${sequentialWords(seq).replace(/^drift: /, '')}`);
    if (seq.decision === 'drift' && mcnemarDrop) reasons.push(mcnemarDrop);
    if (criticalFailures.length) reasons.push(`critical task(s) newly failing: ${criticalFailures.join(', ')}`);
  }
  return {
    ...base,
    compared_with: previous.label,
    tasks_compared: compared,
    fixes,
    regressions,
    p_value: compared ? Number(p.toPrecision(6)) : null,
    pass_rate_change: compared ? round4((passAfter - passBefore) / compared) : null,
    per_category,
    critical_failures: criticalFailures,
    changed,
    cause: describeChange(changed, fixes.length + regressions.length > 0),
    engine_behaviour_changed: nothingChanged(changed) && fixes.length + regressions.length > 0,
    alert: reasons.length > 0,
    reasons,
    ...(seq ? { test: NIGHT_METHOD, sequential: seq } : tonight.noise ? { test: MCNEMAR } : {}),
  };
}

