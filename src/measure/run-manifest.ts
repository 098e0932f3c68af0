// The run.json an evaluation writes, standalone or pipeline mode: what was evaluated (target, suite,
// engine, config, pass-k), when, and how it ended. In pipeline mode a ranking from outside the state dir
// names a run the state dir may never have seen; without a run.json, `whet status` and `whet show` skip
// the run (they list runs by their manifest), so one is written as standalone mode does. A run that
// already has a manifest of another mode (a loop run, whose evaluate stage comes through here too) keeps
// its own.
import { writeRunManifest, readRunManifest, type RunManifest } from '../state/runs.js';
import type { LoadedSkill } from '../skill/read.js';
import type { Prepared } from './setup.js';

export type PipelineRunStatus = 'completed' | 'incomplete' | 'failed' | 'interrupted' | 'budget_exhausted' | 'rate_limited';

export interface PipelineRun {
  /** Records how the evaluation ended; a no-op for a run whose manifest another mode owns. */
  finish(status: PipelineRunStatus, now: Date): Promise<void>;
}

/** The manifest fields both modes record, with `created_at` kept from the run's first session. */
export function evaluationManifest(mode: 'standalone' | 'pipeline', runId: string, p: Prepared, target: LoadedSkill, createdAt: string | undefined, now: Date): RunManifest {
  return {
    schema: 'whetstone.run/1',
    run_id: runId,
    mode,
    status: 'running',
    created_at: createdAt ?? now.toISOString(),
    updated_at: now.toISOString(),
    target: { skill_path: target.file, sha256: target.contentHash },
    suite: { path: p.suite.path, sha256: p.suite.contentHash },
    engine: p.engine.identity(),
    config: { path: p.cfg.path ?? null, sha256: p.cfg.hash || 'none' },
    pass_k: p.passK,
  };
}

export async function openPipelineRun(runDir: string, runId: string, p: Prepared, target: LoadedSkill, now: Date): Promise<PipelineRun> {
  const existing = readRunManifest(runDir);
  if (existing && existing.mode !== 'pipeline') return { finish: async () => undefined };
  const manifest: RunManifest = { ...existing, ...evaluationManifest('pipeline', runId, p, target, existing?.created_at, now) };
  await writeRunManifest(runDir, manifest);
  return { finish: (status, at) => writeRunManifest(runDir, { ...manifest, status, updated_at: at.toISOString() }) };
}
