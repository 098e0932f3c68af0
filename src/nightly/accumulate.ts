// A slow decline seen (issue 39): tonight against the previous night never sees a model that loses two
// points a night — each difference is small, and they never add up. So each night is also compared with a
// fixed reference night (the first night measured since the skill, suite, engine or settings last
// changed, or one set on purpose with `whet nightly --set-reference`), and the evidence of a drop is
// accumulated over nights by a one-sided CUSUM: S = max(0, S_prev + (−z) − K), an alert when S > H, then
// S starts again from 0 (the reference stays). z is tonight minus the reference, paired by task, over the
// standard error the two nights' attempts give under no change (each task's pooled chance).
//
// The family of alerts of one target per 30 nights, with nothing changed, is stated and held: the
// night-over-night test at NIGHT_SIGNIFICANCE_SHARE of `significance` per night (0.01 at the default 0.05,
// 0.3 alerts per 30 nights) plus this accumulation, whose K and H give an in-control run length of about
// IN_CONTROL_NIGHTS nights (0.3 per 30 nights): at most 0.6 per 30 nights per target — measured on seeded
// coins over sequences of nights, the reference's own noise shared by every night compared with it
// (scripts/drift-trials.ts; test/unit/nightly-accumulate.test.ts; npm run bench).
import type { AccumulatedDecline, NightTask } from './schema.js';
import { referenceOf } from './drift-noisy.js';
import { round4 } from '../core/numbers.js';

/**
 * The CUSUM's allowance per night, in standard errors, and its alert threshold: chosen on the simulated
 * model (scripts/drift-trials.ts, 1,000 sequences: 40 tasks, chances 0.3–0.8, 10 attempts a night) among
 * K 0.5–1.25 and H 1.75–6 as the pair that catches a 10-point step on its night or the next most often
 * (93%) while the accumulation alone gives 0.29 false alerts per 30 unchanged nights.
 */
export const CUSUM_K = 1.25;
export const CUSUM_H = 1.75;
/** Nights between false alerts of the accumulation alone, with nothing changed (measured: about 102). */
export const IN_CONTROL_NIGHTS = 100;
/** The night-over-night test's share of `significance` per night in `whet nightly`. */
export const NIGHT_SIGNIFICANCE_SHARE = 0.2;
/** What the design holds to: false alerts per 30 unchanged nights, per target. */
export const FALSE_ALERTS_PER_30 = 1;

/** The night-over-night test's significance in `whet nightly`, from the configured one. */
export const nightSignificance = (significance: number) => Number((significance * NIGHT_SIGNIFICANCE_SHARE).toPrecision(12));

/** Expected false alerts per 30 unchanged nights of one target: both tests added (a bound: they overlap). */
export function falseAlertsPer30(significance: number): { night: number; accumulated: number; total: number } {
  const night = 30 * nightSignificance(significance);
  const accumulated = 30 / IN_CONTROL_NIGHTS;
  return { night: round2(night), accumulated: round2(accumulated), total: round2(night + accumulated) };
}

/** The sentence `whet nightly --help`, `whet plan --nightly` and the nightly report state. */
export function falseAlertsWords(significance: number, targets = 1): string {
  const f = falseAlertsPer30(significance);
  const family = targets > 1 ? `; over the ${targets} targets of this config, up to ${round2(f.total * targets)} per 30 nights (each target is its own family)` : '; each target is its own family: n targets, up to n times that';
  return `expected false alerts with nothing changed: at most ${f.total} per 30 nights per target (night-over-night test at ${Number(nightSignificance(significance).toPrecision(3))} per night: ${f.night}; accumulated decline against the reference night, CUSUM K ${CUSUM_K} H ${CUSUM_H}, in-control run length about ${IN_CONTROL_NIGHTS} nights: ${f.accumulated})${family}`;
}

const round2 = (x: number) => Math.round(x * 100) / 100;

export interface Counts {
  passes: number;
  judged: number;
}

