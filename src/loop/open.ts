// Starting a loop run (registering what it improves, its thresholds and its other decision settings) and
// opening an existing run for a stage. Both read pipeline.yaml; opening compares nothing — the runner
// does, before it moves or writes anything (src/runner/preflight.ts).
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { materialise } from '../state/variant.js';
import { readArtifact } from '../state/artifact-io.js';
import { lacking, loadPipeline, type PipelineConfig } from '../config/pipeline.js';
import { loadSuiteWith } from '../config/suite-overrides.js';
import { thresholdsHash } from '../config/thresholds.js';
import { registeredSettings, settingsHash } from '../config/registered.js';
import { displayPath } from '../config/load-yaml.js';
import { UsageError } from '../core/errors.js';
import { writeFileAtomically } from '../core/atomic.js';
import { sha256 } from '../core/hash.js';
import { readSkill, skillFileOf } from '../skill/read.js';
import { appendEvent } from '../state/events.js';
import { RECORDS } from '../state/recorded.js';
import { refuseEscapingLinks } from '../skill/links.js';
import { stateLayout } from '../state/layout.js';
import { removeOrphanMockCopies } from '../state/mock-copies.js';
import { newRunId, runManifest, writeRunManifest } from '../state/runs.js';
import type { RunEnv } from '../core/run-env.js';
import type { LoopContext } from './context.js';
import { refuseMissingTargetPaths, suiteFor } from '../config/targets.js';
import { measuredSkillId, triggerEngineRefusal } from '../config/trigger-engine.js';
import type { EngineConfig } from '../config/engine-schema.js';
import type { Suite } from '../config/suite-schema.js';
import { refuseUnusableEngines } from '../engines/offline-checks.js';
export { resolveRun } from './resolve-run.js';
import { loopManifest, type LoopManifest } from './manifest.js';
import type { Opened } from '../measure/setup.js';
import { runSource } from './evaluate-context.js';

export type LoopEnv = RunEnv;

export interface StartOptions {
  configPath?: string;
  stateRoot?: string;
  mock?: boolean;
  targetSkill?: string;
  /** --eval-threshold: registered instead of evaluate.eval_threshold. */
  evalThreshold?: number;
  /**
   * `whet run --apply`: a run on the mock edits the skill itself. Without it, a run whose task or generator
   * engine is the mock — by --mock or by the config — improves a copy of the skill (state/mock-copies/),
   * never the author's own: the mock quotes the skill, and its keeps are template text. Refused on a run
   * on models, whose keeps are applied anyway.
   */
  apply?: boolean;
}

export interface RunPlan {
  cfg: PipelineConfig;
  manifest: LoopManifest;
  stateDir: string;
  runDir: string;
  /** The skill folder a mock run copies to its target (manifest.target) when the run is created. */
  copyOf?: string;
  /** Why the run is on the mock (its engine or generator engine, and where that was set); undefined on models. */
  mockBecause?: string;
  /** What asked for a mock run's keeps on the skill itself: `--apply` or loop.mock_keeps in the config. */
  applyAsked?: string;
}

/**
 * Checks everything a new run needs (config, target, suite, engine) without writing anything, so bad
 * input leaves the state directory as it was.
 */
