// pipeline.yaml: what is evaluated, on which engine, with which settings. Paths in it are relative to
// the file's folder. Every field is optional so a project can start from nothing; defaults live here.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { duration } from './duration-schema.js';
import { engineConfig, type EngineConfig } from './engine-schema.js';
import { externalStagesSchema, resolveExternalStages, type ExternalStages } from './external-stages.js';
import { loadYaml } from './load-yaml.js';
import { resolveSuiteOverrides, suiteOverridesSchema, type SuiteOverrides } from './suite-overrides-schema.js';
import { resolveThresholds, thresholdsSchema, type Thresholds } from './thresholds.js';

export const DEFAULTS = {
  passK: 1,
  concurrency: 8,
  evalThreshold: 6.0,
  baselineMinPassRate: 0.2,
  standaloneMinPassRate: 0.5,
  /** Trigger suites: skill-creator counts a query as triggering at a rate of 0.5 over its runs; the same bar, pooled. */
  minTriggerRate: 0.5,
  maxFalseTriggerRate: 0.2,
  /** More of the suite than this errored: the verdict is `error`, whatever the judged tasks say. */
  maxErrorShare: 0.1,
  taskTimeoutMs: 120_000,
  maxAttempts: 10,
  cacheTtlMs: 7 * 86_400_000,
} as const;

const targetSchema = z.strictObject({
  /** A skill folder, a SKILL.md, or a glob of them. */
  skill: z.string().min(1),
  /** The task suite; default: tasks.yaml or task_suite.yaml beside the skill. */
  suite: z.string().min(1).optional(),
  engine: engineConfig.optional(),
});

export const pipelineSchema = z.strictObject({
  version: z.literal(1).optional(),
  state_dir: z.string().min(1).optional(),
  engine: engineConfig.optional(),
  /** Engine for llm-rubric judges; default: the task engine. */
  judge_engine: engineConfig.optional(),
  targets: z.array(targetSchema).optional(),
  /** Per suite file (relative path): categories, negative controls and splits without editing it. */
  suites: z.record(z.string().min(1), suiteOverridesSchema).optional(),
  evaluate: z
    .strictObject({
      pass_k: z.number().int().min(1).max(100).optional(),
      concurrency: z.number().int().min(1).max(1024).optional(),
      eval_threshold: z.number().optional(),
      /** Per candidate category (seed 001: "docs=5.0, prompt=7.0"); a category not listed uses eval_threshold. */
      eval_thresholds: z.record(z.string().min(1), z.number()).optional(),
      baseline_min_pass_rate: z.number().min(0).max(1).optional(),
      /** A standalone evaluation below this pass rate has verdict `fail` (seed: 0.5). */
      standalone_min_pass_rate: z.number().min(0).max(1).optional(),
      /** A trigger suite (should_trigger queries) passes only when the skill triggers on at least this share of should-trigger runs. */
      min_trigger_rate: z.number().min(0).max(1).optional(),
      /** …and on at most this share of should-not-trigger runs (the pooled pass rate does not decide it). */
      max_false_trigger_rate: z.number().min(0).max(1).optional(),
      /** Share of tasks that may error (engine or judge) before the verdict is `error` (default 0.1). */
      max_error_share: z.number().min(0).max(1).optional(),
      task_timeout: duration.optional(),
      /** In a loop run: hand the candidate's evaluation to this many shards (whet evaluate --run R --shard i/N). */
      shards: z.number().int().min(1).max(256).optional(),
      /**
       * Attempts per held-out task per variant at most on an engine whose answers vary (docs/method.md:
       * Deciding on a noisy agent): rounds of one more attempt run until the gate's test is decided or this.
       */
      max_attempts: z.number().int().min(1).max(1000).optional(),
      /**
       * Whether the engine (and judge engine) answer the same way every time: `auto` takes the mock as
       * deterministic and every model or command engine as noisy; `true` decides on one attempt per task.
       */
      deterministic: z.union([z.literal('auto'), z.boolean()]).optional(),
      /**
       * On a noisy engine, when a candidate's train tasks are measured: `when_kept` (after the held-out
       * test keeps it; they decide nothing) or `always` (with the held-out tasks, before the decision).
       */
      measure_train: z.enum(['when_kept', 'always']).optional(),
    })
    .optional(),
  thresholds: thresholdsSchema.optional(),
  loop: z
    .strictObject({
      max_iterations: z.number().int().min(1).max(1000).optional(),
      /** Stop after this many iterations in a row without a kept candidate. */
      plateau_window: z.number().int().min(1).optional(),
      /**
       * Where a run on the mock (its task or generator engine) applies what it keeps: `copy`, a copy of the
       * skill in state/mock-copies/ (the default: the mock is not a model), or `apply`, the skill itself —
       * the author asking, in the config, for what `whet run --apply` asks for one run.
       */
      mock_keeps: z.enum(['copy', 'apply']).optional(),
      candidates_per_iteration: z.number().int().min(1).max(50).optional(),
      proposers: z.array(z.enum(['structural', 'feedback', 'llm'])).min(1).optional(),
      /** Engine the llm proposer asks; default: the task engine. */
      generator_engine: engineConfig.optional(),
      /** Share of tasks without an explicit split that go to the held-out split. */
      holdout_ratio: z.number().min(0).max(0.9).optional(),
      /** Run the candidate and the baseline on this many train tasks before a full evaluation (0: off). */
      minibatch: z.number().int().min(0).optional(),
      /** A symbolic link where a keep writes into the skill: refused (default), or replaced by a file. */
      skill_links: z.enum(['refuse', 'replace']).optional(),
      discriminate: z
        .strictObject({
          /** Ask an engine to rate each candidate (stages/discriminate/judge.ts); off by default. */
          llm_judge: z.boolean().optional(),
          /** Engine the llm judge asks; default: judge_engine, else the task engine. */
          judge_engine: engineConfig.optional(),
        })
        .optional(),
    })
    .optional(),
  budgets: z
    .strictObject({
      max_engine_calls: z.number().int().min(1).optional(),
      max_cost_usd: z.number().positive().optional(),
      max_wall_time: duration.optional(),
    })
    .optional(),
  /** A loop stage replaced by a program of the user's (docs/external-stages.md). */
  stages: externalStagesSchema.optional(),
  cache: z
    .strictObject({
      dir: z.string().min(1).optional(),
      ttl: duration.optional(),
      enabled: z.boolean().optional(),
    })
    .optional(),
});
export type PipelineInput = z.infer<typeof pipelineSchema>;

