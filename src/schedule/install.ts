// How a CI job (GitHub, GitLab, Kubernetes) gets a `whet` that exists (issue 39): the project's own
// dependency (package.json lists whetstone: `npm ci`, then the installed bin), or the package spec the user
// names with --package (a tarball committed to the repository, a git URL, a registry version they
// publish). Anything else is refused with the flag to add: a workflow must never install a registry name
// this package is not published under, whose owner would then run install scripts in the job.
import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { UsageError } from '../core/errors.js';
import { isDependencyOf } from '../core/package-info.js';

export type WhetInstall =
  | { kind: 'dependency' }
  | { kind: 'package'; source: 'tarball' | 'git' | 'registry'; spec: string };

/** The refusal's text: which flag to add, or which line of package.json. */
export const NO_INSTALL_HINT =
  'add --package SPEC, how the job installs whetstone: a tarball committed to the repository (npm pack, then --package ./vendor/whetstone-X.Y.Z.tgz), a git URL (--package git+https://host/you/whetstone.git#v0.1.0) or a registry version you publish (--package @you/whetstone@0.1.0); or list whetstone in the project\'s package.json (devDependencies), so the job runs npm ci and the project\'s own whet';

const GIT = /^(git\+[a-z]+:|git:|github:|gitlab:|bitbucket:|gist:|https?:\/\/.*\.git(#.*)?$|[\w.-]+\/[\w.-]+#)/i;
const TARBALL = /^(\.{1,2}\/|\/|file:)|\.(tgz|tar\.gz|tar)$/i;

/**
 * The install a job uses. `spec` is --package as typed (a tarball path is read from `cwd`, must exist
 * inside the repository, and is rewritten relative to `runsIn`, the folder the install runs in: the project
 * folder in CI jobs, the repository root in a Kubernetes image).
 */
export function resolveInstall(o: { projectDir: string; repoRoot: string; cwd: string; spec?: string; runsIn?: string }): WhetInstall {
  if (o.spec === undefined) {
    if (isDependencyOf(o.projectDir)) return { kind: 'dependency' };
    throw new UsageError(`package.json in ${o.projectDir} does not list whetstone, so the job has no whet to run: ${NO_INSTALL_HINT}`);
  }
  const spec = o.spec.trim();
  if (spec === '' || /[\s'"`$\\]/.test(spec)) throw new UsageError(`--package "${o.spec}": give one npm package spec (no spaces, quotes or $)`);
  if (GIT.test(spec)) return { kind: 'package', source: 'git', spec };
  if (TARBALL.test(spec)) {
    const file = resolve(o.cwd, spec.replace(/^file:/, ''));
    if (!existsSync(file)) throw new UsageError(`--package ${spec}: no file at ${file} (npm pack writes whetstone-X.Y.Z.tgz; commit it to the repository)`);
    const inRepo = relative(o.repoRoot, file);
    if (inRepo.startsWith('..') || isAbsolute(inRepo)) throw new UsageError(`--package ${spec}: ${file} is outside the repository ${o.repoRoot}; the job only has the checkout: commit the tarball inside it`);
    const fromProject = relative(o.runsIn ?? o.projectDir, file).split(sep).join('/');
    return { kind: 'package', source: 'tarball', spec: fromProject.startsWith('.') ? fromProject : `./${fromProject}` };
  }
  // A registry spec: the user names a package they publish (and its version), so it is theirs to name.
  if (!/^(@[\w.-]+\/)?[\w.-]+(@[^@\s]+)?$/.test(spec)) throw new UsageError(`--package "${spec}" is not an npm package spec: ${NO_INSTALL_HINT}`);
  return { kind: 'package', source: 'registry', spec };
}

/** How a job calls the whet of a dependency install: only the local bin, never a registry lookup. */
export const NPX_WHET = 'npx --no-install whet';

/** One line saying where the job's whet comes from, for the printed file's comments. */
export function describeInstall(i: WhetInstall): string {
  if (i.kind === 'dependency') return 'whetstone is a dependency in package.json: npm ci installs it (with no engine key in its environment), npx runs it';
  return `whetstone is installed from --package ${i.spec} (${i.source === 'tarball' ? 'a tarball in the repository' : i.source === 'git' ? 'a git URL' : 'a registry version you publish'}), with no engine key in its environment`;
}
