// `whet report [RUN] [--format md|json|junit|html] [-o FILE] [--iteration N]`: the evidence report of a run
// (default: the newest run of any kind), built from its artifacts; `--nightly [DATE]`: a night over all
// its targets (nightly-report.ts). A reading command: it never changes the
// state directory, and exits 0 whatever the run decided (`whet nightly` and the gate carry the CI exit codes).
import { resolve } from 'node:path';
import { Option, type Command } from 'commander';
import type { CliDeps, SetCode } from '../program/deps.js';
import { stateDirOf } from './state-dir.js';
import { checkIterationFlag } from '../config/safe-id.js';
import { UsageError } from '../core/errors.js';
import { appendAtomically, writeFileAtomically } from '../core/atomic.js';
import { loadReportInputs, resolveReportRun } from '../report/load.js';
import { buildReportModel } from '../report/model.js';
import { nightlyReportOf, renderNightlyJson } from '../report/nightly-report.js';
import { renderNightlyHtml, renderNightlyMarkdown } from '../report/render-nightly.js';
import { reportModel, type ReportModel } from '../report/model-schema.js';
import { renderHtml } from '../report/render-html.js';
import { renderJunit } from '../report/render-junit.js';
import { renderMarkdown } from '../report/render-md.js';
import { skillCreatorReport, writeSkillCreatorReport } from '../report/skill-creator.js';
import { verifyRun, type Problem } from '../inspect/verify-run.js';
import { formatProblems } from '../state/verify-files.js';

export const REPORT_FORMATS = ['md', 'json', 'junit', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The model as `--format json` prints it: validated, so a field the schema does not know never leaks out. */
export function renderJson(m: ReportModel): string {
  return `${JSON.stringify(reportModel.parse(m), null, 2)}\n`;
}

export function renderReport(m: ReportModel, format: ReportFormat): string {
  switch (format) {
    case 'md':
      return `${renderMarkdown(m).trimEnd()}\n`;
    case 'json':
      return renderJson(m);
    case 'junit':
      return renderJunit(m);
    case 'html':
      return renderHtml(m);
  }
}

/** Reads a run from a state directory and builds its report model. */
export function reportOf(stateDir: string, runId?: string, iteration?: number): ReportModel {
  const id = resolveReportRun(stateDir, runId);
  return buildReportModel(loadReportInputs(stateDir, id, iteration));
}

/**
 * The report of a verified run (issue 31): undefined, with the run's problems, when it is damaged and not
 * `allowDamaged`; else the model, marked and without the damaged files' values when there are problems.
 */
export async function verifiedReportOf(stateDir: string, runId: string | undefined, iteration: number | undefined, allowDamaged: boolean): Promise<{ model?: ReportModel; problems: Problem[] }> {
  const id = resolveReportRun(stateDir, runId);
  const check = await verifyRun(stateDir, id, { schemas: true });
  if (check.problems.length && !allowDamaged) return { problems: check.problems };
  const damaged = { paths: check.damaged, problems: check.problems.map(({ file, kind, at, message, hint }) => ({ file, kind, ...(at ? { at } : {}), message, hint })) };
  return { model: buildReportModel(loadReportInputs(stateDir, id, iteration, damaged)), problems: check.problems };
}

/** skill-creator's programs read a workspace folder, not one text: skill-creator.ts. */
const SKILL_CREATOR = 'skill-creator';

interface Opts {
  format: ReportFormat | typeof SKILL_CREATOR;
  /** true: the newest night; a string: that date's night. */
  nightly?: boolean | string;
  output?: string;
  iteration?: number;
  config?: string;
  stateRoot?: string;
  allowDamaged?: boolean;
}


/** A night over all its targets; a run id or an iteration belongs to the report of one run. */
function nightlyText(stateDir: string, run: string | undefined, o: Opts): string {
  if (run !== undefined || o.iteration !== undefined) throw new UsageError('--nightly reports every target of a night; leave out the run id and --iteration');
  if (o.format === 'junit') throw new UsageError('--nightly renders md, json or html; JUnit is one run’s tasks: whet report RUN --format junit');
  const r = nightlyReportOf(stateDir, typeof o.nightly === 'string' ? o.nightly : undefined);
  return o.format === 'json' ? renderNightlyJson(r) : o.format === 'html' ? renderNightlyHtml(r) : renderNightlyMarkdown(r);
}

/**
 * On GitHub Actions a Markdown report also goes to the job's summary page: the file named by
 * GITHUB_STEP_SUMMARY, appended to (each step adds its part; GitHub shows them in order). A summary that
 * cannot be written is a warning, never a lost report: stdout or -o still has it.
 */
function appendStepSummary(deps: CliDeps, text: string): void {
  const file = deps.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendAtomically(resolve(deps.cwd, file), text.endsWith('\n') ? text : `${text}\n`);
    deps.stderr(`whet: md report appended to the job summary (GITHUB_STEP_SUMMARY=${file})\n`);
  } catch (err) {
    deps.stderr(`whet: warning: could not append the report to GITHUB_STEP_SUMMARY=${file}: ${(err as Error).message}\n`);
  }
}

