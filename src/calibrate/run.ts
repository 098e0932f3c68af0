// `whet calibrate`: judge-vs-human figures from a pairs file, or from running a judge spec over an answer
// key first. Exit codes: 0 figures printed (and every threshold met), 1 a threshold missed, 2 bad input,
// 3 some answer-key items could not be judged (the figures then cover only the judged ones and say so).
import { dirname, basename, extname, join, resolve } from 'node:path';
import { loadPipeline } from '../config/pipeline.js';
import { displayPath } from '../config/load-yaml.js';
import { createEngine, type Engine } from '../engines/index.js';
import { meterEngine } from '../evaluation/metered.js';
import { UsageError } from '../core/errors.js';
import { sha256File } from '../state/artifact-io.js';
import { writeFileAtomically } from '../core/atomic.js';
import { loadJudgeSpec, type LoadedJudgeSpec } from '../judges/spec.js';
import { fewShotOverlap, pairsJsonl, readAnswerKey, runAnswerKey } from './answer-key.js';
import { labelsAsCategoryWarning, readLabelFile, type Label } from './labels.js';
import { buildReport, type CalibrationReport } from './report.js';
import { thresholdSources, type ThresholdValues } from './thresholds.js';
import { writeCalibration, type CalibrationRecord } from '../judges/calibration-store.js';
import { MIN_RUNS_PER_CLASS } from './metrics.js';
import type { RunEnv } from '../core/run-env.js';

export interface CalibrateOptions {
  labels?: string;
  positive?: Label;
  minTpr?: number;
  minTnr?: number;
  maxGap?: number;
  answerKey?: string;
  judge?: string;
  mock?: boolean;
  config?: string;
  out?: string;
  stateRoot?: string;
  concurrency?: number;
  timeoutMs?: number;
}

/** Calibration prints its own report, so it takes no log or progress output. */
export type CalibrateEnv = Pick<RunEnv, 'cwd' | 'env' | 'now' | 'signal'>;

export interface CalibrateOutcome {
  report: CalibrationReport;
  exitCode: number;
}

export async function runCalibrate(o: CalibrateOptions, ctx: CalibrateEnv): Promise<CalibrateOutcome> {
  if (o.labels && o.answerKey) throw new UsageError('give either a labels file or --answer-key, not both');
  if (!o.labels && !o.answerKey) throw new UsageError('give a labels file (JSONL or CSV, human first) or --answer-key KEY --judge SPEC');
  if (o.answerKey && !o.judge) throw new UsageError('--answer-key needs --judge SPEC: the judge spec to run on each labelled output');
  if (!o.answerKey && (o.mock || o.out || o.config || o.stateRoot)) {
    throw new UsageError('--mock, --out, --config and --state-root only apply with --answer-key');
  }
  const spec = o.judge ? loadJudgeSpec(resolve(ctx.cwd, o.judge)) : undefined;
  const positive: Label = o.positive ?? spec?.spec.positive ?? 'FAIL';
  const flags: ThresholdValues = {};
  if (o.minTpr !== undefined) flags.min_tpr = o.minTpr;
  if (o.minTnr !== undefined) flags.min_tnr = o.minTnr;
  if (o.maxGap !== undefined) flags.max_gap = o.maxGap;
  const sources = thresholdSources(
    flags,
    positive,
    spec?.spec.calibration ? { values: spec.spec.calibration, positive: spec.spec.positive, from: displayPath(spec.path, ctx.cwd) } : undefined,
  );

  if (o.labels) {
    const file = resolve(ctx.cwd, o.labels);
    const pairs = readLabelFile(file, ctx.cwd);
    const report = buildReport(displayPath(file, ctx.cwd), pairs, positive, sources);
    const labelsAsCategory = labelsAsCategoryWarning(pairs, displayPath(file, ctx.cwd));
    if (labelsAsCategory) report.warnings.push(labelsAsCategory);
    return { report, exitCode: report.thresholds_met === false ? 1 : 0 };
  }
  return answerKeyMode(o, ctx, spec!, positive, sources);
}

