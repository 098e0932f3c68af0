// How the read models (`whet status`, `whet show`, finding the newest loop run) read a state file: as plain
// JSON, or undefined when it is missing or unreadable — they show what they can, and load no schema. The
// commands that act on a file read it through its schema (artifact-io.ts) and name what is wrong there.
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** What a read model picks fields from, any of which may be absent. */
export type Json = Record<string, any>;

/** A state file as plain JSON, or undefined when it is missing or unreadable. */
export function readLenient(file: string): Json | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Json;
  } catch {
    return undefined;
  }
}

/**
 * An iteration's gate decision when its gate.json cannot be read (cut short, hand-damaged) but its backup
 * shows a candidate was applied: a `keep` the read models must not hide (issue 33 — status and report
 * showed no decision while the skill held the kept change). Undefined when gate.json reads, or nothing
 * was applied.
 */
export function gateStandIn(runDir: string, iteration: number, gateFile: string, damaged = false): Json | undefined {
  // A gate.json that reads but failed verification (edited after it was written) is as good as unreadable.
  const reads = existsSync(gateFile) && readLenient(gateFile) !== undefined;
  if (!existsSync(gateFile) || (!damaged && reads)) return undefined;
  const runs = dirname(runDir);
  const backup = join(dirname(runs), 'backups', basename(runDir), `iter-${String(iteration).padStart(3, '0')}`);
  const m = readLenient(join(backup, 'manifest.json'));
  if (!m) return undefined;
  const files = Array.isArray(m.files) ? m.files.map((f: Json) => String(f.path)) : [];
  return {
    decision: 'keep',
    candidate_id: null,
    reason: `gate.json ${reads ? 'failed verification' : 'cannot be read'}, but backups/${basename(runDir)}/${basename(backup)} shows a candidate was applied (${files.join(', ') || 'no file'}); the skill holds it unless rolled back`,
    checks: [],
    applied: { target: m.target_dir, backup: `backups/${basename(runDir)}/${basename(backup)}`, files },
  };
}