export interface PipelineConfig {
  /** Absolute path of the file, or undefined when none was found. */
  path?: string;
  /** `file:line:col` of a node of the file (a target's path that names nothing is refused there). */
  at?: (path: (string | number)[]) => string;
  /** sha256 of the file's bytes ("" when there is no file). */
  hash: string;
  dir: string;
  stateDir: string;
  engine?: EngineConfig;
  judgeEngine?: EngineConfig;
  targets: { skill: string; suite?: string; engine?: EngineConfig }[];
  suiteOverrides: SuiteOverrides[];
  passK: number;
  concurrency: number;
  /** `evaluate.shards`: 1 runs the loop's evaluation here; more hands it to that many shards. */
  evaluateShards: number;
  evalThreshold: number;
  /** evaluate.eval_thresholds: a candidate of a listed category needs this score instead of evalThreshold. */
  evalThresholds: Record<string, number>;
  baselineMinPassRate: number;
  standaloneMinPassRate: number;
  minTriggerRate: number;
  maxFalseTriggerRate: number;
  maxErrorShare: number;
  /** evaluate.max_attempts: the rounds' bound on a noisy engine. */
  maxAttempts: number;
  /** evaluate.deterministic: 'auto' decides from the engines (src/evaluation/noise.ts). */
  deterministic: 'auto' | boolean;
  /** evaluate.measure_train: on a noisy engine, train tasks after a keep or always (src/measure/train-after-keep.ts). */
  measureTrain: 'when_kept' | 'always';
  taskTimeoutMs: number;
  cacheDir?: string;
  cacheTtlMs: number;
  cacheEnabled: boolean;
  thresholds: Thresholds;
  loop: {
    maxIterations: number;
    plateauWindow: number;
    mockKeeps: 'copy' | 'apply';
    candidatesPerIteration: number;
    proposers: ('structural' | 'feedback' | 'llm')[];
    generatorEngine?: EngineConfig;
    holdoutRatio: number;
    minibatch: number;
    llmJudge: boolean;
    llmJudgeEngine?: EngineConfig;
    /** loop.skill_links (src/skill/links.ts). */
    skillLinks: 'refuse' | 'replace';
  };
  budgets: { maxEngineCalls?: number; maxCostUsd?: number; maxWallTimeMs?: number };
  /** `stages:`: stages run by an external program instead of the built-in one. */
  externalStages: ExternalStages;
}

/** What a command that needs a project says in a folder with none: how to make one, or name one (issue 41). */
export const NO_PROJECT = 'no pipeline.yaml here: run `whet init`, or pass -c FILE';