async function answerKeyMode(
  o: CalibrateOptions,
  ctx: CalibrateEnv,
  spec: LoadedJudgeSpec,
  positive: Label,
  sources: ReturnType<typeof thresholdSources>,
): Promise<CalibrateOutcome> {
  const keyFile = resolve(ctx.cwd, o.answerKey!);
  const items = readAnswerKey(keyFile, ctx.cwd);
  const pairsFile = o.out ? resolve(ctx.cwd, o.out) : join(dirname(keyFile), `${basename(keyFile, extname(keyFile))}.pairs.jsonl`);
  if (pairsFile === keyFile) throw new UsageError('--out names the answer key itself; the pairs go to another file');
  const cfg = await loadPipeline(o.config, ctx.cwd);
  // Metered for its concurrency slot: an HTTP judge's 429s must slow the calls that caused them.
  const engine = meterEngine(judgeEngine(o, spec, cfg.judgeEngine ?? cfg.engine, ctx));
  const run = await runAnswerKey(spec, items, {
    engine,
    timeoutMs: o.timeoutMs ?? cfg.taskTimeoutMs,
    concurrency: o.concurrency ?? 4,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });

  await writeFileAtomically(pairsFile, pairsJsonl(run.pairs));

  const shownKey = displayPath(keyFile, ctx.cwd);
  const report = buildReport(shownKey, run.pairs, positive, sources);
  const overlap = fewShotOverlap(spec, items);
  if (overlap.length > 0) {
    report.warnings.push(
      `leakage: ${overlap.length} answer-key output${overlap.length === 1 ? ' is' : 's are'} also the judge's few-shot examples (${overlap.slice(0, 5).join(', ')}); agreement on them is memorised, not measured`,
    );
  }
  report.judge = {
    name: spec.spec.name,
    spec: displayPath(spec.path, ctx.cwd),
    spec_hash: spec.hash,
    temperature: spec.spec.temperature,
    engine: { type: engine.type, mock: engine.type === 'mock', identity: engine.identity() },
  };
  report.answer_key = { file: shownKey, hash: sha256File(keyFile), items: items.length };
  report.pairs_file = displayPath(pairsFile, ctx.cwd);
  report.errors = run.errors;

  const stateDir = resolve(ctx.cwd, o.stateRoot ?? cfg.stateDir);
  report.stored = displayPath(await writeCalibration(stateDir, recordOf(report, ctx.now())), ctx.cwd);
  const exitCode = run.errors.length > 0 ? 3 : report.thresholds_met === false ? 1 : 0;
  return { report, exitCode };
}

/** --mock, else the spec's own engine, else the pipeline's judge engine (itself defaulting to the task engine). */
function judgeEngine(o: CalibrateOptions, spec: LoadedJudgeSpec, fromPipeline: Parameters<typeof createEngine>[0] | undefined, ctx: CalibrateEnv): Engine {
  if (o.mock) return createEngine({ type: 'mock' });
  if (spec.spec.engine) return createEngine(spec.spec.engine, { suiteDir: spec.dir, env: ctx.env });
  if (fromPipeline) return createEngine(fromPipeline, { env: ctx.env });
  throw new UsageError(
    `no judge engine: set "engine:" in ${displayPath(spec.path, ctx.cwd)}, judge_engine in pipeline.yaml, or pass --mock for the offline mock`,
  );
}

function recordOf(r: CalibrationReport, now: Date): CalibrationRecord {
  return {
    schema: 'whetstone.calibration/1',
    created_at: now.toISOString(),
    judge: r.judge!,
    answer_key: r.answer_key!,
    positive: r.positive,
    n: r.n,
    counts: { tp: r.tp, tn: r.tn, fp: r.fp, fn: r.fn },
    tpr: r.tpr,
    tnr: r.tnr,
    accuracy: r.accuracy,
    precision: r.precision,
    kappa: r.kappa,
    gap: r.gap,
    bias: r.bias,
    thresholds: r.thresholds,
    thresholds_met: r.thresholds_met,
    errors: r.errors?.length ?? 0,
    small_sample: r.human_labels.FAIL < MIN_RUNS_PER_CLASS || r.human_labels.PASS < MIN_RUNS_PER_CLASS,
  };
}
