// Promotion and its undo. A kept candidate is applied file by file: the target's current bytes are copied
// to backups/<run>/iter-NNN/ first (with a manifest of hashes), then each file is replaced atomically.
// Rollback restores the earliest backup of every file the run touched, byte for byte, and removes files
// the run created — but only over what the run itself left there (see rollbackRun).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import { z } from 'zod';
import { readArtifact } from './artifact-io.js';
import { MAX_ITERATION } from '../config/safe-id.js';
import { relativeInside } from '../config/safe-id-schema.js';
import { StateError, UsageError } from '../core/errors.js';
import { copyFileAtomically, writeFileAtomically } from '../core/atomic.js';
import { checkRecorded, writeRecordedJson } from './recorded.js';
import { checkSkillLinks, type LinkPolicy } from '../skill/links.js';
import { iterName, stateLayout } from './layout.js';

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export const backupManifest = z.object({
  run_id: z.string(),
  iteration: z.number().int(),
  target_dir: z.string(),
  created_at: z.string(),
  // Joined to the target folder on rollback: a path out of it (a hand-edited manifest) is refused on read.
  files: z.array(z.object({ path: relativeInside, existed: z.boolean(), sha256_before: z.string().nullable(), sha256_after: z.string() })),
});
export type BackupManifest = z.infer<typeof backupManifest>;

/** Files of a skill folder that a variant can change: SKILL.md and its resource folders. */
function skillFiles(dir: string): string[] {
  return fastGlob().sync(['SKILL.md', 'references/**/*', 'scripts/**/*', 'assets/**/*', 'templates/**/*', 'examples/**/*'], { cwd: dir, onlyFiles: true, dot: false }).sort();
}

export function backupDir(stateDir: string, runId: string, iteration: number): string {
  return join(stateLayout.backups(stateDir, runId), iterName(iteration));
}

export async function applyVariant(a: { stateDir: string; runId: string; iteration: number; targetDir: string; variantDir: string; now: Date; links?: LinkPolicy }): Promise<BackupManifest> {
  const dir = backupDir(a.stateDir, a.runId, a.iteration);
  const changed = skillFiles(a.variantDir).filter((rel) => {
    const t = join(a.targetDir, rel);
    return !existsSync(t) || !readFileSync(t).equals(readFileSync(join(a.variantDir, rel)));
  });
  // Before the backup and before any write: a link on the way would carry the write out of the skill folder.
  checkSkillLinks(a.targetDir, changed, a.links ?? 'refuse', 'set loop.skill_links: replace in pipeline.yaml');
  const manifest: BackupManifest = { run_id: a.runId, iteration: a.iteration, target_dir: a.targetDir, created_at: a.now.toISOString(), files: [] };
  for (const rel of changed) {
    const t = join(a.targetDir, rel);
    const existed = existsSync(t);
    if (existed) await copyFileAtomically(t, join(dir, 'files', rel));
    manifest.files.push({ path: rel, existed, sha256_before: existed ? sha(readFileSync(t)) : null, sha256_after: sha(readFileSync(join(a.variantDir, rel))) });
  }
  // The manifest is written before the first replacement, so a crash mid-way still has its undo; its hash
  // goes into the run's events.jsonl, which rollback holds it to (src/state/recorded.ts).
  await writeRecordedJson(stateLayout.runDir(a.stateDir, a.runId), join(dir, 'manifest.json'), manifest, a.now);
  for (const rel of changed) await writeFileAtomically(join(a.targetDir, rel), readFileSync(join(a.variantDir, rel)));
  return manifest;
}

export function readBackup(stateDir: string, runId: string, iteration: number): BackupManifest | undefined {
  const file = join(backupDir(stateDir, runId, iteration), 'manifest.json');
  return existsSync(file) ? readArtifact(file, backupManifest, 'backup manifest') : undefined;
}

export interface RollbackResult {
  restored: { path: string; sha256: string | null }[];
  iterations: number[];
  /** Files that already were as before the run (a second rollback, or a hand revert): left alone. */
  unchanged: string[];
  /** With --force: files edited after the keep, and where their edited bytes were copied before restoring. */
  overwritten: { path: string; saved_to: string | null }[];
}

/** A file the run left one way and someone changed since. */
interface Drift {
  path: string;
  now: string | null;
  left: string;
  iteration: number;
}

const short = (h: string | null) => (h ? `${h.slice(0, 19)}…` : 'absent');

/**
 * Restores every file the run changed to its state before the run's first change to it. A file that is
 * no longer what the run's last change left (a hand edit after the keep) is refused unless `force`,
 * since restoring would silently destroy that edit; forced, the edited bytes are copied aside first.
 */