export async function planRun(e: LoopEnv, o: StartOptions): Promise<RunPlan> {
  const loaded = await loadPipeline(o.configPath, e.cwd);
  // A flag is what the new run registers, in place of pipeline.yaml's value.
  const cfg = o.evalThreshold === undefined ? loaded : { ...loaded, evalThreshold: o.evalThreshold };
  const target = o.targetSkill ? { skill: resolve(e.cwd, o.targetSkill), suite: undefined } : cfg.targets[0];
  if (!target) throw new UsageError(lacking(cfg, `no target to improve: add "targets:" to ${cfg.path ?? 'pipeline.yaml'} or pass --target SKILL_DIR`));
  if (!o.targetSkill) refuseMissingTargetPaths(cfg, 0);
  if (!o.mock && !cfg.engine) throw new UsageError(lacking(cfg, `no engine configured: set "engine:" in ${cfg.path ?? 'pipeline.yaml'} or pass --mock`));
  const skillFile = skillFileOf(target.skill);
  const skill = readSkill(skillFile);
  const suitePath = suiteFor(skill.dir!, target.suite);
  const suite = loadSuiteWith(cfg, suitePath);
  const engineCfg = o.mock ? ({ type: 'mock' } as const) : (target.engine ?? cfg.engine);
  const refusal = engineCfg && triggerEngineRefusal(suite.tasks, engineCfg, o.mock ? 'pipeline.yaml (and drop --mock)' : (cfg.path ?? 'pipeline.yaml'));
  if (refusal) throw new UsageError(refusal);
  // A missing key or agent CLI is refused before the run folder exists (issue 41), not found by its first calls.
  if (!o.mock) await refuseUnusableEngines(loopEngines(cfg, engineCfg, suite.tasks), e.env, e.cwd);
  const stateDir = resolve(e.cwd, o.stateRoot ?? cfg.stateDir);
  // Every variant copies the folder: a link out of it is refused now, before the state directory is touched.
  refuseEscapingLinks(skill.dir!);
  const now = e.now();
  const runId = newRunId(stateDir, measuredSkillId(suite, skill.name), now);
  const runDir = stateLayout.runDir(stateDir, runId);
  const settings = registeredSettings(cfg, suite.tasks);
  const because = mockBecause(cfg, engineCfg, o.mock === true);
  if (o.apply && !because) throw new UsageError(`--apply is for a run on the mock engine: this run's engine (${engineCfg?.type ?? 'none'}) is a model's, and what its gate keeps is applied to ${skill.file} anyway`);
  // Asked for by --apply, or in the config (loop.mock_keeps: apply); else the mock improves a copy.
  const applyAsked = o.apply ? '--apply' : cfg.loop.mockKeeps === 'apply' ? `loop.mock_keeps: apply in ${cfg.path ? basename(cfg.path) : 'pipeline.yaml'}` : undefined;
  // The copy keeps the folder's name: a skill's name must match its folder's.
  const copy = because && !applyAsked ? join(stateLayout.mockCopy(stateDir, runId), basename(skill.dir!)) : undefined;
  const manifest: LoopManifest = {
    schema: 'whetstone.run/1',
    run_id: runId,
    mode: 'loop',
    status: 'running',
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    target: copy ? { skill_path: join(copy, basename(skill.file)), skill_dir: copy, sha256: skill.contentHash } : { skill_path: skill.file, skill_dir: skill.dir!, sha256: skill.contentHash },
    suite: { path: suite.path, sha256: suite.contentHash },
    config: { path: cfg.path ?? null, sha256: cfg.hash || 'none' },
    thresholds: { ...cfg.thresholds } as Record<string, unknown>,
    thresholds_sha256: thresholdsHash(cfg.thresholds),
    settings,
    settings_sha256: settingsHash(settings),
    ...(o.evalThreshold === undefined ? {} : { flags: { eval_threshold: o.evalThreshold } }),
    mock: o.mock ?? false,
    ...(because ? { mock_keeps: { applied_to: copy ? ('copy' as const) : ('skill' as const), skill_dir: skill.dir!, because, ...(applyAsked ? { asked_by: applyAsked } : {}) } } : {}),
    iteration: 1,
  };
  return { cfg, manifest, stateDir, runDir, ...(copy ? { copyOf: skill.dir! } : {}), ...(because ? { mockBecause: because } : {}), ...(applyAsked ? { applyAsked } : {}) };
}

/**
 * Why a loop run is on the mock, in words for the summary and run.json (`mock_keeps.because`): its task
 * engine (--mock, a target's engine or pipeline.yaml's) or, with the llm proposer, its generator engine.
 * The mock's candidates are template text and its measurements quote the skill: either makes a keep no
 * evidence of a better skill. Undefined for a run on models.
 */
function mockBecause(cfg: PipelineConfig, engine: EngineConfig | undefined, flag: boolean): string | undefined {
  const where = cfg.path ? basename(cfg.path) : 'pipeline.yaml';
  if (flag) return 'engine: mock, by --mock';
  if (engine?.type === 'mock') return `engine: mock in ${where}`;
  const generator = cfg.loop.proposers.includes('llm') ? (cfg.loop.generatorEngine ?? cfg.engine) : undefined;
  if (generator?.type === 'mock') return `loop.generator_engine: mock in ${where}`;
  return undefined;
}

/** Every engine a loop run on real engines may call, by where the config names it. */
function loopEngines(cfg: PipelineConfig, engine: EngineConfig | undefined, tasks: Suite['tasks']): { where: string; cfg: EngineConfig | undefined }[] {
  const needsJudge = tasks.some((t) => t.judges.some((j) => j.type === 'llm-rubric' || j.type === 'llm_rubric'));
  return [
    { where: 'engine', cfg: engine },
    { where: 'judge_engine', cfg: needsJudge ? cfg.judgeEngine : undefined },
    { where: 'loop.generator_engine', cfg: cfg.loop.proposers.includes('llm') ? (cfg.loop.generatorEngine ?? cfg.engine) : undefined },
    { where: 'loop.discriminate.judge_engine', cfg: cfg.loop.llmJudge ? (cfg.loop.llmJudgeEngine ?? cfg.judgeEngine ?? cfg.engine) : undefined },
  ];
}

