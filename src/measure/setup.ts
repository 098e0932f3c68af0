// Everything the evaluate stage needs before it may touch the state directory: options resolved against
// pipeline.yaml, the suite loaded and checked, engines built. Any bad input fails here, so a refused
// command leaves the state directory exactly as it was.
import { mockJudged, mockJudgeNote } from './mock-judges.js';
import { resolve } from 'node:path';
import { lacking, loadPipeline, type PipelineConfig } from '../config/pipeline.js';
import { applySuiteOverrides } from '../config/suite-overrides.js';
import { loadSuiteRemembered, type RememberedSuite } from '../config/suite-copy.js';
import { BUILD_ID } from '../core/build-id.js';
import { setFrozenSplits } from '../config/registered.js';
import type { Suite } from '../config/suite-schema.js';
import { parseDuration } from '../config/duration.js';
import { countCalls, createEngine, type Engine } from '../engines/index.js';
import { UsageError } from '../core/errors.js';
import { collectBetweenPhases } from '../core/gc-hint.js';
import type { EngineConfig } from '../config/engine-schema.js';
import { engineWarnings } from '../config/engine-warnings.js';
import { refuseUnusableEngines } from '../engines/offline-checks.js';
import { triggerEngineRefusal } from '../config/trigger-engine.js';
import { baselineCacheKey, type CacheKeyParts } from '../evaluation/cache.js';
import { stateLayout } from '../state/layout.js';
import type { LoadedSkill } from '../skill/read.js';
import type { EvaluationArtifact } from '../artifacts/evaluation.js';
import { Budget } from '../evaluation/budget.js';
import { configureEngine, engineTimeoutMs } from '../evaluation/metered.js';
import type { RunEnv } from '../core/run-env.js';

/**
 * What an evaluation opens (openMeasurement): the suite, the state directory, the config and the engine.
 * A loop run's manifest names them (src/loop/evaluate-context.ts); `whet evaluate` its flags.
 */
export interface MeasureSource {
  taskSuite?: string;
  stateRoot?: string;
  config?: string;
  mock?: boolean;
  /** An engine that overrides the config's (a target's own engine). */
  engine?: EngineConfig;
  /** Each task's split as a loop run registered it (a later holdout_ratio cannot move tasks). */
  splits?: Record<string, 'train' | 'holdout'>;
}

/** How it measures; what is not set is pipeline.yaml's. */
export interface MeasureSettings {
  passK?: number;
  concurrency?: number;
  cacheTtl?: string;
  baselineCacheDir?: string;
  /** Ignore cached baselines and the suite's checked copy (fresh ones are still stored). */
  force?: boolean;
  /**
   * `whet nightly`: measure every task now — no cached baseline and no unfinished earlier run stands in
   * for tonight's calls. A clean result still refreshes the cache, so the loop benefits.
   */
  fresh?: boolean;
  /** Also write the evaluation artifact here. */
  output?: string;
}

/** The current skill, measured on its own. */
export interface StandaloneRequest {
  skillPath: string;
  /** Measure the suite with no skill too, and the skill's own effect against it (skill-effect.ts). */
  withoutSkill?: boolean;
}

/** A ranked candidate, measured against its target on the same tasks. */
export interface CandidateRequest {
  input: string;
  candidateId: string;
  evalThreshold?: number;
  /** How evalThreshold is named in messages and the artifact (default `--eval-threshold`). */
  evalThresholdFrom?: string;
  /** Per-category eval thresholds a loop run registered (in place of pipeline.yaml's). */
  evalThresholds?: Record<string, number>;
}

/** What one evaluation measures. */
export type MeasureRequest = ({ mode: 'standalone' } & StandaloneRequest) | ({ mode: 'pipeline' } & CandidateRequest);

export interface EvaluateContext extends RunEnv {
  source: MeasureSource;
  settings?: MeasureSettings;
  /** The caller (the loop runner) already holds the state lock. */
  lockHeld?: boolean;
  /** A concurrency gate shared with other evaluations running at the same time (nightly targets). */
  limiter?: <T>(fn: () => Promise<T>) => Promise<T>;
  /** The run's budget (the loop runner passes one for the whole run; else built from pipeline.yaml). */
  budget?: Budget;
  /** The config, suite and engines a loop run opened once (LoopContext.opened); else opened here. */
  opened?: () => Promise<Opened>;
}

export type StageResult =
  | { interrupted: true; runDir: string; budgetExhausted?: string; rateLimited?: string }
  | { interrupted: false; artifactPath: string; artifact: EvaluationArtifact };

export interface Prepared {
  cfg: PipelineConfig;
  suite: Suite;
  engine: Engine & { calls(): number };
  judgeEngine?: Engine;
  passK: number;
  concurrency: number;
  stateDir: string;
  cacheDir: string;
  cacheTtlMs: number;
  useCache: boolean;
  /** The suite's checked copy: read, or to be written once its tasks are measured (src/config/suite-copy.ts). */
  suiteCopy?: RememberedSuite['copy'];
}

