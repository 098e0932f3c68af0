// `whet nightly`: the baseline of every target, then for each target a comparison with its previous night
// (drift.ts), written as nightly/<date>.json and .md and one line per target in nightly/history.jsonl.
// Any drift alert makes the command exit 1, so a scheduler or CI notices.
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { canonicalJson, sha256 } from '../artifacts/io.js';
import { writeFileAtomically, writeJsonAtomically } from '../state/atomic.js';
import { baselineAll, type BaselineEnv } from './baseline.js';
import { compareNights, type DriftReport, type NightRecord } from './drift.js';
import { formatNight } from './night-report.js';

export const historyLine = z.object({
  date: z.string(),
  file: z.string(),
  target: z.string(),
  run_id: z.string(),
  pass_rate: z.number(),
  passed: z.number(),
  failed: z.number(),
  errors: z.number(),
  ci95: z.object({ low: z.number(), high: z.number() }),
  per_category: z.record(z.string(), z.object({ passed: z.number(), failed: z.number(), pass_rate: z.number() })),
  skill_sha256: z.string(),
  suite_sha256: z.string(),
  engine_sha256: z.string(),
  engine: z.record(z.string(), z.unknown()),
  engine_calls: z.number(),
  drift: z.object({ alert: z.boolean(), reason: z.string() }),
});
export type HistoryLine = z.infer<typeof historyLine>;

export interface NightTarget extends NightRecord {
  run_id: string;
  summary: Omit<HistoryLine, 'date' | 'file' | 'drift'>;
  drift: DriftReport;
}

export interface NightResult {
  date: string;
  file: string;
  markdown: string;
  targets: NightTarget[];
  alert: boolean;
}

export const nightlyDir = (stateDir: string) => join(stateDir, 'nightly');

export function readHistory(stateDir: string): HistoryLine[] {
  const f = join(nightlyDir(stateDir), 'history.jsonl');
  if (!existsSync(f)) return [];
  return readFileSync(f, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => {
      const r = historyLine.safeParse(JSON.parse(l));
      return r.success ? [r.data] : [];
    });
}

export async function runNightly(e: BaselineEnv, o: { config?: string; stateRoot?: string; force?: boolean; mock?: boolean }): Promise<NightResult | 'interrupted'> {
  const { cfg, stateDir, results, interrupted } = await baselineAll(e, o);
  if (interrupted) return 'interrupted';
  const now = e.now();
  const date = now.toISOString().slice(0, 10);
  const dir = nightlyDir(stateDir);
  let name = `${date}`;
  for (let n = 2; existsSync(join(dir, `${name}.json`)); n++) name = `${date}-${n}`;
  const history = readHistory(stateDir);
  const targets: NightTarget[] = results.map((r) => {
    const a = r.artifact;
    const ev = a.evaluation;
    const record: NightRecord = {
      target: r.target.skillDir,
      pass_rate: ev.pass_rate,
      skill_sha256: a.inputs.target!,
      suite_sha256: a.inputs.suite!,
      engine_sha256: sha256(canonicalJson(a.engine?.identity ?? {})),
      tasks: a.task_results.map((t) => ({ task_id: t.task_id, status: t.status, category: t.category, ...(t.critical ? { critical: true } : {}) })),
    };
    const prev = [...history].reverse().find((h) => h.target === r.target.skillDir);
    const prevRecord = prev ? previousRecord(dir, prev) : undefined;
    const drift = compareNights(record, prevRecord, cfg.thresholds.significance);
    return {
      ...record,
      run_id: a.run_id,
      drift,
      summary: {
        target: record.target,
        run_id: a.run_id,
        pass_rate: ev.pass_rate,
        passed: ev.passed,
        failed: ev.failed,
        errors: ev.errors,
        ci95: ev.pass_rate_ci95,
        per_category: Object.fromEntries(Object.entries(ev.per_category).map(([k, v]) => [k, { passed: v.passed, failed: v.failed, pass_rate: v.pass_rate }])),
        skill_sha256: record.skill_sha256,
        suite_sha256: record.suite_sha256,
        engine_sha256: record.engine_sha256,
        engine: a.engine?.identity ?? {},
        engine_calls: ev.engine_calls,
      },
    };
  });
  const alert = targets.some((t) => t.drift.alert);
  const file = join(dir, `${name}.json`);
  await writeJsonAtomically(file, { schema: 'whetstone.nightly/1', date, created_at: now.toISOString(), alert, targets });
  const markdown = formatNight(date, targets);
  await writeFileAtomically(join(dir, `${name}.md`), markdown);
  mkdirSync(dir, { recursive: true });
  for (const t of targets) {
    const line: HistoryLine = { date, file: `${name}.json`, ...t.summary, drift: { alert: t.drift.alert, reason: t.drift.reasons.join('; ') } };
    appendFileSync(join(dir, 'history.jsonl'), `${JSON.stringify(line)}\n`);
  }
  return { date, file, markdown, targets, alert };
}

function previousRecord(dir: string, h: HistoryLine): (NightRecord & { label: string }) | undefined {
  try {
    const day = JSON.parse(readFileSync(join(dir, h.file), 'utf8')) as { targets: NightRecord[] };
    const t = day.targets.find((x) => x.target === h.target);
    return t ? { ...t, label: `${h.date} (${h.run_id})` } : undefined;
  } catch {
    return undefined;
  }
}
