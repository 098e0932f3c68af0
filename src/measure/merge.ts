// `whet merge DIR…`: the shards of one evaluation, added up into the artifact an unsharded run would have
// written — by the same code: the suite and skills are prepared as `whet evaluate` prepares them (and must
// hash as the shards recorded), the union of the results logs is folded by aggregate.ts, and the verdict,
// rates, intervals, McNemar and pass@k come from the same artifact builders. Every refusal comes before
// anything is written. `--partial` combines some shards into one shard directory (no verdict), which a
// later merge takes like any other shard.
import { createReadStream, createWriteStream, mkdirSync, renameSync, rmSync } from 'node:fs';
import { mapped } from '../core/atomic.js';
import { dirname, join, relative, resolve } from 'node:path';
import { loadPipeline } from '../config/pipeline.js';
import { expandTargets } from '../config/targets.js';
import { once } from 'node:events';
import { writeArtifact } from '../state/artifact-io.js';
import { UsageError } from '../core/errors.js';
import { storeBaseline } from '../evaluation/cache.js';
import { mergeOutcome } from '../evaluation/merge-results.js';
import { contentDiff, SHARD_FILE, shardManifest, type ShardManifest } from '../evaluation/shard-manifest.js';
import type { VariantOutcome } from '../evaluation/run-variant.js';
import { readSkill, type LoadedSkill } from '../skill/read.js';
import { stateLayout } from '../state/layout.js';
import { acquireStateLock } from '../state/lock.js';
import { newRunId } from '../state/runs.js';
import type { Measured } from './measure.js';
import { pipelineInputs } from './pipeline-inputs.js';
import { cacheKeyParts, evaluationKey, prepare, type CandidateRequest, type EvaluateContext, type MeasureRequest, type MeasureSettings, type MeasureSource, type Prepared, type StandaloneRequest } from './setup.js';
import { collectShards, describeField, type Sources } from './shard-sources.js';
import { shardContentOf } from './shard-content.js';
import { writeMergedPipeline, writeMergedStandalone, type MergeResult } from './merge-write.js';

export interface MergeOptions {
  dirs: string[];
  partial?: boolean;
  /** The skill (standalone shards), when not where the shards were given it. */
  skillPath?: string;
  /** The ranking (a candidate's shards), when not where the shards were given it. */
  input?: string;
  /** A loop run's eval thresholds, as registered (a candidate's shards of a loop run). */
  thresholds?: Pick<CandidateRequest, 'evalThreshold' | 'evalThresholdFrom' | 'evalThresholds'>;
  /**
   * Checks the shards' runs before anything is added up (the command hands in src/inspect's check, which
   * this layer may not import); throws to refuse.
   */
  verify?: (shardDirs: string[]) => Promise<void>;
}

export async function runMerge(ctx: EvaluateContext, mo: MergeOptions): Promise<MergeResult[]> {
  if (mo.dirs.length === 0) throw new UsageError('whet merge needs one or more shard directories or archives');
  const groups = await collectShards(ctx.cwd, mo.dirs, mo.partial === true);
  try {
    await mo.verify?.(groups.flatMap((g) => g.shards.map((s) => s.dir)));
    // Every group is checked and added up before any is written: a refusal leaves the state untouched.
    const ready: Checked[] = [];
    for (const src of groups) ready.push(await checkGroup(ctx, src, mo));
    const stateDir = ready[0]!.p.stateDir;
    const lock = ctx.lockHeld ? { release: async () => undefined } : await acquireStateLock(stateDir, 'whet merge');
    try {
      const out: MergeResult[] = [];
      for (const g of ready) out.push(await g.write());
      return out;
    } finally {
      await lock.release();
    }
  } finally {
    groups[0]?.cleanup();
  }
}

interface Checked {
  p: Prepared;
  write: () => Promise<MergeResult>;
}

