// Issue 33, item 2: writes into a skill never follow a symbolic link. A SKILL.md that links to a file
// outside the project is refused at the keep (exit 2, the link and its target named, the outside file
// unchanged byte for byte); with `loop.skill_links: replace` the link is replaced by an ordinary file and
// the outside file is still unchanged. Rollback refuses a link the same way, or replaces it when given
// --replace-links.
import { describe, expect, it } from 'vitest';
import { copyFileSync, lstatSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, tempDir, whet, write } from '../support/cli.js';

const LOOP = (extra = '') => `{max_iterations: 1, plateau_window: 2, candidates_per_iteration: 3, proposers: [feedback, structural]${extra}}`;
const THRESHOLDS = '{min_delta: 0, max_new_failures: 0}';

/** The example project with its SKILL.md moved outside the project and linked back in. */
function linkedProject(extra = ''): { dir: string; skill: string; outside: string; original: Buffer } {
  const dir = exampleLoopProject({ prefix: 'whet-links-', loop: LOOP(extra), thresholds: THRESHOLDS });
  const skill = join(dir, 'release-notes/SKILL.md');
  const outside = join(tempDir('whet-links-outside-'), 'SKILL.md');
  copyFileSync(skill, outside);
  rmSync(skill);
  symlinkSync(outside, skill);
  return { dir, skill, outside, original: readFileSync(outside) };
}

describe('writes to a skill never go through a symbolic link', () => {
  it('a keep refuses a SKILL.md linked out of the skill folder: exit 2, the link named, the linked file unchanged', async () => {
    const { dir, skill, outside, original } = linkedProject();
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toContain(`not writing to the skill through a symbolic link: ${skill} is a symbolic link to ${outside} (outside the skill folder)`);
    expect(r.stderr).toContain('set loop.skill_links: replace in pipeline.yaml');
    expect(readFileSync(outside).equals(original)).toBe(true);
    expect(lstatSync(skill).isSymbolicLink()).toBe(true);
    // Refused before the backup: nothing claims a change was made.
    expect(readdirSync(join(dir, 'state'))).not.toContain('backups');
  }, 60_000);

  it('loop.skill_links: replace writes an ordinary file in the link’s place and leaves the linked file alone; rollback restores the bytes', async () => {
    const { dir, skill, outside, original } = linkedProject(', skill_links: replace');
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/gate: KEEP/);
    expect(lstatSync(skill).isSymbolicLink()).toBe(false);
    expect(readFileSync(skill).equals(original)).toBe(false);
    expect(readFileSync(outside).equals(original)).toBe(true);
    const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
    const back = await whet(['rollback', runId], { cwd: dir });
    expect(back.code, back.stderr).toBe(0);
    expect(readFileSync(skill).equals(original)).toBe(true);
    expect(readFileSync(outside).equals(original)).toBe(true);
  }, 60_000);

  it('rollback refuses to restore through a link made after the keep, and replaces it only with --replace-links', async () => {
    const dir = exampleLoopProject({ prefix: 'whet-links-rb-', loop: LOOP(), thresholds: THRESHOLDS });
    const skill = join(dir, 'release-notes/SKILL.md');
    const original = readFileSync(skill);
    expect((await whet(['run'], { cwd: dir })).code).toBe(0);
    const runId = readdirSync(join(dir, 'state/runs')).sort().pop()!;
    // The kept SKILL.md moved out and linked back: same bytes, so no hand edit, only the link.
    const outside = join(tempDir('whet-links-outside-'), 'SKILL.md');
    copyFileSync(skill, outside);
    const kept = readFileSync(outside);
    rmSync(skill);
    symlinkSync(outside, skill);
    const r = await whet(['rollback', runId], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${skill} is a symbolic link to ${outside} (outside the skill folder)`);
    expect(r.stderr).toContain('pass --replace-links');
    expect(readFileSync(outside).equals(kept)).toBe(true);
    const ok = await whet(['rollback', runId, '--replace-links'], { cwd: dir });
    expect(ok.code, ok.stderr).toBe(0);
    expect(lstatSync(skill).isSymbolicLink()).toBe(false);
    expect(readFileSync(skill).equals(original)).toBe(true);
    expect(readFileSync(outside).equals(kept)).toBe(true);
  }, 60_000);

  it('a linked folder on the way is refused even with skill_links: replace', async () => {
    const dir = exampleLoopProject({ prefix: 'whet-links-dir-', loop: LOOP(', skill_links: replace'), thresholds: THRESHOLDS });
    const outsideDir = tempDir('whet-links-outdir-');
    write(join(outsideDir, 'style.md'), 'outside\n');
    symlinkSync(outsideDir, join(dir, 'release-notes/references'));
    const { linksOnTheWay } = await import('../../src/skill/links.js');
    const links = linksOnTheWay(join(dir, 'release-notes'), ['references/style.md', 'SKILL.md']);
    expect(links).toEqual([expect.objectContaining({ path: join(dir, 'release-notes/references'), outside: true, folder: true })]);
    const { checkSkillLinks } = await import('../../src/skill/links.js');
    expect(() => checkSkillLinks(join(dir, 'release-notes'), ['references/style.md'], 'replace', 'x')).toThrow(/a linked folder inside the skill is never written through/);
    expect(readFileSync(join(outsideDir, 'style.md'), 'utf8')).toBe('outside\n');
  });
});
