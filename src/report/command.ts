// `whet report [RUN] [--format md|json|junit|html] [-o FILE] [--iteration N]`: the evidence report of a run
// (default: the newest run of any kind), built from its artifacts. A reading command: it never changes the
// state directory, and exits 0 whatever the run decided (`whet nightly` and the gate carry the CI exit codes).
import { resolve } from 'node:path';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { intArg, type CliDeps, type SetCode } from '../commands/deps.js';
import { stateDirOf } from '../commands/state-dir.js';
import { writeFileAtomically } from '../state/atomic.js';
import { loadReportInputs, resolveReportRun } from './load.js';
import { buildReportModel } from './model.js';
import { reportModel, type ReportModel } from './model-schema.js';
import { renderHtml } from './render-html.js';
import { renderJunit } from './render-junit.js';
import { renderMarkdown } from './render-md.js';

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

interface Opts {
  format: ReportFormat;
  output?: string;
  iteration?: number;
  config?: string;
  stateRoot?: string;
}

const positive = (name: string) => (v: string) => {
  const n = intArg(name)(v);
  if (n < 1) throw new InvalidArgumentError(`${name} must be 1 or more`);
  return n;
};

export function registerReportCommand(program: Command, deps: CliDeps, _setCode: SetCode): void {
  program
    .command('report')
    .description('the evidence report of a run: eval set, judge metrics, thresholds, gates, per-category rates, new cases')
    .argument('[run]', 'run id (default: the newest run)')
    .addOption(new Option('--format <format>', 'md, json, junit (JUnit XML) or html (a single offline file)').choices(REPORT_FORMATS).default('md'))
    .option('-o, --output <file>', 'write the report to this file instead of stdout')
    .option('--iteration <n>', 'which iteration of a loop run (default: the newest that evaluated a candidate)', positive('--iteration'))
    .option('-c, --config <file>', 'pipeline config (for its state_dir)')
    .option('--state-root <dir>', 'state directory')
    .action(async (run: string | undefined, o: Opts) => {
      const stateDir = await stateDirOf(deps, o);
      const text = renderReport(reportOf(stateDir, run, o.iteration), o.format);
      if (!o.output) {
        deps.stdout(text);
        return;
      }
      const file = resolve(deps.cwd, o.output);
      await writeFileAtomically(file, text);
      deps.stderr(`whet: ${o.format} report written to ${file}\n`);
    });
}
