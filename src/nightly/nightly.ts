// `whet nightly`: the baseline of every target, then for each target a comparison with its previous night
// (drift.ts), written as nightly/<date>.json and .md and one line per target in nightly/history.jsonl.
// A drift alert — a significant drop or a critical failure — makes the command exit 1, so a scheduler or
// CI notices; an engine that failed (judged nothing, or errored on more than evaluate.max_error_share of
// a suite) makes it exit 3, like an evaluation whose verdict is error.
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { canonicalJson, sha256, writeArtifact } from '../state/artifact-io.js';
import { InternalError } from '../core/errors.js';
import { localDate } from '../intents/run-intents.js';
import { appendAtomically, writeFileAtomically } from '../core/atomic.js';
import { baselineAll, type BaselineEnv, type TargetBaseline } from './baseline.js';
import { compareNights, nothingChanged } from './drift.js';
import { accumulatedWords, accumulateNight, nightSignificance } from './accumulate.js';
import { driftRounds, type TargetRounds } from './drift-rounds.js';
import { engineNoise } from '../measure/setup.js';
import { historyOf, nightlyDir, previousNight, readHistory, recordAt, toTrendRow, type TrendRow } from './history.js';
import { formatNight } from './night-report.js';
import { historyLine, nightlyDay, NIGHTLY_SCHEMA, type HistoryLine, type NightRecord, type NightTarget } from './schema.js';

export { historyLine, type HistoryLine, type NightTarget } from './schema.js';
export { nightlyDir, readHistory } from './history.js';

/** Nights shown in each target's trend table, tonight included. */
export const TREND_NIGHTS = 7;

export interface NightResult {
  date: string;
  file: string;
  markdown: string;
  targets: NightTarget[];
  alert: boolean;
  /** Some target's engine failed (nothing judged, or more errors than evaluate.max_error_share): exit 3. */
  engineFailed: boolean;
  /** Engine calls tonight over every target. */
  engineCalls: number;
}

/** The skill folder, or — when tonight measures that folder more than one way — with its suite and key. */
function labelOf(r: TargetBaseline, all: TargetBaseline[]): string {
  const t = r.target;
  if (all.filter((x) => x.target.skillDir === t.skillDir).length === 1) return t.skillDir;
  return `${t.skillDir} [suite ${basename(t.suitePath)}, target ${t.key.slice(0, 8)}]`;
}

