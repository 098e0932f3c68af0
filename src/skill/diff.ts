// Unified diffs of a skill before and after its edits, for candidates.json, `whet diff` and review. Built on
// jsdiff's line diff, so a changed line ending or a lost final newline shows up as a change (with jsdiff's
// "\ No newline at end of file" marker) instead of being hidden.
import { createTwoFilesPatch, FILE_HEADERS_ONLY, structuredPatch } from 'diff';

export interface UnifiedDiffOptions {
  /** Path shown after `a/` and `b/`; default SKILL.md. */
  oldName?: string;
  newName?: string;
  /** Unchanged lines around each change; default 3 (what `git diff` and `diff -u` show). */
  context?: number;
}

export interface DiffStats {
  added: number;
  removed: number;
}

/**
 * `--- a/SKILL.md` / `+++ b/SKILL.md` and hunks, in the form `git apply` and `patch -p1` read.
 * Identical inputs give the empty string, so "no change" is easy to test for.
 */
export function unifiedDiff(oldText: string, newText: string, options: UnifiedDiffOptions = {}): string {
  if (oldText === newText) return '';
  const oldName = options.oldName ?? 'SKILL.md';
  const newName = options.newName ?? oldName;
  return createTwoFilesPatch(`a/${oldName}`, `b/${newName}`, oldText, newText, undefined, undefined, {
    context: options.context ?? 3,
    headerOptions: FILE_HEADERS_ONLY,
  });
}

/** Lines added and removed (a changed line counts once in each). */
export function diffStats(oldText: string, newText: string): DiffStats {
  if (oldText === newText) return { added: 0, removed: 0 };
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: 0 });
  let added = 0;
  let removed = 0;
  for (const hunk of patch.hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}