/** What an evaluation opens before it measures: config, suite with its splits, engines (not yet counted). */
export interface Opened {
  cfg: PipelineConfig;
  suite: Suite;
  engine: Engine;
  judgeEngine?: Engine;
  suiteCopy?: RememberedSuite['copy'];
}

/**
 * Reads pipeline.yaml (unless the caller already has it) and the suite, and builds the engines. A loop
 * run does this once (src/loop/open.ts) and every stage reuses it; a stand-alone evaluation once per call.
 */
export async function openMeasurement(ctx: EvaluateContext, loadedCfg?: PipelineConfig): Promise<Opened> {
  const o = ctx.source;
  const force = ctx.settings?.force;
  if (!o.taskSuite) throw new UsageError('--task-suite is required: both modes evaluate against a task suite');
  const cfg = loadedCfg ?? (await loadPipeline(o.config, ctx.cwd));
  const configured = o.engine ?? cfg.engine;
  const engineCfg = o.mock ? { type: 'mock' as const, ...(configured?.type === 'mock' ? configured : {}) } : configured;
  if (!engineCfg) {
    throw new UsageError(lacking(cfg, `no engine configured: set "engine:" in ${cfg.path ?? 'pipeline.yaml'} (see docs/reference/engines.md), or pass --mock to use the offline mock engine`));
  }
  // The engine's own timeout_seconds is its tasks' default limit; a task's timeout_seconds still wins.
  // A large suite unchanged since it was last loaded is read from its checked copy. Only the bundled whet
  // has a build id to key copies by, and `cache: {enabled: false}` keeps none.
  const stateDir = stateDirOf(ctx, cfg);
  const copies = BUILD_ID && cfg.cacheEnabled ? { dir: stateLayout.suiteCopyDir(stateDir), build: BUILD_ID, ...(force ? { bypass: 'bypassed (--force)' } : {}) } : undefined;
  const read = loadSuiteRemembered(resolve(ctx.cwd, o.taskSuite), { defaultTimeoutMs: engineTimeoutMs(engineCfg) ?? cfg.taskTimeoutMs }, copies);
  const suite = applySuiteOverrides(read.suite, cfg.suiteOverrides ?? []);
  setFrozenSplits(suite.tasks, o.splits, cfg.loop.holdoutRatio);
  const refusal = triggerEngineRefusal(suite.tasks, engineCfg, o.mock ? 'pipeline.yaml (and drop --mock)' : o.engine ? 'the target\'s engine' : (cfg.path ?? 'pipeline.yaml'));
  if (refusal) throw new UsageError(refusal);
  // What parsing a large suite left behind is dead now: give it back before the run (src/core/gc-hint.ts).
  // A copy's reading leaves little: its text and the JSON it parsed to.
  if (!read.copy?.info.hit) collectBetweenPhases();
  const needsJudge = suite.tasks.some((t) => t.judges.some((j) => j.type === 'llm-rubric' || j.type === 'llm_rubric'));
  const judgeCfg = o.mock ? { type: 'mock' as const } : (cfg.judgeEngine ?? engineCfg);
  // A missing key or agent CLI: exit 2 with the fix before any run folder exists (issue 41).
  await refuseUnusableEngines([{ where: o.engine ? 'targets[].engine' : 'engine', cfg: engineCfg }, { where: 'judge_engine', cfg: needsJudge ? judgeCfg : undefined }], ctx.env, ctx.cwd);
  // The run's concurrency is the engines' adaptive ceiling unless their config writes its own max_concurrency.
  const concurrency = ctx.settings?.concurrency ?? cfg.concurrency;
  const engine = configureEngine(createEngine(engineCfg, { suiteDir: suite.dir, env: ctx.env, maxConcurrency: concurrency }), engineCfg);
  const withFiles = suite.tasks.filter((t) => t.files?.length).length;
  if (withFiles > 0 && !placesFiles(engineCfg)) {
    ctx.log(`warning: ${withFiles} task(s) name files for the agent's workspace, but the ${engineCfg.type} engine${engineCfg.type === 'command' ? ' with workdir: suite' : ''} has no temporary workspace: the files are not copied`);
  }
  // Judge calls otherwise carry the task's limit; a judge engine's own timeout_seconds is about grading.
  const judgeEngine = needsJudge ? configureEngine(createEngine(judgeCfg, { suiteDir: suite.dir, env: ctx.env, maxConcurrency: concurrency }), judgeCfg, { overrideTimeout: true }) : undefined;
  const where = cfg.path ?? 'pipeline.yaml';
  const mockJudge = mockJudged(suite, judgeEngine?.type);
  if (mockJudge) ctx.log(mockJudgeNote(mockJudge, o.mock === true));
  for (const w of [...engineWarnings(engineCfg, o.engine ? 'targets[].engine' : 'engine'), ...(needsJudge && cfg.judgeEngine ? engineWarnings(cfg.judgeEngine, 'judge_engine') : [])]) ctx.log(`whet: warning: ${where}: ${w}`);
  return { cfg, suite, engine, ...(judgeEngine ? { judgeEngine } : {}), ...(read.copy ? { suiteCopy: read.copy } : {}) };
}

