// `whet evaluate … --shard i/n`: run only this shard's share of the tasks (all attempts of each, the
// candidate and the baseline of a task together) into its own run directory, and write shard.json
// beside the results. No verdict and no cache: a shard sees part of the suite, so only `whet merge`,
// over all of them, decides and fills the baseline cache. A shard re-run with the same content resumes
// its own run, retrying its errors, as an unsharded run does.
import { resolve } from 'node:path';
import { writeArtifact } from '../state/artifact-io.js';
import { UsageError } from '../core/errors.js';
import { hashOf, SHARD_FILE, SHARD_SCHEMA, shardManifest, type ShardManifest } from '../evaluation/shard-manifest.js';
import { parseShardSpec, shardLabel, type ShardSpec } from '../evaluation/shard-plan.js';
import { readSkill, type LoadedSkill } from '../skill/read.js';
import { appendEvent } from '../state/events.js';
import { stateLayout } from '../state/layout.js';
import { acquireStateLock } from '../state/lock.js';
import { findResumableRun, newRunId, readRunManifest, writeRunManifest } from '../state/runs.js';
import { measure, type Measured } from './measure.js';
import { pipelineInputs } from './pipeline-inputs.js';
import { evaluationManifest } from './run-manifest.js';
import { budgetFor, prepare, type EvaluateContext, type MeasureRequest } from './setup.js';
import { planFor, shardContentOf } from './shard-content.js';

export type ShardResult =
  | { interrupted: true; runDir: string; budgetExhausted?: string }
  | { interrupted: false; spec: ShardSpec; manifestPath: string; manifest: ShardManifest; errors: number };

/** One shard's share of an evaluation: `i/n`, how to balance, and (baseline/nightly) the target it measures. */
export interface ShardRequest {
  shard: string;
  /** An earlier results log whose durations balance the shards (longest first); by attempt count without it. */
  durations?: string;
  /** The pipeline.yaml target a baseline/nightly shard measures (paths relative to the config's folder). */
  target?: { skill: string; suite: string };
  of: MeasureRequest;
}

