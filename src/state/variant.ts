// A candidate's variant: a full copy of the target folder with its SKILL.md edited, so the evaluation
// loads the candidate exactly as an agent would (references, scripts and assets included) and never
// touches the real skill. Left out of the copy: hidden files and folders (.git, editor state), the task
// suite (tasks.yaml / task_suite.yaml, or the suite the run names, when it sits in the folder: the
// skill's instructions must not carry its own test cases), node_modules, and the state directory when it
// lives inside the skill folder (copying it into itself would never end). The generate stage writes its
// candidates this way, and pipeline-mode evaluate a ranking's inline candidates and seed edit plans.
import { existsSync, mkdirSync, renameSync, symlinkSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fastGlob } from '../core/lazy.js';
import { copyFileAtomically, writeFileAtomically } from '../core/atomic.js';
import { stateLayout } from './layout.js';
import { folderLinks, refuseEscapingLinks } from '../skill/links.js';

export const SUITE_FILE_NAMES = ['tasks.yaml', 'task_suite.yaml'];

const inside = (dir: string, p: string) => {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
};

/** The files of the target folder a variant carries, relative to it, sorted. */
export function variantFiles(targetDir: string, exclude: readonly string[]): string[] {
  const ignore = ['**/node_modules/**', ...SUITE_FILE_NAMES];
  for (const p of exclude) {
    const abs = resolve(p);
    if (!inside(targetDir, abs) || abs === resolve(targetDir)) continue;
    const rel = relative(targetDir, abs).split('\\').join('/');
    ignore.push(rel, `${rel}/**`);
  }
  return fastGlob().sync('**/*', { cwd: targetDir, onlyFiles: true, dot: false, ignore, followSymbolicLinks: false }).sort();
}

/** Copies the target folder to `variantDir` and writes the candidate's SKILL.md there. */
export async function materialise(o: { targetDir: string; variantDir: string; skillText: string; exclude: readonly string[] }): Promise<string[]> {
  const files = variantFiles(o.targetDir, o.exclude);
  // A link out of the skill is refused with its path; a relative one inside it is carried as a link
  // (issue 31). SKILL.md is written as text, whatever it is in the target.
  const excluded = new Set(o.exclude.map((p) => relative(o.targetDir, resolve(p)).split('\\').join('/')));
  const links = folderLinks(o.targetDir).filter((l) => l.rel !== 'SKILL.md' && !SUITE_FILE_NAMES.includes(l.rel) && ![...excluded].some((e) => l.rel === e || l.rel.startsWith(`${e}/`)));
  if (links.some((l) => !l.kept)) refuseEscapingLinks(o.targetDir);
  for (const rel of files) {
    if (rel === 'SKILL.md') continue;
    const to = join(o.variantDir, rel);
    await copyFileAtomically(join(o.targetDir, rel), to);
  }
  for (const l of links) {
    mkdirSync(dirname(join(o.variantDir, l.rel)), { recursive: true });
    symlinkSync(l.to, join(o.variantDir, l.rel));
  }
  await writeFileAtomically(join(o.variantDir, 'SKILL.md'), o.skillText);
  return files.includes('SKILL.md') ? files : [...files, 'SKILL.md'].sort();
}

/**
 * Variants left by an earlier generate run of this iteration move to superseded/ (never deleted): the
 * candidates.json about to be written no longer describes them.
 */
export function supersedeVariants(iterDir: string, variantsDir: string, now: Date): string | undefined {
  if (!existsSync(variantsDir)) return undefined;
  const dest = join(stateLayout.supersededDir(iterDir), `${now.toISOString().replace(/[:.]/g, '-')}-variants`);
  mkdirSync(dirname(dest), { recursive: true });
  renameSync(variantsDir, dest);
  return dest;
}
