// `whet baseline`: a standalone evaluation of every target in pipeline.yaml, each cached by content with
// its TTL, all running in one invocation under one shared concurrency limit. `fresh` (whet nightly)
// measures every task instead: neither the cache nor an unfinished earlier run is read.
// The fan-out over the targets (forEachTarget) is the one their shards (shard-targets.ts) run through too.
import { relative, resolve } from 'node:path';
import { refuseUnusableEngines } from '../engines/offline-checks.js';
import pLimit from 'p-limit';
import { lacking, loadPipeline, type PipelineConfig } from '../config/pipeline.js';
import { expandTargets, type ResolvedTarget } from '../config/targets.js';
import { UsageError } from '../core/errors.js';
import type { RunEnv } from '../core/run-env.js';
import { acquireStateLock } from '../state/lock.js';
import { runStandalone, type AfterFirst } from '../measure/standalone.js';
import type { StandaloneEvaluation } from '../artifacts/evaluation.js';
import { openMeasurement, type EvaluateContext } from '../measure/setup.js';

export type BaselineEnv = RunEnv;

export interface TargetBaseline {
  target: ResolvedTarget;
  run_id: string;
  artifact: StandaloneEvaluation;
  artifactPath: string;
}

/**
 * pipeline.yaml's targets (refused when there are none), the state directory (`--state-root` first) and
 * the one concurrency limit every target's evaluation shares, as `whet baseline` and its shards run them.
 */
export async function openTargets(
  e: RunEnv,
  o: { config?: string; stateRoot?: string },
): Promise<{ cfg: PipelineConfig; targets: ResolvedTarget[]; stateDir: string; limiter: <T>(fn: () => Promise<T>) => Promise<T> }> {
  const cfg = await loadPipeline(o.config, e.cwd);
  const targets = expandTargets(cfg, e.log);
  if (targets.length === 0) throw new UsageError(lacking(cfg, `no targets in ${cfg.path ?? 'pipeline.yaml'}: add "targets:" (a skill folder, SKILL.md, or a glob)`));
  const stateDir = o.stateRoot ? resolve(e.cwd, o.stateRoot) : cfg.stateDir;
  const shared = pLimit(cfg.concurrency);
  return { cfg, targets, stateDir, limiter: (fn) => shared(fn) };
}

/** What runs in a target's evaluation after its first measurement (whet nightly's drift rounds), if anything. */
export type AfterTarget = (t: ResolvedTarget, all: Fanned) => AfterFirst | undefined;

/** What every target's evaluation of one fan-out shares. */
export interface Fanned {
  cfg: PipelineConfig;
  stateDir: string;
  targets: ResolvedTarget[];
}

/** A target's evaluation as the fan-out hands it over: its context (skill, suite, engine, state), the target, and all. */
export type TargetEvaluation<R> = (ctx: EvaluateContext, t: ResolvedTarget, all: Fanned) => Promise<R>;

/**
 * The nightly fan-out: every target of pipeline.yaml evaluated at once, under the state lock (taken here as
 * `holder`) and the one concurrency limit, each with its own context — its skill, suite and engine, the
 * state directory and config, its log lines prefixed with its folder, the caller's signal and progress
 * output. `whet baseline`, `whet nightly` and their `--shard` runs (shard-targets.ts) all fan out through
 * it, so what a target's evaluation is given cannot differ between them.
 */
export async function forEachTarget<R>(
  e: RunEnv,
  o: { config?: string; stateRoot?: string; mock?: boolean },
  holder: string,
  evaluate: TargetEvaluation<R>,
): Promise<Fanned & { results: R[] }> {
  const { cfg, targets, stateDir, limiter } = await openTargets(e, o);
  // The lock creates the state directory: a missing key or agent CLI is refused before it (issue 41). A
  // judge engine is checked with its target's suite, in openMeasurement.
  if (!o.mock) await refuseUnusableEngines(targets.map((t) => (t.engine ? { where: `targets[${relative(cfg.dir, t.skillDir) || '.'}].engine`, cfg: t.engine } : { where: 'engine', cfg: cfg.engine })), e.env, e.cwd);
  const contexts = targets.map(
    (t): EvaluateContext => ({
      cwd: e.cwd,
      env: e.env,
      now: e.now,
      log: (l) => e.log(`${t.skillDir}: ${l}`),
      signal: e.signal,
      lockHeld: true,
      limiter,
      ...(e.progressOut ? { progressOut: e.progressOut } : {}),
      source: { taskSuite: t.suitePath, stateRoot: stateDir, config: cfg.path, mock: o.mock, engine: t.engine },
    }),
  );
  // Every target's suite and engines opened before the lock creates the state directory: a bad suite is
  // refused with exit 2 and the state directory as it was (issue 42). Each evaluation then uses what was opened.
  for (const ctx of contexts) {
    const opened = await openMeasurement(ctx, cfg);
    ctx.opened = () => Promise.resolve(opened);
  }
  const lock = await acquireStateLock(stateDir, holder, { report: e.log });
  try {
    const results = await Promise.all(targets.map((t, i) => evaluate(contexts[i]!, t, { cfg, stateDir, targets })));
    return { cfg, stateDir, targets, results };
  } finally {
    await lock.release();
  }
}

export async function baselineAll(
  e: BaselineEnv,
  o: { config?: string; stateRoot?: string; force?: boolean; mock?: boolean; fresh?: boolean; after?: AfterTarget },
): Promise<{ cfg: PipelineConfig; stateDir: string; results: TargetBaseline[]; interrupted: boolean }> {
  let interrupted = false;
  const { cfg, stateDir, results } = await forEachTarget(e, o, 'whet baseline', async (ctx, t, all): Promise<TargetBaseline | undefined> => {
    const r = await runStandalone({ ...ctx, settings: { ...ctx.settings, force: o.force, fresh: o.fresh } }, { skillPath: t.skillDir }, o.after?.(t, all));
    if (r.interrupted) {
      interrupted = true;
      return undefined;
    }
    return { target: t, run_id: r.artifact.run_id, artifact: r.artifact as StandaloneEvaluation, artifactPath: r.artifactPath };
  });
  return { cfg, stateDir, results: results.filter((r): r is TargetBaseline => r !== undefined), interrupted };
}