/** `missing` (what the config lacks), or, when there is no config at all, NO_PROJECT followed by it. */
export function lacking(cfg: Pick<PipelineConfig, 'path'>, missing: string): string {
  return cfg.path ? missing : `${NO_PROJECT} (${missing})`;
}

/**
 * Loads `file`, or `pipeline.yaml` in `cwd` when no file is named. A named file that is missing is an
 * error; a missing default file means "no config" and every default applies.
 */
export async function loadPipeline(file: string | undefined, cwd: string): Promise<PipelineConfig> {
  const path = file ? resolve(cwd, file) : resolve(cwd, 'pipeline.yaml');
  if (!file && !existsSync(path)) return fromInput({}, undefined, '', cwd, () => '');
  const loaded = loadYaml(path, pipelineSchema, 'pipeline config');
  return fromInput(loaded.value, path, `sha256:${createHash('sha256').update(loaded.bytes).digest('hex')}`, dirname(path), (p) => loaded.at(p));
}

function fromInput(v: PipelineInput, path: string | undefined, hash: string, dir: string, at: (p: (string | number)[]) => string): PipelineConfig {
  const e = v.evaluate ?? {};
  return {
    path,
    ...(path ? { at } : {}),
    hash,
    dir,
    stateDir: resolve(dir, v.state_dir ?? 'state'),
    engine: v.engine,
    judgeEngine: v.judge_engine,
    targets: (v.targets ?? []).map((t) => ({ ...t, skill: resolve(dir, t.skill), suite: t.suite ? resolve(dir, t.suite) : undefined })),
    suiteOverrides: resolveSuiteOverrides(v.suites, dir, at),
    passK: e.pass_k ?? DEFAULTS.passK,
    concurrency: e.concurrency ?? DEFAULTS.concurrency,
    evaluateShards: e.shards ?? 1,
    evalThreshold: e.eval_threshold ?? DEFAULTS.evalThreshold,
    evalThresholds: { ...(e.eval_thresholds ?? {}) },
    baselineMinPassRate: e.baseline_min_pass_rate ?? DEFAULTS.baselineMinPassRate,
    standaloneMinPassRate: e.standalone_min_pass_rate ?? DEFAULTS.standaloneMinPassRate,
    minTriggerRate: e.min_trigger_rate ?? DEFAULTS.minTriggerRate,
    maxFalseTriggerRate: e.max_false_trigger_rate ?? DEFAULTS.maxFalseTriggerRate,
    maxErrorShare: e.max_error_share ?? DEFAULTS.maxErrorShare,
    maxAttempts: e.max_attempts ?? DEFAULTS.maxAttempts,
    deterministic: e.deterministic ?? 'auto',
    measureTrain: e.measure_train ?? 'when_kept',
    taskTimeoutMs: e.task_timeout ?? DEFAULTS.taskTimeoutMs,
    cacheDir: v.cache?.dir ? resolve(dir, v.cache.dir) : undefined,
    cacheTtlMs: v.cache?.ttl ?? DEFAULTS.cacheTtlMs,
    cacheEnabled: v.cache?.enabled ?? true,
    thresholds: resolveThresholds(v.thresholds),
    loop: {
      maxIterations: v.loop?.max_iterations ?? 5,
      plateauWindow: v.loop?.plateau_window ?? 2,
      mockKeeps: v.loop?.mock_keeps ?? 'copy',
      candidatesPerIteration: v.loop?.candidates_per_iteration ?? 3,
      proposers: v.loop?.proposers ?? ['structural', 'feedback'],
      generatorEngine: v.loop?.generator_engine,
      holdoutRatio: v.loop?.holdout_ratio ?? 0.3,
      minibatch: v.loop?.minibatch ?? 0,
      llmJudge: v.loop?.discriminate?.llm_judge ?? false,
      llmJudgeEngine: v.loop?.discriminate?.judge_engine,
      skillLinks: v.loop?.skill_links ?? 'refuse',
    },
    budgets: { maxEngineCalls: v.budgets?.max_engine_calls, maxCostUsd: v.budgets?.max_cost_usd, maxWallTimeMs: v.budgets?.max_wall_time },
    externalStages: resolveExternalStages(v.stages, dir),
  };
}

/** The `suites:` overrides of a run's pipeline.yaml, read again where no config is loaded (reports); none if it is gone. */
export function suiteOverridesIn(configPath: string | null | undefined): SuiteOverrides[] {
  if (!configPath || !existsSync(configPath)) return [];
  const loaded = loadYaml(configPath, pipelineSchema, 'pipeline config');
  return resolveSuiteOverrides(loaded.value.suites, dirname(configPath), (p) => loaded.at(p));
}