/** The merge's own preparation of what the shards measured, refused where its hashes differ from theirs. */
async function prepareLikeShards(ctx: EvaluateContext, src: Sources, mo: MergeOptions) {
  const first = src.shards[0]!.manifest;
  const inv = first.invocation;
  const o = ctx.source;
  const settings: MeasureSettings = { ...ctx.settings, ...(ctx.settings?.passK === undefined && inv.pass_k !== null ? { passK: inv.pass_k } : {}) };
  const common: MeasureSource = { ...o, config: o.config ?? inv.config ?? undefined, mock: o.mock ?? inv.mock };
  // The shards' own invocation, from the merge's directory (a CI checkout has the same layout); a flag
  // given to the merge names the file instead. A target's shards name it relative to pipeline.yaml.
  const tries: { source: MeasureSource; request: MeasureRequest }[] = [];
  if (inv.target) {
    const cfg = await loadPipeline(common.config, ctx.cwd);
    for (const t of expandTargets(cfg)) {
      if (relative(cfg.dir, t.skillDir) === inv.target.skill && relative(cfg.dir, t.suitePath) === inv.target.suite) {
        tries.push({ source: { ...common, taskSuite: t.suitePath, config: cfg.path, engine: t.engine }, request: { mode: 'standalone', skillPath: t.skillDir } });
      }
    }
    if (!tries.length) throw new UsageError(`shard ${src.shards[0]!.name} measured target ${inv.target.skill} (suite ${inv.target.suite}), which ${cfg.path ?? 'pipeline.yaml'} here does not list; refusing to merge`);
  } else if (first.content.mode === 'standalone') {
    const skillPath = mo.skillPath ?? inv.skill_path;
    if (!skillPath) throw new UsageError(`shard ${src.shards[0]!.name} recorded no skill: give --skill-path`);
    tries.push({ source: { ...common, taskSuite: o.taskSuite ?? inv.task_suite }, request: { mode: 'standalone', skillPath } });
  } else {
    const input = mo.input ?? inv.input;
    const candidateId = first.content.candidate_id;
    if (!input || !candidateId) throw new UsageError(`shard ${src.shards[0]!.name} recorded no ranking or candidate: give --input`);
    tries.push({ source: { ...common, taskSuite: o.taskSuite ?? inv.task_suite }, request: { mode: 'pipeline', input, candidateId, ...definedOnly(mo.thresholds) } });
  }
  let refusal = '';
  for (const { source, request } of tries) {
    const mctx: EvaluateContext = { ...ctx, source, settings };
    const p = await prepare(mctx);
    const pi = request.mode === 'pipeline' ? pipelineInputs(mctx, p, request) : undefined;
    const skill = pi ? pi.target : readSkill(resolve(ctx.cwd, (request as StandaloneRequest).skillPath));
    const mine = shardContentOf(p, { mode: first.content.mode, skill, candidate: pi?.candSkill, candidateId: pi?.candidate.id, evalThreshold: pi?.evalThreshold, total: first.content.total, plan: first.content.plan });
    const f = contentDiff(first.content, mine);
    if (!f) return { p, pi, skill, mctx, request };
    refusal ||= `this checkout's ${describeField(f)} differs from what the shards measured (${String(mine[f])} here, ${String(first.content[f])} in shard ${src.shards[0]!.name}); refusing to merge`;
  }
  throw new UsageError(refusal);
}

/** `o` without its undefined fields (exactOptionalPropertyTypes-safe spreading). */
function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
}

async function checkGroup(ctx: EvaluateContext, src: Sources, mo: MergeOptions): Promise<Checked> {
  const first = src.shards[0]!.manifest;
  const { p, pi, skill, mctx, request } = await prepareLikeShards(ctx, src, mo);
  const covered = new Set(src.shards.flatMap((s) => s.manifest.tasks));
  const tasks = p.suite.tasks.filter((t) => covered.has(t.id) || !mo.partial);
  const outcomes = new Map<string, VariantOutcome>();
  for (const v of first.skipped ? [] : first.variants) {
    const logs = src.shards.map((s) => {
      const sv = s.manifest.variants.find((x) => x.name === v.name)!;
      return { name: s.name, file: join(s.dir, sv.results), tasks: new Set(s.manifest.tasks), engineCalls: sv.engine_calls, judgeCalls: sv.judge_calls };
    });
    outcomes.set(v.name, await mergeOutcome(v.name, tasks, p.passK, logs));
  }
  const write = async (): Promise<MergeResult> => {
    ctx.log(`merging ${src.shards.length} shard director${src.shards.length === 1 ? 'y' : 'ies'} covering ${src.covers.length} of ${src.total} shard(s): ${tasks.length} task(s)`);
    if (mo.partial) return writePartial(mctx, p, src, first, tasks.map((t) => t.id), outcomes, pi?.iterDir);
    const measured = new Map<string, Measured>();
    for (const [name, outcome] of outcomes) {
      const vSkill = name === 'baseline' ? skill : pi!.candSkill;
      measured.set(name, { outcome, cache: await fillCache(p, vSkill, outcome, src.shards.length, ctx.now()) });
    }
    const bundle = { p, src, first, measured, write: (dir: string) => writeShardDir(ctx, src, first, p.suite.tasks.map((t) => t.id), outcomes, dir) };
    return pi ? writeMergedPipeline(mctx, bundle, pi, request) : writeMergedStandalone(mctx, bundle, skill, request);
  };
  return { p, write };
}


