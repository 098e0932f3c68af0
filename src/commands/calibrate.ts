// Registers `whet calibrate` on the commander program (wired in by src/cli.ts, like `evaluate`).
//
//   whet calibrate labels.jsonl [--positive FAIL|PASS] [--min-tpr X] [--min-tnr X] [--max-gap X] [--json]
//   whet calibrate --answer-key key.jsonl --judge judges/x.yaml [--mock] [-c pipeline.yaml] [--out pairs.jsonl]
//
// stdout: the report (or with --json the report as one JSON object). Errors go through the CLI's
// error path (exit 2 for bad input). Exit 1 when a threshold is missed, 3 when items could not be judged.
import { InvalidArgumentError, type Command } from 'commander';
import type { CliDeps } from '../program/deps.js';
import type { Label } from '../calibrate/labels.js';
import { runCalibrate } from '../calibrate/run.js';
import { renderReport } from '../calibrate/report.js';

const rateArg = (name: string) => (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) throw new InvalidArgumentError(`${name} must be a number between 0 and 1`);
  return n;
};
const labelArg = (v: string): Label => {
  const u = v.trim().toUpperCase();
  if (u !== 'PASS' && u !== 'FAIL') throw new InvalidArgumentError('--positive must be FAIL or PASS');
  return u;
};
const positiveInt = (name: string) => (v: string) => {
  if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError(`${name} must be a whole number ≥ 1`);
  return Number(v);
};
const seconds = (v: string) => {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('--timeout must be a number of seconds > 0');
  return n;
};

export function registerCalibrateCommand(program: Command, deps: CliDeps, setCode: (c: number) => void): void {
  program
    .command('calibrate')
    .description('judge-vs-human agreement: TP/TN/FP/FN, TPR, TNR, accuracy, precision, kappa and the bias reading (docs/method.md: Calibrating a judge)')
    .argument('[labels]', 'pairs file, one a line, human first: JSONL {"human": "FAIL", "judge": "PASS", "category"?} or CSV human,judge[,category] (an optional third column is the category; one header row allowed)')
    .option('--positive <label>', 'positive class: FAIL (default; the usual choice when judging quality) or PASS', labelArg)
    .option('--min-tpr <x>', 'exit 1 when TPR is below this', rateArg('--min-tpr'))
    .option('--min-tnr <x>', 'exit 1 when TNR is below this', rateArg('--min-tnr'))
    .option('--max-gap <x>', 'exit 1 when |TPR - TNR| is above this', rateArg('--max-gap'))
    .option('--answer-key <file>', 'hand-labelled outputs (JSONL: id, output, human, category?, task?) to run the judge on')
    .option('--judge <spec.yaml>', 'judge spec: run on the answer key; with a labels file, supplies the positive class and thresholds')
    .option('--mock', 'answer-key mode: judge with the offline mock engine')
    .option('-c, --config <file>', 'pipeline config for judge_engine and state_dir (default: ./pipeline.yaml when present)')
    .option('--out <file>', 'answer-key mode: where the pairs are written (default: <key>.pairs.jsonl beside the key)')
    .option('--state-root <dir>', 'answer-key mode: state directory the calibration is stored in')
    .option('--concurrency <n>', 'answer-key mode: judge calls at once (default 4)', positiveInt('--concurrency'))
    .option('--timeout <seconds>', 'answer-key mode: time limit per judge call (default: the pipeline task timeout)', seconds)
    .option('--json', 'print the report as JSON')
    .action(async (labels: string | undefined, opts: Record<string, unknown>) => {
      const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
      const num = (v: unknown) => (typeof v === 'number' ? v : undefined);
      const { report, exitCode } = await runCalibrate(
        {
          labels,
          positive: opts.positive as Label | undefined,
          minTpr: num(opts.minTpr),
          minTnr: num(opts.minTnr),
          maxGap: num(opts.maxGap),
          answerKey: str(opts.answerKey),
          judge: str(opts.judge),
          mock: opts.mock === true,
          config: str(opts.config),
          out: str(opts.out),
          stateRoot: str(opts.stateRoot),
          concurrency: num(opts.concurrency),
          timeoutMs: typeof opts.timeout === 'number' ? Math.round(opts.timeout * 1000) : undefined,
        },
        { cwd: deps.cwd, env: deps.env, now: deps.now, ...(deps.signal ? { signal: deps.signal } : {}) },
      );
      deps.stdout(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${renderReport(report)}\n`);
      setCode(exitCode);
    });
}
