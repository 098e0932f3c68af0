// Writes into the user's skill folder never go through a symbolic link (issue 33). A SKILL.md that links to
// a file outside the project was written through by a keep (and by rollback), changing that outside file
// with no warning. Now every path about to be written — the file and each folder between the skill folder
// and it — is looked at first. A link is refused, naming it and where it points, before anything is
// written; with `loop.skill_links: replace` (keep, review approve) or `whet rollback --replace-links`, a
// link to a file is replaced by an ordinary file holding the new bytes, and the file it pointed to is left
// as it was. A linked folder on the way is refused either way: replacing it would mean copying a tree.
// The skill folder itself may be a link (a skill installed by linking its folder): its real path is the
// folder, and nothing is written outside it.
import { lstatSync, readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { displayPath } from '../config/locate.js';
import { ConfigError, UsageError } from '../core/errors.js';

export type LinkPolicy = 'refuse' | 'replace';

interface Link {
  path: string;
  to: string;
  outside: boolean;
  folder: boolean;
}

function linkAt(path: string, root: string): Link | undefined {
  let st;
  try {
    st = lstatSync(path);
  } catch {
    return undefined; // not there yet: a file the write creates
  }
  if (!st.isSymbolicLink()) return undefined;
  const to = readlinkSync(path);
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    real = resolve(join(path, '..'), to); // a dangling link: where it would lead
  }
  const rel = relative(root, real);
  const outside = rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel);
  let folder = false;
  try {
    folder = lstatSync(real).isDirectory();
  } catch {
    // dangling
  }
  return { path, to, outside, folder };
}

/** The links on the way to each of `files` (relative to `skillDir`), the file's own last. */
export function linksOnTheWay(skillDir: string, files: readonly string[]): Link[] {
  let root: string;
  try {
    root = realpathSync(skillDir);
  } catch {
    return [];
  }
  const out = new Map<string, Link>();
  for (const rel of files) {
    const parts = rel.split(/[\\/]/).filter(Boolean);
    for (let i = 1; i <= parts.length; i++) {
      const p = join(skillDir, ...parts.slice(0, i));
      if (out.has(p)) continue;
      const l = linkAt(p, root);
      if (l) out.set(p, l);
    }
  }
  return [...out.values()];
}

/**
 * Refuses (exit 2, before anything is written) to write `files` under `skillDir` through a symbolic link.
 * `how` says what would allow replacing a file link, for the message.
 */
export function checkSkillLinks(skillDir: string, files: readonly string[], policy: LinkPolicy, how: string): void {
  const links = linksOnTheWay(skillDir, files).filter((l) => policy === 'refuse' || l.folder);
  if (!links.length) return;
  const what = links.map((l) => `${l.path} is a symbolic link to ${l.to}${l.outside ? ' (outside the skill folder)' : ''}${l.folder ? ', a folder' : ''}`);
  const fix = links.every((l) => !l.folder)
    ? `replace the link by the file yourself, or ${how} to have whetstone write an ordinary file in its place (the file it points to is left unchanged)`
    : 'a linked folder inside the skill is never written through: replace it by a real folder first';
  throw new UsageError(`not writing to the skill through a symbolic link: ${what.join('; ')}. Nothing was changed; ${fix}`);
}

/** A link found in a skill folder, relative to it, and whether whetstone may copy it as a link. */
export interface FolderLink {
  rel: string;
  to: string;
  /** Relative, and leads to a path inside the skill folder: a copy of the folder carries it as a link. */
  kept: boolean;
}

/**
 * The symbolic links under `dir` (links are not descended into; hidden entries and node_modules, which no
 * copy of a skill carries, are skipped). `under` limits the walk to those top-level entries.
 */
export function folderLinks(dir: string, under?: readonly string[]): FolderLink[] {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch {
    return [];
  }
  const out: FolderLink[] = [];
  const walk = (rel: string) => {
    let names: string[];
    try {
      names = readdirSync(join(dir, rel));
    } catch {
      return;
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue;
      if (!rel && under && !under.includes(name)) continue;
      const r = rel ? join(rel, name) : name;
      const st = lstatSync(join(dir, r));
      if (st.isSymbolicLink()) {
        const to = readlinkSync(join(dir, r));
        const l = linkAt(join(dir, r), root);
        out.push({ rel: r, to, kept: !isAbsolute(to) && !!l && !l.outside && !relative(root, resolve(root, dirname(r), to)).startsWith('..') });
      } else if (st.isDirectory()) walk(r);
    }
  };
  walk('');
  return out;
}

/**
 * Refuses (exit 2) a skill folder holding a link whetstone would not copy as a link: one that leads out of
 * the folder, or is absolute (a copy of it would lead back to the original). Issue 31: a link to
 * /etc/passwd was read into the skill's hash and could reach variants, reports and engine workspaces.
 */
export function refuseEscapingLinks(dir: string, under?: readonly string[]): void {
  // SKILL.md itself may be a link (issue 33): its text is the skill, read as text and never copied as a link.
  const bad = folderLinks(dir, under).filter((l) => !l.kept && l.rel !== 'SKILL.md');
  if (!bad.length) return;
  const what = bad.map((l) => `${join(dir, l.rel)} → ${l.to}`).join('; ');
  throw new ConfigError(`the skill folder holds a symbolic link that leads out of it (${what}); whetstone never follows a link out of a skill into variants, reports or engine workspaces. Replace the link by a copy of what it points to, or remove it (a relative link to a file inside the skill folder is allowed and copied as a link)`, displayPath(join(dir, bad[0]!.rel)));
}
