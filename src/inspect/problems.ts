// How a read model says what verify-run.ts found: one block per damaged file — where, what is wrong, what
// to do — so `whet status`, `show`, `report`, `diff` and `whet verify` word a damage the same way.
import type { Problem } from '../state/verify-files.js';

/** The problems as lines for stderr (or stdout for `whet verify`), each ending in a newline. */
export function formatProblems(problems: Problem[], indent = ''): string {
  return problems.map((p) => `${indent}DAMAGED ${p.at ?? p.file}: ${p.kind}: ${p.message}\n${indent}  → ${p.hint}\n`).join('');
}

/** A short line naming damaged files, for a one-line summary (`whet status`). */
export function damagedFiles(problems: Problem[]): string {
  const names = [...new Set(problems.map((p) => p.file))];
  return `${names.length} damaged file(s): ${names.join(', ')}`;
}
