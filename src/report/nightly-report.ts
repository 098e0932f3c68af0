// `whet report --nightly [DATE]`: one night over all its targets. A night evaluates every target of the
// config as its own run, so the report of "the newest run" covers one target only; this builds each
// target's report model from the run its night names and renders one section per target with its trend
// and its comparison with the previous night. Reading only, like every report.
import { isSafeId, shownId } from '../config/safe-id.js';
import { existsSync } from 'node:fs';
import { UsageError } from '../core/errors.js';
import { stateLayout } from '../state/layout.js';
import { arr, bool, isObj, str } from './inputs.js';
import { loadReportInputs, nightDays } from './load.js';
import { buildReportModel } from './model.js';
import { reportModel, type ReportModel } from './model-schema.js';

export const NIGHTLY_REPORT_SCHEMA = 'whetstone.nightly-report/1';

export interface NightlyReport {
  schema: typeof NIGHTLY_REPORT_SCHEMA;
  date: string;
  /** The day file, relative to nightly/. */
  file: string;
  alert: boolean;
  targets: { label: string; run_id: string; report: ReportModel | null; problem: string | null }[];
}

const byFile = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

/** The night asked for (YYYY-MM-DD: its last run that day), else the newest night. */
export function nightlyReportOf(stateDir: string, date?: string): NightlyReport {
  if (date !== undefined && !/^\d{4}-\d{2}-\d{2}(-\d+)?$/.test(date)) throw new UsageError(`--nightly takes a date as YYYY-MM-DD, not "${date}"`);
  const days = nightDays(stateDir).sort((a, b) => byFile(a.file, b.file));
  // A second night on one date is written as <date>-2.json: a bare date means that day's last night.
  const pick = date ? days.filter((d) => d.file === `${date}.json` || d.file.startsWith(`${date}-`)) : days;
  const day = pick[pick.length - 1];
  if (!day) throw new UsageError(date ? `no nightly report for ${date} in ${stateDir}/nightly` : `no night in ${stateDir}/nightly; run "whet nightly" first`);
  const targets = arr(day.json.targets)
    .filter(isObj)
    .map((t) => {
      const runId = str(t.run_id) ?? '';
      const label = str(t.label) ?? str(t.target) ?? runId;
      // A pruned run leaves its night behind: say so for that target rather than failing the whole night.
      if (runId && !isSafeId(runId)) return { label, run_id: runId, report: null, problem: `run id ${shownId(runId)} in nightly/${day.file} is not a safe file name; not read` };
      if (!runId || !existsSync(stateLayout.runManifest(stateLayout.runDir(stateDir, runId)))) return { label, run_id: runId, report: null, problem: `run ${runId || '(none)'} is no longer in the state directory` };
      return { label, run_id: runId, report: buildReportModel(loadReportInputs(stateDir, runId)), problem: null };
    });
  return { schema: NIGHTLY_REPORT_SCHEMA, date: str(day.json.date) ?? day.file.replace(/\.json$/, ''), file: day.file, alert: bool(day.json.alert) ?? targets.some((t) => t.report?.nightly?.alert), targets };
}

export function renderNightlyJson(r: NightlyReport): string {
  return `${JSON.stringify({ ...r, targets: r.targets.map((t) => ({ ...t, report: t.report ? reportModel.parse(t.report) : null })) }, null, 2)}\n`;
}
