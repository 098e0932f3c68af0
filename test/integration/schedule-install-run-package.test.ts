// Issue 39's done-when, run: a fresh `whet init` project at the root of its git repository, whose CI files
// install the `--package` spec `whet init` asks for (the packed tarball, committed under vendor/). Each job's
// install runs in a clean clone with no key in its environment, and the whet it installed runs the night on
// the mock engine; cron's and systemd's entries run the installed whet by its path. How the jobs are run:
// test/support/ci-jobs.ts.
import { copyFileSync, existsSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, clone, commitAll, git, nights, ok, pkg, printer, scheduleLineOf, runCron, runGithub, runGitlab, runK8s, runSystemd, startBench, stopBench, tarball, tmp } from '../support/ci-jobs.js';
import { runAsync } from '../support/npm.js';

beforeAll(startBench, 120_000);
afterAll(stopBench);

describe('the printed --package install of a fresh project, run', () => {
  it('a fresh `whet init` project: each job installs the --package tarball with no key, and that whet runs the night', { timeout: 300_000 }, async () => {
    const home = join(tmp, 'fresh-home');
    const repo = join(tmp, 'fresh-repo');
    mkdirSync(home);
    mkdirSync(repo);
    ok(await git(['init', '-q', repo], tmp), 'git init');
    const user = { ...baseEnv(), HOME: home };
    // `whet init` and the CI files from this checkout's whet, in-process (install-tarball.test.ts runs the
    // installed one's `whet init`); cron and systemd below from the whet `npm install -g` installed.
    const print = printer(repo, user);
    const init = await print('init');
    const scheduleLine = scheduleLineOf(init);
    expect(scheduleLine).toBe('schedule print --via github --package <spec>');
    // <spec>: a tarball committed to the repository, as the line's comment says.
    mkdirSync(join(repo, 'vendor'));
    copyFileSync(tarball, join(repo, 'vendor', basename(tarball)));
    await commitAll(repo);
    const spec = `./vendor/${basename(tarball)}`;

    const jobPrefix = join(tmp, 'fresh-github-prefix');
    const gh = await runGithub(await print(...scheduleLine!.replace('<spec>', spec).split(' ')), repo, 'fresh-github', jobPrefix);
    const install = gh.steps.find((s) => s.name === 'Install whetstone')!;
    expect(install.env).toEqual({ WHETSTONE_PACKAGE: spec });
    expect(existsSync(join(jobPrefix, 'bin', 'whet'))).toBe(true);
    expect(nights(join(gh.dir, 'state'))).toHaveLength(1);

    rmSync(gh.dir, { recursive: true });
    const gl = await runGitlab(await print('schedule', 'print', '--via', 'gitlab', '--shards', '2', '--package', spec), repo, 'fresh-gitlab');
    expect(existsSync(join(gl.installed, '.whetstone', 'bin', 'whet'))).toBe(true);
    expect(nights(join(gl.merged, 'state'))).toHaveLength(1);
    for (const d of [gl.installed, gl.merged]) rmSync(d, { recursive: true });

    const image = await clone(repo, 'fresh-image');
    const volume = await runK8s(await print('schedule', 'print', '--via', 'k8s', '--shards', '2', '--package', spec), image, 'fresh-k8s');
    expect(existsSync(join(tmp, 'fresh-k8s-opt', 'bin', 'whet'))).toBe(true);
    expect(nights(join(volume, 'state'))).toHaveLength(1);

    // cron and systemd run the whet installed on the machine, by absolute path (no --package: nothing is
    // installed by them). The GitHub job's install is `npm install -g` of the tarball, as a user installs it.
    const installed = realpathSync(join(jobPrefix, 'lib', 'node_modules', pkg.name, 'dist', 'bin', 'whet.js'));
    const installedWhet = async (...args: string[]) => {
      const r = await runAsync([join(jobPrefix, 'bin', 'whet'), ...args], { cwd: repo, env: user });
      ok(r, `whet ${args.join(' ')}`);
      return r.stdout;
    };
    expect(await runCron(await installedWhet('schedule', 'print', '--via', 'cron'), home)).toContain(`'${installed}' 'nightly'`);
    expect((await runSystemd(await installedWhet('schedule', 'print', '--via', 'systemd'), home))[1]).toBe(installed);
    expect(nights(join(repo, 'state'))).toHaveLength(1);
    for (const d of [repo, jobPrefix, join(tmp, 'fresh-k8s-opt'), volume]) rmSync(d, { recursive: true });
  });
});