/** Stores a merged, error-free result in the baseline cache, exactly as an unsharded run would. */
async function fillCache(p: Prepared, skill: LoadedSkill, outcome: VariantOutcome, n: number, now: Date): Promise<Measured['cache']> {
  const key = evaluationKey(p, skill);
  const stored = p.useCache ? await storeBaseline(p.cacheDir, key, cacheKeyParts(p, skill), outcome, now) : false;
  return { used: p.useCache, hit: false, key, dir: p.cacheDir, why: p.useCache ? `merged from ${n} shard director${n === 1 ? 'y' : 'ies'}` : 'disabled', ttl_ms: p.cacheTtlMs, stored };
}

async function writePartial(ctx: EvaluateContext, p: Prepared, src: Sources, first: ShardManifest, taskIds: string[], outcomes: Map<string, VariantOutcome>, iterDir: string | undefined): Promise<MergeResult> {
  const label = `shard-${src.covers.join('+')}-of-${src.total}`;
  const dir = iterDir ? join(iterDir, 'shards', `${first.content.candidate_id}-${label}`) : stateLayout.runDir(p.stateDir, newRunId(p.stateDir, `${label}-${p.suite.skillId}`, ctx.now()));
  await writeShardDir(ctx, src, first, taskIds, outcomes, dir);
  return { partial: true, manifestPath: join(dir, SHARD_FILE), covers: src.covers, total: src.total, tasks: taskIds.length };
}

async function writeShardDir(ctx: EvaluateContext, src: Sources, first: ShardManifest, taskIds: string[], outcomes: Map<string, VariantOutcome>, dir: string): Promise<void> {
  const variants: ShardManifest['variants'] = [];
  for (const v of first.skipped ? [] : first.variants) {
    const out = join(dir, 'results', `${v.name}.jsonl`);
    mkdirSync(dirname(out), { recursive: true });
    // Raw bytes in shard order: no (task, attempt) is in two shards (checked), so the latest line per
    // attempt is the same in the union as in its shard, and a resume or a further merge reads it alike.
    // Streamed into a temp file renamed into place (src/core/atomic.ts's guarantee for a stream): a full
    // disk leaves no half-merged log.
    const tmp = `${out}.${process.pid}.merge.tmp`;
    const sink = createWriteStream(tmp, { flags: 'w' });
    try {
      for (const s of src.shards) {
        const sv = s.manifest.variants.find((x) => x.name === v.name)!;
        let last = 0x0a;
        for await (const chunk of createReadStream(join(s.dir, sv.results)) as AsyncIterable<Buffer>) {
          if (chunk.length) last = chunk[chunk.length - 1]!;
          if (!sink.write(chunk)) await once(sink, 'drain');
        }
        // A torn last line (a killed shard) must not swallow the next shard's first line.
        if (last !== 0x0a) sink.write('\n');
      }
      await new Promise<void>((r, j) => sink.end((err?: Error | null) => (err ? j(err) : r())));
      renameSync(tmp, out);
    } catch (err) {
      sink.destroy();
      rmSync(tmp, { force: true });
      throw mapped(err, out);
    }
    const o = outcomes.get(v.name)!;
    variants.push({ name: v.name, results: `results/${v.name}.jsonl`, engine_calls: o.engineCalls, judge_calls: o.judgeCalls, attempts: o.tallies.reduce((n, t) => n + t.judged + t.errors, 0) });
  }
  const manifest: ShardManifest = {
    ...first,
    created_at: ctx.now().toISOString(),
    covers: src.covers,
    tasks: [...taskIds].sort(),
    variants,
  };
  await writeArtifact(join(dir, SHARD_FILE), shardManifest, manifest);
}
