// Whole-file writes are atomic (temp file, fsync, rename: write-file-atomic), so a killed process leaves
// the old file or the new one, never half of one.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

export async function writeFileAtomically(file: string, data: string | Buffer): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  await writeFileAtomic(file, data, { fsync: true });
}

export async function writeJsonAtomically(file: string, value: unknown): Promise<void> {
  await writeFileAtomically(file, `${JSON.stringify(value, null, 2)}\n`);
}
