// Writes into the user's skill folder never go through a symbolic link (issue 33). A SKILL.md that links to
// a file outside the project was written through by a keep (and by rollback), changing that outside file
// with no warning. Now every path about to be written — the file and each folder between the skill folder
// and it — is looked at first. A link is refused, naming it and where it points, before anything is
// written; with `loop.skill_links: replace` (keep, review approve) or `whet rollback --replace-links`, a
// link to a file is replaced by an ordinary file holding the new bytes, and the file it pointed to is left
// as it was. A linked folder on the way is refused either way: replacing it would mean copying a tree.
// The skill folder itself may be a link (a skill installed by linking its folder): its real path is the
// folder, and nothing is written outside it.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../core/errors.js';

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