/** Tonight minus the reference, paired by task, in standard errors under no change; null with no information. */
export function declineZ(tonight: ReadonlyMap<string, Counts>, reference: ReadonlyMap<string, Counts>): { z: number | null; change: number | null; tasks: number } {
  let diff = 0;
  let variance = 0;
  let tasks = 0;
  for (const [id, r] of reference) {
    const t = tonight.get(id);
    if (!t || t.judged === 0 || r.judged === 0) continue;
    tasks++;
    diff += t.passes / t.judged - r.passes / r.judged;
    const p = (t.passes + r.passes) / (t.judged + r.judged);
    variance += p * (1 - p) * (1 / t.judged + 1 / r.judged);
  }
  if (tasks === 0) return { z: null, change: null, tasks };
  const change = diff / tasks;
  if (variance === 0) return { z: change === 0 ? 0 : null, change, tasks };
  return { z: diff / Math.sqrt(variance), change, tasks };
}

/** One night of the CUSUM: the statistic after tonight and whether it alerts (then it starts again from 0). */
export function cusumStep(previous: number, z: number | null, k = CUSUM_K, h = CUSUM_H): { statistic: number; alert: boolean } {
  if (z === null) return { statistic: previous, alert: false };
  const s = Math.max(0, previous - z - k);
  return s > h ? { statistic: 0, alert: true } : { statistic: s, alert: false };
}

/** A night's counts as the next nights compare with them: its reference attempts (drift-noisy.ts referenceOf). */
export function countsByTask(tasks: readonly NightTask[]): Map<string, Counts> {
  const out = new Map<string, Counts>();
  for (const t of tasks) {
    const c = referenceOf(t) ?? (t.status === 'error' ? undefined : { passes: t.status === 'pass' ? 1 : 0, judged: 1 });
    if (c) out.set(t.task_id, c);
  }
  return out;
}

export interface AccumulateInput {
  /** Tonight's dated file and label. */
  tonight: { file: string; label: string; tasks: readonly NightTask[] };
  /** The previous night's accumulation (undefined: the first night, or one recorded before it was kept). */
  previous?: AccumulatedDecline;
  /** The reference night's tasks (undefined when its file is gone). */
  reference?: readonly NightTask[];
  /** Tonight starts a new reference: set on purpose, or something whetstone hashes changed. */
  restart?: 'set' | 'changed';
  /** Tonight's engine failed: nothing is added, the statistic is carried. */
  engineFailed?: boolean;
  /** Other K and H (the bench's search for them); the design's otherwise. */
  design?: { k: number; h: number };
}

const design = { k: CUSUM_K, h: CUSUM_H, in_control_nights: IN_CONTROL_NIGHTS };

/** Tonight's accumulation: a new reference, or one more night added to the CUSUM against the reference. */
export function accumulateNight(i: AccumulateInput): AccumulatedDecline {
  const since = i.restart ?? (!i.previous ? 'first night' : !i.reference ? 'reference lost' : undefined);
  if (since) return { reference: { file: i.tonight.file, label: i.tonight.label }, since, nights: 0, z: null, change: null, tasks: 0, statistic: 0, ...design, alert: false };
  const prev = i.previous!;
  const carried = { reference: prev.reference, since: prev.since, nights: prev.nights + 1, ...design };
  if (i.engineFailed) return { ...carried, z: null, change: null, tasks: 0, statistic: prev.statistic, alert: false };
  const d = declineZ(countsByTask(i.tonight.tasks), countsByTask(i.reference!));
  const step = cusumStep(prev.statistic, d.z, i.design?.k, i.design?.h);
  return { ...carried, z: d.z === null ? null : round4(d.z), change: d.change === null ? null : round4(d.change), tasks: d.tasks, statistic: round4(step.statistic), alert: step.alert };
}

/** The alert's reason, in words. */
export function accumulatedWords(a: AccumulatedDecline): string {
  const change = a.change === null ? '' : `, ${a.change >= 0 ? '+' : '−'}${Math.abs(a.change).toFixed(2)} tonight`;
  return `accumulated decline against the reference night ${a.reference.label} (${a.nights} night(s) since${change}, z ${a.z?.toFixed(2) ?? '—'}): the CUSUM of the drop passed ${a.h} (K ${a.k}), which with nothing changed happens about once in ${a.in_control_nights} nights`;
}