export async function runNightly(
  e: BaselineEnv,
  o: { config?: string; stateRoot?: string; force?: boolean; mock?: boolean; setReference?: boolean },
  /** Where tonight's baselines come from: measured here, or merged from shards (shard-targets.ts). */
  measure: typeof baselineAll = baselineAll,
): Promise<NightResult | 'interrupted'> {
  // Every task of every target is measured tonight: a cached baseline would hide the one thing a nightly
  // exists to catch, a model or endpoint changing behind the same config. The clean results still
  // refresh the cache for the loop.
  // On a noisy engine each target adds rounds of attempts until its drift test decides (drift-rounds.ts).
  const rounds = new Map<string, TargetRounds>();
  const { cfg, stateDir, results, interrupted } = await measure(e, { ...o, fresh: true, after: driftRounds(rounds, e.log) });
  if (interrupted) return 'interrupted';
  const now = e.now();
  // The day the person reading the report lives in, not UTC's: a 01:00 run in UTC+2 belongs to today.
  const date = localDate(now);
  const dir = nightlyDir(stateDir);
  let name = `${date}`;
  for (let n = 2; existsSync(join(dir, `${name}.json`)); n++) name = `${date}-${n}`;
  const history = readHistory(stateDir);
  const ids = results.map((r) => ({ target: r.target.skillDir, target_key: r.target.key }));
  const trends = new Map<string, TrendRow[]>();
  const targets: NightTarget[] = results.map((r, i) => {
    const a = r.artifact;
    const ev = a.evaluation;
    const tonight = rounds.get(r.target.key);
    const record: NightRecord = {
      target: r.target.skillDir,
      target_key: r.target.key,
      label: labelOf(r, results),
      suite: r.target.suitePath,
      pass_rate: ev.pass_rate,
      skill_sha256: a.inputs.target!,
      suite_sha256: a.inputs.suite!,
      engine_sha256: sha256(canonicalJson(a.engine?.identity ?? {})),
      judge_engine_sha256: sha256(canonicalJson(a.judge_engine?.identity ?? null)),
      settings: { pass_k: a.pass_k, task_timeout_ms: cfg.taskTimeoutMs },
      // Decided from the engine types the run recorded: the same rule its rounds were run by.
      noise: engineNoise({ cfg, engine: a.engine ?? { type: 'mock' }, judgeEngine: a.judge_engine }),
      tasks: a.task_results.map((t) => {
        const more = tonight?.outcome.tonight.get(t.task_id);
        const counts = more ?? { attempts: t.attempts, judged: t.judged ?? t.attempts - t.errors, passes: t.passes };
        // After rounds, the next night compares with the attempts run whatever their results (drift-noisy.ts referenceOf).
        const reference = more ? { reference_judged: more.reference.judged, reference_passes: more.reference.passes } : {};
        return { task_id: t.task_id, status: t.status, category: t.category, ...(t.critical ? { critical: true } : {}), attempts: counts.attempts, judged: counts.judged, passes: counts.passes, ...reference };
      }),
    };
    const mine = historyOf(history, ids[i]!, ids);
    const noisy = { minEffect: cfg.thresholds.min_effect, maxAttempts: tonight?.settings.maxAttempts ?? cfg.maxAttempts, ...(tonight ? { outcome: tonight.outcome } : {}) };
    const previous = previousNight(dir, mine);
    // A noisy engine's night-over-night test runs at the nightly significance (accumulate.ts: its share of the
    // false alerts stated); a deterministic engine flips nothing when nothing changed, so it keeps its own.
    const significance = record.noise?.deterministic === false ? nightSignificance(cfg.thresholds.significance) : cfg.thresholds.significance;
    const drift = compareNights(record, previous, significance, cfg.maxErrorShare, noisy);
    // Besides the previous night, a fixed reference night and the evidence of a drop summed since (accumulate.ts).
    const restart = o.setReference ? 'set' : drift.changed && !nothingChanged(drift.changed) ? 'changed' : undefined;
    const refFile = previous?.accumulated?.reference.file;
    const accumulated = accumulateNight({
      tonight: { file: `${name}.json`, label: `${date} (${a.run_id})`, tasks: record.tasks },
      ...(previous?.accumulated ? { previous: previous.accumulated } : {}),
      ...(refFile ? { reference: recordAt(dir, refFile, record)?.tasks } : {}),
      ...(restart ? { restart } : {}),
      engineFailed: drift.engine_failed,
    });
    drift.accumulated = accumulated;
    if (accumulated.alert) Object.assign(drift, { alert: true, reasons: [...drift.reasons, accumulatedWords(accumulated)] });
    const summary: NightTarget['summary'] = {
      target: record.target,
      target_key: record.target_key,
      suite: record.suite,
      run_id: a.run_id,
      pass_rate: ev.pass_rate,
      passed: ev.passed,
      failed: ev.failed,
      errors: ev.errors,
      pass_rate_ci95: ev.pass_rate_ci95,
      per_category: Object.fromEntries(Object.entries(ev.per_category).map(([k, v]) => [k, { passed: v.passed, failed: v.failed, pass_rate: v.pass_rate }])),
      skill_sha256: record.skill_sha256,
      suite_sha256: record.suite_sha256,
      engine_sha256: record.engine_sha256,
      judge_engine_sha256: record.judge_engine_sha256,
      settings: record.settings,
      engine: a.engine?.identity ?? {},
      // The drift rounds' calls too: what tonight cost.
      engine_calls: ev.engine_calls + (tonight?.outcome.calls.engine ?? 0),
    };
    trends.set(record.target_key, [...mine.slice(-(TREND_NIGHTS - 1)).map((h) => toTrendRow(h.file, h)), toTrendRow(`${name}.json`, summary)]);
    return { ...record, run_id: a.run_id, drift, summary };
  });
  const alert = targets.some((t) => t.drift.alert);
  const file = join(dir, `${name}.json`);
  const engineCalls = targets.reduce((n, t) => n + t.summary.engine_calls, 0);
  await writeArtifact(file, nightlyDay, { schema: NIGHTLY_SCHEMA, date, created_at: now.toISOString(), alert, engine_calls: engineCalls, targets });
  const markdown = formatNight(date, targets, trends, cfg.thresholds.significance);
  await writeFileAtomically(join(dir, `${name}.md`), markdown);
  mkdirSync(dir, { recursive: true });
  for (const t of targets) {
    const line: HistoryLine = { date, file: `${name}.json`, ...t.summary, drift: { alert: t.drift.alert, reason: t.drift.reasons.join('; ') } };
    const checked = historyLine.safeParse(line);
    if (!checked.success) throw new InternalError(`refusing to append an invalid nightly history line for ${t.label}: ${checked.error.issues[0]?.message}`);
    appendAtomically(join(dir, 'history.jsonl'), `${JSON.stringify(checked.data)}\n`);
  }
  return { date, file, markdown, targets, alert, engineFailed: targets.some((t) => t.drift.engine_failed), engineCalls };
}
