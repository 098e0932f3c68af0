import { describe, expect, it } from 'vitest';
import { applyPatch } from 'diff';
import { diffStats, unifiedDiff } from '../../src/skill/diff.js';
import { applyEdit } from '../../src/skill/edits.js';

const OLD = ['# Skill', '', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', ''].join('\n');

describe('unifiedDiff', () => {
  it('writes a/ b/ headers and hunks with 3 lines of context by default', () => {
    const next = OLD.replace('five', 'FIVE');
    const patch = unifiedDiff(OLD, next);
    expect(patch).toBe(['--- a/SKILL.md', '+++ b/SKILL.md', '@@ -4,7 +4,7 @@', ' two', ' three', ' four', '-five', '+FIVE', ' six', ' seven', ' eight', ''].join('\n'));
  });

  it('honours names and context, and round-trips through a patch reader', () => {
    const next = applyEdit(OLD, { type: 'append_section', heading: 'Output', body: 'o' });
    const patch = unifiedDiff(OLD, next, { oldName: 'skills/x/SKILL.md', newName: 'skills/x/SKILL.md', context: 1 });
    expect(patch.startsWith('--- a/skills/x/SKILL.md\n+++ b/skills/x/SKILL.md\n@@ -10,1 +10,5 @@\n eight\n')).toBe(true);
    expect(applyPatch(OLD, patch)).toBe(next);
  });

  it('is empty for identical texts and marks a lost final newline', () => {
    expect(unifiedDiff(OLD, OLD)).toBe('');
    expect(unifiedDiff('a\n', 'a')).toContain('\\ No newline at end of file');
  });
});

describe('diffStats', () => {
  it('counts added and removed lines', () => {
    expect(diffStats(OLD, OLD)).toEqual({ added: 0, removed: 0 });
    expect(diffStats(OLD, OLD.replace('two\nthree\n', 'TWO\n'))).toEqual({ added: 1, removed: 2 });
    expect(diffStats('a\n', 'a\nb\nc\n')).toEqual({ added: 2, removed: 0 });
  });
});