export function registerReportCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  program
    .command('report')
    .description('the evidence report of a run: eval set, judge metrics, thresholds, gates, per-category rates, new cases')
    .argument('[run]', 'run id (default: the newest run)')
    .addOption(new Option('--format <format>', 'md, json, junit (JUnit XML), html (a single offline file) or skill-creator (a skill-creator workspace into -o DIR: eval-<id>/<configuration>/run-<n>/, benchmark.json)').choices([...REPORT_FORMATS, SKILL_CREATOR]).default('md'))
    .option('-o, --output <file>', 'write the report to this file instead of stdout')
    .option('--nightly [date]', 'the newest night (or that of YYYY-MM-DD) over all its targets: md, json or html')
    .option('--iteration <n>', 'which iteration of a loop run (default: the newest that kept a candidate, else the newest that evaluated one)', (v: string) => checkIterationFlag(v))
    .option('--allow-damaged', 'report a run whose files fail verification anyway: the damaged files are left out and the report is marked DAMAGED (exit 1 still)')
    .option('-c, --config <file>', 'pipeline config (for its state_dir)')
    .option('--state-root <dir>', 'state directory')
    .action(async (run: string | undefined, o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      if (o.format === SKILL_CREATOR) {
        if (o.nightly !== undefined) throw new UsageError('--format skill-creator writes one run; leave out --nightly');
        if (!o.output) throw new UsageError('--format skill-creator writes a folder (a skill-creator workspace: eval-<id>/<configuration>/run-<n>/ and benchmark.json): name it with -o DIR');
        const out = resolve(deps.cwd, o.output);
        // skill-creator's files carry no mark: a damaged run is refused, --allow-damaged or not.
        const check = await verifyRun(stateDir, resolveReportRun(stateDir, run), { schemas: true });
        if (check.problems.length) {
          deps.stderr(`${formatProblems(check.problems)}whet report: refusing to write skill-creator files from a damaged run (they cannot be marked); "whet verify --repair" and "whet resume" first\n`);
          setCode(1);
          return;
        }
        const sc = await skillCreatorReport(stateDir, run, o.iteration);
        await writeSkillCreatorReport(out, sc);
        const graded = sc.runDirs.filter((d) => d.grading).length;
        deps.stderr(`whet: skill-creator workspace written to ${out}: ${sc.evals.length} eval(s), ${sc.runDirs.length} run(s) with outputs/ (${graded} graded: grading.json), benchmark.json\n`);
        // Where a configuration's runs come from another run (a cached baseline), or are missing: said here, not only in benchmark.json's notes.
        for (const n of sc.benchmark.notes.filter((x) => /has no attempts in this run|took from the cache/.test(x))) deps.stderr(`  ${n.replace(/^whetstone: /, '')}\n`);
        return;
      }
      let text: string;
      if (o.nightly !== undefined) text = nightlyText(stateDir, run, o);
      else {
        // Evidence is never written from a damaged run unless asked for, and then marked (issue 31).
        const r = await verifiedReportOf(stateDir, run, o.iteration, o.allowDamaged === true);
        if (r.problems.length) {
          deps.stderr(formatProblems(r.problems));
          setCode(1);
        }
        if (!r.model) {
          deps.stderr(`whet report: refusing to write evidence from a damaged run (${r.problems.length} problem(s) above); "whet verify --repair" and "whet resume" measure again what was lost, or pass --allow-damaged for a report marked DAMAGED without those files\n`);
          return;
        }
        text = renderReport(r.model, o.format);
      }
      if (o.format === 'md') appendStepSummary(deps, text);
      if (!o.output) {
        deps.stdout(text);
        return;
      }
      const file = resolve(deps.cwd, o.output);
      await writeFileAtomically(file, text);
      deps.stderr(`whet: ${o.format} report written to ${file}\n`);
    });
}