export async function rollbackRun(stateDir: string, runId: string, opts: { force?: boolean; now?: Date; links?: LinkPolicy } = {}): Promise<RollbackResult> {
  const root = stateLayout.backups(stateDir, runId);
  // Naming a run that kept nothing is a wrong argument (exit 2), not an infrastructure failure (3).
  if (!existsSync(root)) throw new UsageError(`run ${runId} promoted nothing (no gate kept a candidate), so there is nothing to roll back; nothing was changed`);
  const iterations = readdirSync(root)
    .filter((d) => /^iter-\d+$/.test(d))
    .map((d) => Number(d.slice(5)))
    .filter((n) => n <= MAX_ITERATION)
    .sort((x, y) => x - y);
  // Only backups as the keep wrote them: an edited manifest could name another folder or other bytes.
  const manifests = iterations.map((it) => join(backupDir(stateDir, runId, it), 'manifest.json')).filter((f) => existsSync(f));
  const original = new Map<string, { iteration: number; existed: boolean; sha: string | null; targetDir: string }>();
  const left = new Map<string, { iteration: number; sha: string }>();
  for (const it of iterations) {
    const m = readBackup(stateDir, runId, it);
    if (!m) continue;
    for (const f of m.files) {
      if (!original.has(f.path)) original.set(f.path, { iteration: it, existed: f.existed, sha: f.sha256_before, targetDir: m.target_dir });
      left.set(f.path, { iteration: it, sha: f.sha256_after });
    }
  }
  // Read first, so a manifest that does not parse is named at its line; then each must be the bytes the keep wrote.
  checkRecorded(stateLayout.runDir(stateDir, runId), manifests.map((file) => ({ file, what: 'the backup manifest' })), `roll back run ${runId}`);
  // Verify every backup and the target before touching anything: a rollback either happens whole or not at all.
  const bytesOf = new Map<string, Buffer>();
  const unchanged: string[] = [];
  const drift: Drift[] = [];
  for (const [rel, o] of original) {
    const target = join(o.targetDir, rel);
    const now = existsSync(target) ? sha(readFileSync(target)) : null;
    if (now === o.sha) {
      unchanged.push(rel);
      continue;
    }
    const after = left.get(rel)!;
    if (now !== after.sha) drift.push({ path: rel, now, left: after.sha, iteration: after.iteration });
    if (!o.existed) continue;
    const bytes = readFileSync(join(backupDir(stateDir, runId, o.iteration), 'files', rel));
    if (sha(bytes) !== o.sha) throw new StateError(`backup of ${rel} in ${relative(stateDir, root)} is damaged (hash mismatch); nothing was restored`);
    bytesOf.set(rel, bytes);
  }
  // Every file about to be restored or removed, checked for links before anything is touched.
  const byTarget = new Map<string, string[]>();
  for (const [rel, o] of original) if (!unchanged.includes(rel)) byTarget.set(o.targetDir, [...(byTarget.get(o.targetDir) ?? []), rel]);
  for (const [dir, rels] of byTarget) checkSkillLinks(dir, rels, opts.links ?? 'refuse', 'pass --replace-links');
  if (drift.length && !opts.force) {
    const what = drift.map((d) => `${d.path} ${d.now ? 'changed' : 'was removed'} after the keep of iteration ${d.iteration} (now ${short(d.now)}, the run left ${short(d.left)})`);
    throw new UsageError(`not rolling back run ${runId}: ${what.join('; ')}. Restoring would overwrite that edit; nothing was changed. Pass --force to restore anyway (the edited file is copied into ${relative(stateDir, join(root, 'overwritten'))}/ first)`);
  }
  const overwritten: RollbackResult['overwritten'] = [];
  const aside = join(root, 'overwritten', (opts.now ?? new Date()).toISOString().replace(/[:.]/g, '-'));
  for (const d of drift) {
    const target = join(original.get(d.path)!.targetDir, d.path);
    if (!d.now) {
      overwritten.push({ path: d.path, saved_to: null });
      continue;
    }
    await copyFileAtomically(target, join(aside, d.path));
    overwritten.push({ path: d.path, saved_to: join(aside, d.path) });
  }
  const restored: RollbackResult['restored'] = [];
  for (const [rel, o] of original) {
    if (unchanged.includes(rel)) continue;
    const target = join(o.targetDir, rel);
    const bytes = bytesOf.get(rel);
    if (bytes) await writeFileAtomically(target, bytes);
    else rmSync(target, { force: true });
    restored.push({ path: rel, sha256: o.sha });
  }
  return { restored, iterations, unchanged, overwritten };
}