/**
 * Writes the run's manifest: from here on its thresholds are registered. A copy of it as registered is kept
 * once, in registered.json, and run_started names it by hash (`registered_sha256`), so `whet verify --repair`
 * can rebuild a lost run.json while the event line stays small: it carried the whole manifest, each task's
 * split included — megabytes at 100,000 tasks — and every reader of events.jsonl parsed it (issue 43).
 */
export async function createRun(plan: RunPlan, now: Date): Promise<void> {
  if (plan.copyOf) {
    // The copies of runs removed since (by hand) go first: the folder holds one copy per run in runs/.
    removeOrphanMockCopies(plan.stateDir);
    const { skill_dir: to, skill_path } = plan.manifest.target;
    await materialise({ targetDir: plan.copyOf, variantDir: to, skillText: readFileSync(join(plan.copyOf, basename(skill_path)), 'utf8'), exclude: [] });
  }
  // registered.json before run.json: a disk that fills between them leaves no run.json whose events.jsonl,
  // with the hashes of what was written, is missing — only a folder that is not yet a run.
  const registered = `${JSON.stringify(plan.manifest)}\n`;
  await writeFileAtomically(stateLayout.registeredManifest(plan.runDir), registered);
  await writeRunManifest(plan.runDir, plan.manifest);
  appendEvent(plan.runDir, { event: 'run_started', target: plan.manifest.target.skill_path, thresholds_sha256: plan.manifest.thresholds_sha256, settings_sha256: plan.manifest.settings_sha256, ...RECORDS, registered_sha256: sha256(registered) }, now);
}

/** planRun + createRun, for callers that already hold the state lock (tests, stage programs). */
export async function startRun(e: LoopEnv, o: StartOptions): Promise<RunPlan> {
  const plan = await planRun(e, o);
  await createRun(plan, e.now());
  return plan;
}

/**
 * `evalThreshold` is this call's --eval-threshold: it overrides pipeline.yaml here and the runner then
 * compares it with the registered value (a different one is refused, never applied).
 */
export async function openRun(e: LoopEnv, o: { stateDir: string; runId: string; iteration?: number; evalThreshold?: number }): Promise<LoopContext> {
  const runDir = stateLayout.runDir(o.stateDir, o.runId);
  const any = readArtifact(stateLayout.runManifest(runDir), runManifest, 'run manifest');
  if (any.mode !== 'loop') throw new UsageError(notALoopRun(o.runId, any.mode, runDir));
  const manifest = readArtifact(stateLayout.runManifest(runDir), loopManifest, 'run manifest');
  const loaded = await loadPipeline(manifest.config.path ?? undefined, e.cwd);
  const evalThreshold = o.evalThreshold ?? manifest.flags?.eval_threshold;
  const config = evalThreshold === undefined ? loaded : { ...loaded, evalThreshold };
  const flags = o.evalThreshold === undefined ? {} : { flags: { evalThreshold: o.evalThreshold } };
  let opening: Promise<Opened> | undefined;
  const ctx: LoopContext = {
    ...e,
    stateDir: o.stateDir,
    runId: o.runId,
    runDir,
    manifest,
    config,
    ...flags,
    iteration: o.iteration ?? manifest.iteration,
    // Imported when a stage first measures: `whet status` and `show` open runs too, and need no engine.
    opened: () => (opening ??= import('../measure/setup.js').then((m) => m.openMeasurement({ ...e, source: runSource(ctx) }, config))),
  };
  return ctx;
}

/**
 * Why a run `whet evaluate` made cannot be gated or resumed, and what to do instead. Gating needs what
 * only a loop run has: thresholds registered before any result, and the candidate's edits and materialised
 * folder (candidates.json) to check and apply. Gating an evaluation with thresholds chosen after its
 * results exist is what the gate exists to prevent, so this is a refusal with directions, not a fallback.
 */
function notALoopRun(runId: string, mode: 'standalone' | 'pipeline', runDir: string): string {
  const made = mode === 'pipeline' ? 'whet evaluate in pipeline mode (one ranked candidate against the target)' : 'whet evaluate --standalone (the current skill measured once)';
  return [
    `run ${runId} was made by ${made}; whet resume, whet gate and the other stage commands continue improvement-loop runs made by "whet run".`,
    `An evaluation has no thresholds registered before its results and no candidates.json to check and apply, so it cannot be gated after the fact.`,
    `Its result: ${displayPath(runDir)}/${mode === 'pipeline' ? 'iter-NNN/' : ''}evaluation.json (see "whet show ${runId}" or "whet report ${runId}").`,
    mode === 'pipeline'
      ? 'To gate and promote candidates, run the loop ("whet run", with the skill as a target in pipeline.yaml or --target SKILL_DIR), or use the evaluation\'s verdict and next_step in your own orchestrator.'
      : 'To improve the skill, run the loop: "whet run --target SKILL_DIR".',
  ].join('\n');
}
