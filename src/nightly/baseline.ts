// `whet baseline`: a standalone evaluation of every target in pipeline.yaml, each cached by content with
// its TTL, all running in one invocation under one shared concurrency limit. `fresh` (whet nightly)
// measures every task instead: neither the cache nor an unfinished earlier run is read.
import { resolve } from 'node:path';
import pLimit from 'p-limit';
import { loadPipeline, type PipelineConfig } from '../config/pipeline.js';
import { expandTargets, type ResolvedTarget } from '../config/targets.js';
import { UsageError } from '../core/errors.js';
import type { RunEnv } from '../core/run-env.js';
import { acquireStateLock } from '../state/lock.js';
import { runStandalone, type AfterFirst } from '../measure/standalone.js';
import type { StandaloneEvaluation } from '../artifacts/evaluation.js';

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
  if (targets.length === 0) throw new UsageError(`no targets in ${cfg.path ?? 'pipeline.yaml'}: add "targets:" (a skill folder, SKILL.md, or a glob)`);
  const stateDir = o.stateRoot ? resolve(e.cwd, o.stateRoot) : cfg.stateDir;
  const shared = pLimit(cfg.concurrency);
  return { cfg, targets, stateDir, limiter: (fn) => shared(fn) };
}

/** What runs in a target's evaluation after its first measurement (whet nightly's drift rounds), if anything. */
export type AfterTarget = (t: ResolvedTarget, all: { cfg: PipelineConfig; stateDir: string; targets: ResolvedTarget[] }) => AfterFirst | undefined;

export async function baselineAll(
  e: BaselineEnv,
  o: { config?: string; stateRoot?: string; force?: boolean; mock?: boolean; fresh?: boolean; after?: AfterTarget },
): Promise<{ cfg: PipelineConfig; stateDir: string; results: TargetBaseline[]; interrupted: boolean }> {
  const { cfg, targets, stateDir, limiter } = await openTargets(e, o);
  const lock = await acquireStateLock(stateDir, 'whet baseline', { report: e.log });
  try {
    let interrupted = false;
    const results = await Promise.all(
      targets.map(async (t): Promise<TargetBaseline | undefined> => {
        const r = await runStandalone({
          cwd: e.cwd,
          env: e.env,
          now: e.now,
          log: (l) => e.log(`${t.skillDir}: ${l}`),
          signal: e.signal,
          lockHeld: true,
          limiter,
          ...(e.progressOut ? { progressOut: e.progressOut } : {}),
          options: { standalone: true, taskSuite: t.suitePath, skillPath: t.skillDir, stateRoot: stateDir, config: cfg.path, force: o.force, fresh: o.fresh, mock: o.mock, engine: t.engine },
        }, o.after?.(t, { cfg, stateDir, targets }));
        if (r.interrupted) {
          interrupted = true;
          return undefined;
        }
        return { target: t, run_id: r.artifact.run_id, artifact: r.artifact as StandaloneEvaluation, artifactPath: r.artifactPath };
      }),
    );
    return { cfg, stateDir, results: results.filter((r): r is TargetBaseline => r !== undefined), interrupted };
  } finally {
    await lock.release();
  }
}
