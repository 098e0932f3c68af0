// Placing a skill where an agent really reads it, inside a fresh per-task workspace — never in the
// user's home. Claude Code discovers project skills at `<cwd>/.claude/skills/<name>/SKILL.md` (Agent SDK
// docs, "Agent Skills in the SDK": skills in `<cwd>/.claude/skills/` are available; the same layout as
// the personal `~/.claude/skills/`, which this module never touches). Codex reads `AGENTS.md` from each
// directory between the Git root and the working directory, or only the working directory outside a Git
// repository (openai/codex docs/agents_md.md, "Project Instructions").
//
// The skill folder's other files (references/, scripts/, assets) are copied along, so relative links in
// SKILL.md resolve exactly as they do for a user. SKILL.md itself is always written from the text under
// test, not copied: the evaluator may be measuring an edited SKILL.md that is not on disk.
import { cp, mkdir } from 'node:fs/promises';
import { refuseEscapingLinks } from '../skill/links.js';
import { writeFileAtomically } from '../core/atomic.js';
import { join, relative, sep } from 'node:path';

import { SAFE_ID } from '../config/safe-id.js';
import type { SkillInput } from '../skill/read.js';

/**
 * A skill name that is safe as one path segment. Claude Code itself wants lowercase letters, digits
 * and hyphens; this only refuses what could escape the skills folder or hide it (`..`, `/`, a dot first).
 */
export const SAFE_SKILL_NAME = SAFE_ID;

/** Folder entries never copied with a skill: version-control metadata is no part of it. */
const SKIPPED = new Set(['.git', '.hg', '.svn']);

/** Copies the folder's contents into `dest`; `skipTop` drops entries at the top level only. */
async function copyFolder(src: string, dest: string, skipTop: (name: string) => boolean): Promise<void> {
  // No link out of the skill reaches an agent's workspace (issue 31); one inside it is copied as a link.
  refuseEscapingLinks(src);
  await cp(src, dest, {
    recursive: true,
    force: true,
    filter: (from) => {
      const rel = relative(src, from);
      if (rel === '') return true;
      const parts = rel.split(sep);
      if (parts.some((p) => SKIPPED.has(p))) return false;
      return !(parts.length === 1 && skipTop(rel));
    },
  });
}

/**
 * Installs the skill as a Claude Code project skill in `workdir`; returns the skill folder
 * (`<workdir>/.claude/skills/<name>`). Throws on a name that is not a safe path segment.
 */
export async function installClaudeSkill(workdir: string, skill: SkillInput): Promise<string> {
  if (!SAFE_SKILL_NAME.test(skill.name)) {
    throw new Error(`skill name "${skill.name}" cannot be a folder name under .claude/skills (letters, digits, ".", "_", "-" only)`);
  }
  const dir = join(workdir, '.claude', 'skills', skill.name);
  await mkdir(dir, { recursive: true });
  if (skill.dir) await copyFolder(skill.dir, dir, () => false);
  await writeFileAtomically(join(dir, 'SKILL.md'), skill.text);
  return dir;
}

/**
 * Installs the skill where Codex discovers repository skills: `<workdir>/.agents/skills/<name>/`. Codex's
 * loader (openai/codex codex-rs/core-skills/src/loader.rs, repo_agents_skill_roots) scans `.agents/skills`
 * in every directory from the project root down to the working directory; the project root is the
 * nearest ancestor holding a marker (default `.git`), else the working directory itself — so in a fresh
 * temporary workspace exactly `<cwd>/.agents/skills` is a repository root. Each `SKILL.md` found there
 * contributes its name and description to the session; the body is read only when the model opens it.
 * (Releases before `.agents/skills` read `<cwd>/.codex/skills`, codex-rs/core/src/skills/loader.rs
 * repo_skills_root; not written too, since newer releases would list both copies.)
 */
export async function installCodexSkill(workdir: string, skill: SkillInput): Promise<string> {
  if (!SAFE_SKILL_NAME.test(skill.name)) {
    throw new Error(`skill name "${skill.name}" cannot be a folder name under .agents/skills (letters, digits, ".", "_", "-" only)`);
  }
  const dir = join(workdir, '.agents', 'skills', skill.name);
  await mkdir(dir, { recursive: true });
  if (skill.dir) await copyFolder(skill.dir, dir, () => false);
  await writeFileAtomically(join(dir, 'SKILL.md'), skill.text);
  return dir;
}

/**
 * Gives the skill to Codex as project instructions: the skill folder's files at the workspace root and
 * the SKILL.md text as `<workdir>/AGENTS.md` (a SKILL.md or AGENTS.md in the folder is not copied).
 */
export async function installAgentsMd(workdir: string, skill: SkillInput): Promise<string> {
  if (skill.dir) await copyFolder(skill.dir, workdir, (name) => name === 'SKILL.md' || name === 'AGENTS.md' || name === 'AGENTS.override.md');
  const file = join(workdir, 'AGENTS.md');
  await writeFileAtomically(file, skill.text);
  return file;
}