export async function prepare(ctx: EvaluateContext): Promise<Prepared> {
  const o = ctx.settings ?? {};
  if (o.passK !== undefined && (!Number.isInteger(o.passK) || o.passK < 1)) throw new UsageError('--pass-k must be a whole number ≥ 1');
  if (o.concurrency !== undefined && (!Number.isInteger(o.concurrency) || o.concurrency < 1)) throw new UsageError('--concurrency must be a whole number ≥ 1');
  let ttlFromFlag: number | undefined;
  if (o.cacheTtl !== undefined) {
    ttlFromFlag = parseDuration(o.cacheTtl);
    if (ttlFromFlag === undefined) throw new UsageError(`--cache-ttl "${o.cacheTtl}" is not a duration (e.g. "12h", "7d")`);
  }
  const { cfg, suite, engine: opened, judgeEngine, suiteCopy } = await (ctx.opened ? ctx.opened() : openMeasurement(ctx));
  // Counted per evaluation: one run's engines serve many stages, each reporting its own calls.
  const engine = countCalls(opened);
  const concurrency = o.concurrency ?? cfg.concurrency;
  // A max_concurrency the config writes holds every call: a higher concurrency is capped, said here and in
  // the summary and artifact (variant `concurrency`).
  if (engine.concurrency && concurrency > engine.concurrency.max) ctx.log(`whet: note: at most ${engine.concurrency.max} ${engine.type} calls run at once (${cfg.path ?? 'pipeline.yaml'}: engine.max_concurrency), fewer than the concurrency of ${concurrency} asked for`);
  const stateDir = stateDirOf(ctx, cfg);
  return {
    cfg,
    suite,
    engine,
    judgeEngine,
    passK: o.passK ?? cfg.passK,
    concurrency,
    stateDir,
    cacheDir: o.baselineCacheDir ? resolve(ctx.cwd, o.baselineCacheDir) : (cfg.cacheDir ?? stateLayout.baselineCacheDir(stateDir)),
    cacheTtlMs: ttlFromFlag ?? cfg.cacheTtlMs,
    useCache: cfg.cacheEnabled,
    ...(suiteCopy ? { suiteCopy } : {}),
  };
}

/** The state directory an evaluation writes: `--state-root`, else pipeline.yaml's. */
function stateDirOf(ctx: EvaluateContext, cfg: PipelineConfig): string {
  return resolve(ctx.cwd, ctx.source.stateRoot ?? cfg.stateDir);
}

/** Engines that run the agent in a fresh workspace, where a task's files are copied (workspace.ts placeFiles). */
function placesFiles(cfg: EngineConfig): boolean {
  if (cfg.type === 'claude' || cfg.type === 'codex') return true;
  return cfg.type === 'command' && (cfg as { workdir?: string }).workdir !== 'suite';
}

/** `round`: a later round's one attempt per held-out task (src/measure/rounds.ts), an entry of its own. */
export function cacheKeyParts(p: Prepared, skill: LoadedSkill, round?: number): CacheKeyParts {
  return {
    ...(round !== undefined ? { round } : {}),
    skill: skill.contentHash,
    suite: p.suite.contentHash,
    engine: p.engine.identity(),
    judge_engine: p.judgeEngine ? p.judgeEngine.identity() : null,
    pass_k: p.passK,
    task_timeout_ms: p.cfg.taskTimeoutMs,
  };
}

export function evaluationKey(p: Prepared, skill: LoadedSkill, round?: number): string {
  return baselineCacheKey(cacheKeyParts(p, skill, round));
}

/**
 * Whether the engines answer the same way every time (evaluate.deterministic): `auto` takes the mock —
 * task engine and judge engine alike — as deterministic, and any model or command engine as noisy, since
 * nothing short of repeating a call can show otherwise.
 */
export function engineNoise(p: { cfg: Pick<PipelineConfig, 'deterministic'>; engine: Pick<Engine, 'type'>; judgeEngine?: Pick<Engine, 'type'> | null }): { deterministic: boolean; why: string } {
  const setting = p.cfg.deterministic;
  if (setting !== 'auto') return { deterministic: setting, why: `evaluate.deterministic: ${setting}` };
  // Only the engines' types are read, so a night can say the same from the types its artifact recorded.
  const noisy = [p.engine, p.judgeEngine].filter((e): e is Pick<Engine, 'type'> => !!e && e.type !== 'mock');
  if (noisy.length === 0) return { deterministic: true, why: 'the mock engine answers the same way every time' };
  return { deterministic: false, why: `${noisy.map((e) => e.type).join(' and ')} answers may vary from call to call (evaluate.deterministic: auto)` };
}

export function engineInfo(e: Engine | undefined) {
  return e ? { type: e.type, identity: e.identity(), mock: e.type === 'mock' } : null;
}

/** The budget an evaluation runs under: the caller's, or one for this run from pipeline.yaml. */
export function budgetFor(ctx: EvaluateContext, p: Prepared, runDir: string): Budget | undefined {
  if (ctx.budget) return ctx.budget;
  if (Budget.unlimited(p.cfg.budgets)) return undefined;
  return Budget.forRun(p.cfg.budgets, runDir, () => ctx.now().getTime(), ctx.log);
}
