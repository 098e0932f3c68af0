// Before `whet verify --repair` moves a gate that kept a candidate (or anything it was computed from) to
// superseded/, the keep it applied to the skill is undone: the stage measured again must see the skill it
// saw the first time, and `whet resume` applies the candidate again if the gate keeps it again. Only the
// promotions of the iterations being redone are undone, newest first; earlier keeps stay. Everything is
// checked before any file changes: a skill edited since the keep is refused, never overwritten.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomically } from '../core/atomic.js';
import { UsageError } from '../core/errors.js';
import { STEPS, type Step } from '../loop/iterations.js';
import { MAX_ITERATION } from '../config/safe-id.js';
import { stateLayout } from '../state/layout.js';
import { backupDir, readBackup, type BackupManifest } from '../state/promote.js';
import { checkRecorded } from '../state/recorded.js';
import { checkSkillLinks } from '../skill/links.js';

const sha = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;

/** Undoes the keeps of iteration `n` (when `step` is at or before its gate) and of every later iteration. */
export async function undoPromotionsFrom(stateDir: string, runId: string, n: number, step: Step, now: Date): Promise<string[]> {
  const root = stateLayout.backups(stateDir, runId);
  if (!existsSync(root)) return [];
  const first = STEPS.indexOf(step) <= STEPS.indexOf('gate') ? n : n + 1;
  const its = readdirSync(root)
    .filter((d) => /^iter-\d+$/.test(d))
    .map((d) => Number(d.slice(5)))
    .filter((k) => k >= first && k <= MAX_ITERATION)
    .sort((a, b) => b - a);
  if (!its.length) return [];
  const runDir = stateLayout.runDir(stateDir, runId);
  const manifests: { it: number; m: BackupManifest }[] = [];
  for (const it of its) {
    const file = join(backupDir(stateDir, runId, it), 'manifest.json');
    checkRecorded(runDir, [{ file, what: `the backup manifest of iteration ${it}` }], `undo the keep of iteration ${it}`);
    const m = readBackup(stateDir, runId, it);
    if (m) manifests.push({ it, m });
  }
  // The skill must be what the newest of these keeps left: each file as its last keep wrote it.
  const left = new Map<string, { sha: string; it: number; dir: string }>();
  for (const { it, m } of manifests) for (const f of m.files) if (!left.has(f.path)) left.set(f.path, { sha: f.sha256_after, it, dir: m.target_dir });
  for (const [path, l] of left) {
    const target = join(l.dir, path);
    const now = existsSync(target) ? sha(readFileSync(target)) : null;
    if (now !== l.sha) throw new UsageError(`${target} changed after the keep of iteration ${l.it}; undoing that keep would overwrite the change, so nothing was repaired there (roll back by hand, then repair again)`);
  }
  // Every saved file read and checked, and every target checked for links, before the first write.
  const saved = new Map<string, Buffer>();
  for (const { it, m } of manifests) {
    checkSkillLinks(m.target_dir, m.files.map((f) => f.path), 'refuse', 'remove the link, then repair again');
    for (const f of m.files.filter((x) => x.existed)) {
      const file = join(backupDir(stateDir, runId, it), 'files', f.path);
      const bytes = existsSync(file) ? readFileSync(file) : undefined;
      if (!bytes || sha(bytes) !== f.sha256_before) throw new UsageError(`the backup of ${f.path} of iteration ${it} is damaged; restore backups/ from a copy of the state directory`);
      saved.set(`${it}/${f.path}`, bytes);
    }
  }
  // Newest first, each file back to what it was before its keep; the backups then move aside.
  const restored: string[] = [];
  for (const { it, m } of manifests) {
    for (const f of m.files) {
      const target = join(m.target_dir, f.path);
      const bytes = saved.get(`${it}/${f.path}`);
      if (bytes) await writeFileAtomically(target, bytes);
      else rmSync(target, { force: true });
    }
    const dest = join(root, 'superseded', now.toISOString().replace(/[:.]/g, '-'));
    mkdirSync(dest, { recursive: true });
    renameSync(backupDir(stateDir, runId, it), join(dest, `iter-${String(it).padStart(3, '0')}`));
    restored.push(`undid the keep of iteration ${it} (${m.files.map((f) => f.path).join(', ')} restored in ${m.target_dir}); its backup moved to backups/${runId}/superseded/`);
  }
  return restored;
}