export async function runShard(ctx: EvaluateContext, req: ShardRequest): Promise<ShardResult> {
  const spec = parseShardSpec(req.shard);
  if (ctx.settings?.output) throw new UsageError('--output names the evaluation artifact, which a shard does not write (whet merge does); drop it with --shard');
  const of = req.of;
  const p = await prepare(ctx);
  const plan = await planFor(ctx, p, spec.total, req.durations);
  const mine = p.suite.tasks.filter((t) => plan.assignment[t.id] === spec.index);
  const sp = { ...p, suite: { ...p.suite, tasks: mine } };

  let skill: LoadedSkill;
  let cand: { skill: LoadedSkill; id: string } | undefined;
  let runDir: string;
  let dir: string;
  let runId: string;
  let skipped: string | undefined;
  let evalThreshold: number | undefined;
  if (of.mode === 'standalone') {
    skill = readSkill(resolve(ctx.cwd, of.skillPath));
    runId = '';
    runDir = dir = '';
  } else {
    const pi = pipelineInputs(ctx, p, of);
    skill = pi.target;
    cand = { skill: pi.candSkill, id: pi.candidate.id };
    evalThreshold = pi.evalThreshold;
    if (pi.score !== null && pi.score < pi.evalThreshold) skipped = `score ${pi.score} < threshold ${pi.evalThreshold} (${pi.evalThresholdFrom})`;
    runId = pi.ranking.run_id;
    runDir = pi.runDir;
    // Beside the iteration's own results, never in them: the merge writes those.
    dir = `${pi.iterDir}/shards/${cand.id}-${shardLabel(spec)}`;
  }
  const content = shardContentOf(p, { mode: of.mode, skill, candidate: cand?.skill, candidateId: cand?.id, evalThreshold, total: spec.total, plan: plan.hash });

  const lock = ctx.lockHeld ? { release: async () => undefined } : await acquireStateLock(p.stateDir, `whet evaluate --shard ${spec.index}/${spec.total}`);
  try {
    const now = ctx.now();
    if (of.mode === 'standalone') {
      const key = `shard:${hashOf(content)}:${spec.index}`;
      const resumed = findResumableRun(p.stateDir, key);
      runId = resumed ?? newRunId(p.stateDir, `shard-${shardLabel(spec)}-${p.suite.skillId}`, now);
      runDir = dir = stateLayout.runDir(p.stateDir, runId);
      const previous = resumed ? readRunManifest(runDir) : undefined;
      await writeRunManifest(runDir, { ...evaluationManifest('standalone', runId, p, skill, previous?.created_at, now), evaluation_key: key });
      if (resumed) ctx.log(`resuming shard run ${runId}`);
    }
    appendEvent(runDir, { event: 'started', stage: 'evaluate', shard: `${spec.index}/${spec.total}`, tasks: mine.length }, now);
    ctx.log(`shard ${spec.index}/${spec.total}: ${mine.length} of ${p.suite.tasks.length} tasks (balanced by ${plan.balanced_by})`);

    const budget = budgetFor(ctx, p, runDir);
    const measured: { name: string; m: Measured }[] = [];
    if (!skipped) {
      const variants = cand ? [{ name: 'baseline', skill }, { name: cand.id, skill: cand.skill }] : [{ name: 'baseline', skill }];
      for (const v of variants) {
        const m = await measure(sp, ctx, { skill: v.skill, variant: v.name, dir, cacheable: false, budget });
        if (m.outcome.interrupted) {
          const exhausted = m.outcome.budgetExhausted;
          appendEvent(runDir, { event: exhausted ? 'budget_exhausted' : 'interrupted', stage: 'evaluate', shard: `${spec.index}/${spec.total}` }, ctx.now());
          if (of.mode === 'standalone') await writeRunManifest(runDir, { ...readRunManifest(runDir)!, status: exhausted ? 'budget_exhausted' : 'interrupted', updated_at: ctx.now().toISOString() });
          return { interrupted: true, runDir, ...(exhausted ? { budgetExhausted: exhausted } : {}) };
        }
        measured.push({ name: v.name, m });
      }
    }
    const errors = measured.reduce((n, v) => n + v.m.outcome.tallies.reduce((e, t) => e + t.errors, 0), 0);
    const manifest: ShardManifest = {
      schema: SHARD_SCHEMA,
      run_id: runId,
      created_at: ctx.now().toISOString(),
      covers: [spec.index],
      content,
      plan: { balanced_by: plan.balanced_by, loads: plan.loads },
      invocation: { task_suite: ctx.source.taskSuite!, skill_path: of.mode === 'standalone' ? of.skillPath : null, input: of.mode === 'pipeline' ? of.input : null, config: ctx.source.config ?? null, pass_k: ctx.settings?.passK ?? null, mock: ctx.source.mock === true, target: req.target ?? null },
      tasks: mine.map((t) => t.id).sort(),
      variants: measured.map(({ name, m }) => ({
        name,
        results: `results/${name}.jsonl`,
        engine_calls: m.outcome.engineCalls,
        judge_calls: m.outcome.judgeCalls,
        attempts: m.outcome.tallies.reduce((n, t) => n + t.judged + t.errors, 0),
      })),
      ...(skipped ? { skipped } : {}),
    };
    const manifestPath = `${dir}/${SHARD_FILE}`;
    await writeArtifact(manifestPath, shardManifest, manifest);
    if (of.mode === 'standalone') await writeRunManifest(runDir, { ...readRunManifest(runDir)!, status: errors > 0 ? 'incomplete' : 'completed', updated_at: ctx.now().toISOString() });
    appendEvent(runDir, { event: 'finished', stage: 'evaluate', shard: `${spec.index}/${spec.total}`, errors, engine_calls: p.engine.calls() }, ctx.now());
    return { interrupted: false, spec, manifestPath, manifest, errors };
  } finally {
    await lock.release();
  }
}

export function summarizeShard(r: Extract<ShardResult, { interrupted: false }>): string {
  const m = r.manifest;
  const attempts = m.variants.reduce((n, v) => n + v.attempts, 0);
  const what = m.skipped ? `skipped (${m.skipped}); nothing ran` : `${m.tasks.length} task(s), ${attempts} attempt(s) over ${m.variants.map((v) => v.name).join(' + ')}${r.errors ? `, ${r.errors} engine/judge error(s)` : ''}`;
  return `shard ${r.spec.index}/${r.spec.total}: ${what}\nwrote ${r.manifestPath}\nno verdict from a shard: bring all ${r.spec.total} shard directories together and run \`whet merge DIR…\``;
}
