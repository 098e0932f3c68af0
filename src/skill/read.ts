// Finds and reads the skill under test. A skill is a folder holding SKILL.md (and maybe references,
// scripts, assets), or a SKILL.md path directly. Its content hash covers SKILL.md and the files of its
// resource subfolders, because an agent that loads the skill also reads those.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import { ConfigError } from '../core/errors.js';
import { displayPath, readTextFile } from '../config/load-yaml.js';
import { skillNameOf } from './skill-md.js';
import { refuseEscapingLinks } from './links.js';

/** Subfolders whose files are part of a skill (Anthropic's layout plus common variants). */
export const SKILL_RESOURCE_DIRS = ['references', 'scripts', 'assets', 'templates', 'examples'];

/** What an engine is given of a skill: its name, its SKILL.md and the folder around it. */
export interface SkillInput {
  /** Skill name (frontmatter `name`, else the folder name). */
  name: string;
  /** The SKILL.md text exactly as on disk. */
  text: string;
  /** The folder holding SKILL.md and its references, when there is one. */
  dir?: string;
}

export interface LoadedSkill extends SkillInput {
  /** Absolute path of SKILL.md. */
  file: string;
  dir: string;
  bytes: Buffer;
  /** sha256 over SKILL.md and its resource files. */
  contentHash: string;
  /** sha256 of SKILL.md alone. */
  fileHash: string;
}

export function skillFileOf(pathOrDir: string): string {
  const p = resolve(pathOrDir);
  let isDir = false;
  try {
    isDir = statSync(p).isDirectory();
  } catch {
    throw new ConfigError(`skill not found: ${displayPath(p)}`);
  }
  return isDir ? join(p, 'SKILL.md') : p;
}

export function readSkill(pathOrDir: string): LoadedSkill {
  const file = skillFileOf(pathOrDir);
  const bytes = readTextFile(file, 'SKILL.md');
  const dir = dirname(file);
  const text = bytes.toString('utf8');
  const fileHash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const h = createHash('sha256').update(bytes);
  // Most skills are SKILL.md alone: the glob (and its import) only runs when a resource folder is there.
  const present = SKILL_RESOURCE_DIRS.filter((d) => existsSync(join(dir, d)));
  // A link out of the skill is refused before its target is read into the hash (issue 31). SKILL.md itself
  // may be a link (issue 33: what it says is the skill; writes through it are refused in links.ts).
  if (present.length) refuseEscapingLinks(dir, present);
  const resources = present.length ? fastGlob().sync(present.map((d) => `${d}/**/*`), { cwd: dir, onlyFiles: true, dot: false }).sort() : [];
  for (const rel of resources) h.update(`\0${rel}\0`).update(readFileSync(join(dir, rel)));
  return { name: skillName(text, dir), text, dir, file, bytes, fileHash, contentHash: `sha256:${h.digest('hex')}` };
}

/** Same as readSkill, for skill text held in memory (a candidate's content in a ranking). */
export function skillFromText(text: string, name: string, dir?: string): LoadedSkill {
  const bytes = Buffer.from(text, 'utf8');
  const hash = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  return { name, text, dir, file: dir ? join(dir, 'SKILL.md') : '(inline)', bytes, fileHash: hash, contentHash: hash } as LoadedSkill;
}

/** Frontmatter `name`, else the folder's name: skill-md.ts's reading, the one every command shares. */
export function skillName(text: string, dir: string): string {
  return skillNameOf(text, dir);
}
