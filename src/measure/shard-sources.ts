// The shards `whet merge DIR…` was given: state directories, run directories or .tar.gz archives of them
// (as CI artifacts bring them back), each holding one or more shard.json. Every check that needs only
// the manifests runs here, before anything is loaded or written: the same content and configuration,
// each shard index exactly once, none missing (unless a partial merge is asked for).
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import { x as untar } from 'tar';
import { readArtifact } from '../state/artifact-io.js';
import { displayPath } from '../config/load-yaml.js';
import { UsageError } from '../core/errors.js';
import { contentDiff, SHARD_FILE, shardManifest, type ShardContent, type ShardManifest } from '../evaluation/shard-manifest.js';

export interface ShardSource {
  manifest: ShardManifest;
  /** The directory holding shard.json (results paths are relative to it). */
  dir: string;
  name: string;
}

export interface Sources {
  shards: ShardSource[];
  covers: number[];
  total: number;
  /** Removes the folders archives were unpacked into. */
  cleanup(): void;
}

const FIELD: Record<keyof ShardContent, string> = {
  mode: 'mode (standalone or pipeline)',
  skill: 'skill (SKILL.md and its resources)',
  candidate: 'candidate content',
  candidate_id: 'candidate id',
  suite: 'suite (its tasks or fixture files)',
  engine: 'engine config',
  judge_engine: 'judge engine config',
  thresholds: 'thresholds and decision settings',
  pass_k: 'pass-k',
  task_timeout_ms: 'default task timeout',
  whetstone_version: 'whetstone version',
  total: 'shard count (n of i/n)',
  plan: 'shard plan (the tasks per shard, or the durations it was balanced on)',
};

export function describeField(f: keyof ShardContent): string {
  return FIELD[f];
}

/**
 * The shards given, in groups that are merged separately: one group for shards of one evaluation, one per
 * target for shards of `whet baseline|nightly --shard` (each target is its own evaluation). Every group
 * passes the checks below or nothing is merged.
 */
export async function collectShards(cwd: string, dirs: readonly string[], partial: boolean): Promise<Sources[]> {
  const temps: string[] = [];
  const cleanup = () => temps.forEach((t) => rmSync(t, { recursive: true, force: true }));
  try {
    const shards: ShardSource[] = [];
    for (const arg of dirs) {
      const path = resolve(cwd, arg);
      if (!existsSync(path)) throw new UsageError(`${arg}: no such file or directory`);
      let root = path;
      if (statSync(path).isFile()) {
        if (!/\.(tar\.gz|tgz)$/.test(path)) throw new UsageError(`${arg}: not a directory or a .tar.gz archive of one`);
        root = mkdtempSync(join(tmpdir(), 'whet-merge-'));
        temps.push(root);
        try {
          await untar({ file: path, cwd: root, strict: true });
        } catch (err) {
          throw new UsageError(`${arg}: cannot unpack: ${(err as Error).message}`);
        }
      }
      const found = (await fastGlob()(`**/${SHARD_FILE}`, { cwd: root, absolute: true, ignore: ['**/superseded/**'], deep: 10 })).sort();
      if (found.length === 0) throw new UsageError(`${arg}: no ${SHARD_FILE} in it (a shard's state directory, run directory or archive of one, written by \`whet evaluate --shard i/n\`)`);
      for (const file of found) {
        const manifest = readArtifact(file, shardManifest, 'shard manifest');
        const where = root === path ? displayPath(file, cwd) : `${arg}:${file.slice(root.length + 1)}`;
        shards.push({ manifest, dir: dirname(file), name: `${manifest.covers.join(',')}/${manifest.content.total} (${where})` });
      }
    }
    const groups = new Map<string, ShardSource[]>();
    for (const s of shards) {
      const t = s.manifest.invocation.target;
      const key = t ? `target ${t.skill} [suite ${t.suite}]` : '';
      groups.set(key, [...(groups.get(key) ?? []), s]);
    }
    if (groups.size > 1 && groups.has('')) throw new UsageError(`shard ${groups.get('')![0]!.name} is one evaluation's, and the others are targets' of whet baseline/nightly --shard; merge them separately`);
    return [...groups.values()].map((g, i) => ({ ...checkGroup(g, partial), cleanup: i === 0 ? cleanup : () => undefined }));
  } catch (err) {
    cleanup();
    throw err;
  }
}

function checkGroup(shards: ShardSource[], partial: boolean): Omit<Sources, 'cleanup'> {
  {
    const first = shards[0]!;
    for (const s of shards.slice(1)) {
      const f = contentDiff(first.manifest.content, s.manifest.content);
      if (f) {
        throw new UsageError(
          `shard ${s.name} was measured on a different ${describeField(f)} than shard ${first.name}: ${String(s.manifest.content[f])} vs ${String(first.manifest.content[f])}; refusing to merge`,
        );
      }
    }
    const total = first.manifest.content.total;
    const seen = new Map<number, string>();
    for (const s of shards) {
      for (const i of s.manifest.covers) {
        if (i > total) throw new UsageError(`shard ${s.name} covers shard ${i}, beyond ${total}; refusing to merge`);
        const other = seen.get(i);
        if (other) throw new UsageError(`shard ${i}/${total} is present twice: ${other} and ${s.name}; refusing to merge`);
        seen.set(i, s.name);
      }
    }
    const covers = [...seen.keys()].sort((a, b) => a - b);
    const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !seen.has(i));
    if (missing.length && !partial) {
      throw new UsageError(`shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${total}`).join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing (have ${covers.join(', ')} of ${total}); refusing to merge (--partial combines some shards without a verdict)`);
    }
    if (partial && shards.length < 2) throw new UsageError('--partial combines two or more shard directories; give more than one');
    const names = (s: ShardSource) => s.manifest.variants.map((v) => v.name).join(',');
    const odd = shards.find((s) => !s.manifest.skipped && !first.manifest.skipped && names(s) !== names(first));
    if (odd) throw new UsageError(`shard ${odd.name} measured ${names(odd)} but shard ${first.name} measured ${names(first)}; refusing to merge`);
    return { shards, covers, total };
  }
}
