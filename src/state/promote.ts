// Promotion and its undo. A kept candidate is applied file by file: the target's current bytes are copied
// to backups/<run>/iter-NNN/ first (with a manifest of hashes), then each file is replaced atomically.
// Rollback restores the earliest backup of every file the run touched, byte for byte, and removes files
// the run created.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import fg from 'fast-glob';
import { z } from 'zod';
import { StateError } from '../errors.js';
import { writeFileAtomically, writeJsonAtomically } from './atomic.js';
import { stateLayout } from './layout.js';

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

const backupManifest = z.object({
  run_id: z.string(),
  iteration: z.number().int(),
  target_dir: z.string(),
  created_at: z.string(),
  files: z.array(z.object({ path: z.string(), existed: z.boolean(), sha256_before: z.string().nullable(), sha256_after: z.string() })),
});
export type BackupManifest = z.infer<typeof backupManifest>;

/** Files of a skill folder that a variant can change: SKILL.md and its resource folders. */
function skillFiles(dir: string): string[] {
  return fg.sync(['SKILL.md', 'references/**/*', 'scripts/**/*', 'assets/**/*', 'templates/**/*', 'examples/**/*'], { cwd: dir, onlyFiles: true, dot: false }).sort();
}

export function backupDir(stateDir: string, runId: string, iteration: number): string {
  return join(stateLayout.backups(stateDir, runId), `iter-${String(iteration).padStart(3, '0')}`);
}

export async function applyVariant(a: { stateDir: string; runId: string; iteration: number; targetDir: string; variantDir: string; now: Date }): Promise<BackupManifest> {
  const dir = backupDir(a.stateDir, a.runId, a.iteration);
  const changed = skillFiles(a.variantDir).filter((rel) => {
    const t = join(a.targetDir, rel);
    return !existsSync(t) || !readFileSync(t).equals(readFileSync(join(a.variantDir, rel)));
  });
  const manifest: BackupManifest = { run_id: a.runId, iteration: a.iteration, target_dir: a.targetDir, created_at: a.now.toISOString(), files: [] };
  for (const rel of changed) {
    const t = join(a.targetDir, rel);
    const existed = existsSync(t);
    if (existed) {
      mkdirSync(dirname(join(dir, 'files', rel)), { recursive: true });
      copyFileSync(t, join(dir, 'files', rel));
    }
    manifest.files.push({ path: rel, existed, sha256_before: existed ? sha(readFileSync(t)) : null, sha256_after: sha(readFileSync(join(a.variantDir, rel))) });
  }
  // The manifest is written before the first replacement, so a crash mid-way still has its undo.
  await writeJsonAtomically(join(dir, 'manifest.json'), manifest);
  for (const rel of changed) await writeFileAtomically(join(a.targetDir, rel), readFileSync(join(a.variantDir, rel)));
  return manifest;
}

export function readBackup(stateDir: string, runId: string, iteration: number): BackupManifest | undefined {
  const file = join(backupDir(stateDir, runId, iteration), 'manifest.json');
  return existsSync(file) ? backupManifest.parse(JSON.parse(readFileSync(file, 'utf8'))) : undefined;
}

export interface RollbackResult {
  restored: { path: string; sha256: string | null }[];
  iterations: number[];
}

/** Restores every file the run changed to its state before the run's first change to it. */
export async function rollbackRun(stateDir: string, runId: string): Promise<RollbackResult> {
  const root = stateLayout.backups(stateDir, runId);
  if (!existsSync(root)) throw new StateError(`run ${runId} has no backups: nothing was promoted in it`);
  const iterations = readdirSync(root)
    .filter((d) => /^iter-\d+$/.test(d))
    .map((d) => Number(d.slice(5)))
    .sort((x, y) => x - y);
  const original = new Map<string, { iteration: number; existed: boolean; sha: string | null; targetDir: string }>();
  for (const it of iterations) {
    const m = readBackup(stateDir, runId, it);
    if (!m) continue;
    for (const f of m.files) if (!original.has(f.path)) original.set(f.path, { iteration: it, existed: f.existed, sha: f.sha256_before, targetDir: m.target_dir });
  }
  // Verify every backup before touching anything: a rollback either happens whole or not at all.
  const bytesOf = new Map<string, Buffer>();
  for (const [rel, o] of original) {
    if (!o.existed) continue;
    const bytes = readFileSync(join(backupDir(stateDir, runId, o.iteration), 'files', rel));
    if (sha(bytes) !== o.sha) throw new StateError(`backup of ${rel} in ${relative(stateDir, root)} is damaged (hash mismatch); nothing was restored`);
    bytesOf.set(rel, bytes);
  }
  const restored: RollbackResult['restored'] = [];
  for (const [rel, o] of original) {
    const target = join(o.targetDir, rel);
    const bytes = bytesOf.get(rel);
    if (bytes) await writeFileAtomically(target, bytes);
    else rmSync(target, { force: true });
    restored.push({ path: rel, sha256: o.sha });
  }
  return { restored, iterations };
}
