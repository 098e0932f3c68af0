// Issue 31, item 4: a symbolic link in a skill folder that leads out of it (here to /etc/passwd) is never
// followed into variants, reports or engine workspaces: the run is refused with the link's path before the
// state directory is touched, and so are a variant copy and an engine's install of the folder. A relative
// link that stays inside the skill is copied as a link (README: "Symbolic links in a skill folder").
import { describe, expect, it } from 'vitest';
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleLoopProject, tempDir, whet } from '../support/cli.js';
import { materialise } from '../../src/state/variant.js';
import { installClaudeSkill } from '../../src/engines/skill-install.js';

const LOOP = '{max_iterations: 2, plateau_window: 3, candidates_per_iteration: 3, proposers: [feedback, structural]}';
const PASSWD = readFileSync('/etc/passwd', 'utf8').split('\n')[0]!;

/** Every file under `dir` (links not followed) whose bytes hold `needle`. */
function holding(dir: string, needle: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) out.push(...holding(p, needle));
    else if (st.isFile() && readFileSync(p, 'utf8').includes(needle)) out.push(p);
  }
  return out;
}

describe('symbolic links in a skill folder', () => {
  for (const where of ['references/passwd.md', 'notes.md']) {
    it(`a link to /etc/passwd at ${where} is refused with its path, before the state directory is touched`, async () => {
      const dir = exampleLoopProject({ prefix: 'whet-links-', loop: LOOP, thresholds: '{min_delta: 0}' });
      mkdirSync(join(dir, 'release-notes', 'references'), { recursive: true });
      symlinkSync('/etc/passwd', join(dir, 'release-notes', where));
      const r = await whet(['run'], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`release-notes/${where} → /etc/passwd`);
      expect(r.stderr).toMatch(/never follows a link out of a skill into variants, reports or engine workspaces/);
      expect(existsSync(join(dir, 'state', 'runs'))).toBe(false);
      expect(holding(dir, PASSWD).filter((f) => !f.endsWith(where))).toEqual([]);
    }, 60_000);
  }

  it('a relative link inside the skill is copied as a link; no variant, report or state file holds /etc/passwd', async () => {
    const dir = exampleLoopProject({ prefix: 'whet-links-in-', loop: LOOP, thresholds: '{min_delta: 0}' });
    const skill = join(dir, 'release-notes');
    mkdirSync(join(skill, 'references'), { recursive: true });
    writeFileSync(join(skill, 'references', 'style.md'), 'Write in the present tense.\n');
    symlinkSync('style.md', join(skill, 'references', 'style-link.md'));
    const r = await whet(['run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const runs = join(dir, 'state', 'runs');
    const variants = join(runs, readdirSync(runs)[0]!, 'iter-001', 'variants');
    const one = join(variants, readdirSync(variants)[0]!, 'references', 'style-link.md');
    expect(lstatSync(one).isSymbolicLink()).toBe(true);
    expect(readlinkSync(one)).toBe('style.md');
    expect(holding(join(dir, 'state'), PASSWD)).toEqual([]);
    expect((await whet(['verify'], { cwd: dir })).code).toBe(0);
  }, 60_000);

  it('a variant copy and an engine workspace install refuse a link out of the folder, naming it', async () => {
    const skill = tempDir('whet-links-skill-');
    writeFileSync(join(skill, 'SKILL.md'), '---\nname: linked\ndescription: a skill\n---\n# Linked\n');
    symlinkSync('/etc/passwd', join(skill, 'passwd.txt'));
    const variant = join(tempDir('whet-links-variant-'), 'cand-01');
    await expect(materialise({ targetDir: skill, variantDir: variant, skillText: '# new\n', exclude: [] })).rejects.toThrow(/passwd\.txt → \/etc\/passwd/);
    expect(existsSync(variant) ? holding(variant, PASSWD) : []).toEqual([]);
    const work = tempDir('whet-links-work-');
    await expect(installClaudeSkill(work, { name: 'linked', text: '# Linked\n', dir: skill })).rejects.toThrow(/passwd\.txt → \/etc\/passwd/);
    expect(holding(work, PASSWD)).toEqual([]);
    expect(statSync(work).isDirectory()).toBe(true);
  });
});
