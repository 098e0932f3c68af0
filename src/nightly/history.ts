// Reading nightly/history.jsonl back: which earlier lines belong to a target (by its key — skill + suite +
// engine — so the same skill measured with two suites keeps two histories), the previous night to compare
// with, and the recent nights shown as a trend in the dated report.
import { isSafeId } from '../config/safe-id.js';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { accumulatedDecline, historyLineRead, nightRecordRead, type AccumulatedDecline, type HistoryLineRead, type NightRecordRead } from './schema.js';

export const nightlyDir = (stateDir: string) => join(stateDir, 'nightly');

export function readHistory(stateDir: string): HistoryLineRead[] {
  const f = join(nightlyDir(stateDir), 'history.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      let raw: unknown;
      try {
        raw = JSON.parse(l);
      } catch {
        return []; // a line cut short by a crash must not stop tonight's run
      }
      const r = historyLineRead.safeParse(raw);
      return r.success ? [r.data] : [];
    });
}

export interface TargetId {
  target: string;
  target_key: string;
}

/**
 * The history lines of one target, oldest first. Lines written before targets had a key name only the
 * skill folder; they count only when tonight measures that folder one way, where they cannot be confused.
 */
export function historyOf(history: HistoryLineRead[], t: TargetId, tonight: TargetId[]): HistoryLineRead[] {
  const unique = tonight.filter((x) => x.target === t.target).length === 1;
  return history.filter((h) => (h.target_key ? h.target_key === t.target_key : unique && h.target === t.target));
}

/** The newest earlier night that judged something: an engine-failure night has nothing to compare with. */
export function previousNight(dir: string, lines: HistoryLineRead[]): (NightRecordRead & { label: string; accumulated?: AccumulatedDecline }) | undefined {
  for (const h of [...lines].reverse()) {
    if (h.passed + h.failed === 0) continue;
    const r = recordIn(dir, h);
    if (r) return r;
  }
  return undefined;
}

/** A night's record of one target by its dated file (the accumulation's reference night), if it is still there. */
export function recordAt(dir: string, file: string, t: { target: string; target_key: string }): (NightRecordRead & { label: string; accumulated?: AccumulatedDecline }) | undefined {
  return recordIn(dir, { file, date: file.replace(/\.json$/, ''), run_id: '', target: t.target, target_key: t.target_key } as HistoryLineRead);
}

function recordIn(dir: string, h: HistoryLineRead): (NightRecordRead & { label: string; accumulated?: AccumulatedDecline }) | undefined {
  // The day file is named by a line someone could have edited: only a plain name inside nightly/ is read.
  if (!isSafeId(h.file)) return undefined;
  let day: { targets?: unknown[] };
  try {
    day = JSON.parse(readFileSync(join(dir, h.file), 'utf8')) as { targets?: unknown[] };
  } catch {
    return undefined;
  }
  for (const x of day.targets ?? []) {
    const r = nightRecordRead.safeParse(x);
    if (r.success && (h.target_key ? r.data.target_key === h.target_key : r.data.target === h.target)) {
      const acc = accumulatedDecline.safeParse((x as { drift?: { accumulated?: unknown } }).drift?.accumulated);
      return { ...r.data, label: h.run_id ? `${h.date} (${h.run_id})` : h.date, ...(acc.success ? { accumulated: acc.data } : {}) };
    }
  }
  return undefined;
}

export interface TrendRow {
  night: string;
  /** null: nothing judged that night (not measured). */
  pass_rate: number | null;
  passed: number;
  failed: number;
  errors: number;
}

export const toTrendRow = (file: string, s: { pass_rate: number | null; passed: number; failed: number; errors: number }): TrendRow => ({
  night: file.replace(/\.json$/, ''),
  pass_rate: s.pass_rate,
  passed: s.passed,
  failed: s.failed,
  errors: s.errors,
});
