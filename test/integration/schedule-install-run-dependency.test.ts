// Issue 39's done-when, run: a project that lists whetstone as a dependency (`npm install --save-dev
// ./vendor/whetstone-X.tgz`, the tarball and package-lock.json committed), in a subfolder of its git
// repository. Each CI file `whet schedule print` writes runs `npm ci` in a clean clone, then the project's own
// whet (`npx --no-install whet`) runs the night on the mock engine; cron's and systemd's entries run the
// project's whet by its path. How the jobs are run: test/support/ci-jobs.ts.
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { write } from '../support/cli.js';
import { baseEnv, commitAll, git, nights, ok, pkg, printer, scheduleLineOf, runCron, runGithub, runGitlab, runK8s, runSystemd, startBench, stopBench, tarball, tmp } from '../support/ci-jobs.js';
import { runAsync } from '../support/npm.js';

beforeAll(startBench, 120_000);
afterAll(stopBench);

describe('the printed install of a project listing whetstone, run', () => {
  it('a project listing whetstone: npm ci in each job, then its own whet runs the night', { timeout: 300_000 }, async () => {
    const repo = join(tmp, 'dep-repo');
    const project = join(repo, 'evals');
    mkdirSync(join(project, 'vendor'), { recursive: true });
    ok(await git(['init', '-q', repo], tmp), 'git init');
    copyFileSync(tarball, join(project, 'vendor', basename(tarball)));
    write(join(project, 'package.json'), `${JSON.stringify({ name: 'skills', private: true }, null, 2)}\n`);
    const home = join(tmp, 'dep-home');
    mkdirSync(home);
    const user = { ...baseEnv(), HOME: home };
    // The user's own steps: the dependency, in package.json and package-lock.json as npm writes them
    // (--package-lock-only: the jobs' npm ci installs it), then `whet init` and the CI files, printed by this
    // checkout's whet in-process (the code the tarball ships; a spawned npx costs a second of CPU each).
    ok(await runAsync(['npm', 'install', '--save-dev', '--package-lock-only', `./vendor/${basename(tarball)}`], { cwd: project, env: user }), 'npm install --save-dev');
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies).toEqual({ [pkg.name]: `file:vendor/${basename(tarball)}` });
    const print = printer(project, user);
    // It lists whetstone: the schedule line needs no --package.
    const scheduleLine = scheduleLineOf(await print('init'));
    expect(scheduleLine).toBe('schedule print --via github');
    write(join(project, '.gitignore'), `${readFileSync(join(project, '.gitignore'), 'utf8')}node_modules/\n`);
    await commitAll(repo);

    const gh = await runGithub(await print(...scheduleLine!.split(' ')), repo, 'dep-github');
    expect(gh.steps.filter((s) => s.run).map((s) => s.run!.trim().split('\n')[0])).toEqual([
      'npm ci',
      "npx --no-install whet nightly -c 'pipeline.yaml'",
      "npx --no-install whet report --nightly --format html -o whetstone-report.html -c 'pipeline.yaml' || true",
    ]);
    expect(existsSync(join(gh.dir, 'node_modules', pkg.name, 'dist', 'bin', 'whet.js'))).toBe(true);
    expect(nights(join(gh.dir, 'state'))).toHaveLength(1);

    rmSync(dirname(gh.dir), { recursive: true });
    const gl = await runGitlab(await print('schedule', 'print', '--via', 'gitlab', '--shards', '2'), repo, 'dep-gitlab');
    expect(nights(join(gl.merged, 'evals', 'state'))).toHaveLength(1);
    rmSync(gl.merged, { recursive: true });

    // The image: the repository with `npm ci` done in the project (by its build, where no key is), started
    // at its root — what GitLab's install job has just made of a clone.
    const volume = await runK8s(await print('schedule', 'print', '--via', 'k8s', '--shards', '2'), gl.installed, 'dep-k8s');
    expect(nights(join(volume, 'state'))).toHaveLength(1);

    // cron and systemd, on a machine with the repository and its npm ci (the install job's clone), run the
    // whet that printed them: the project's own, by absolute path.
    const machine = join(gl.installed, 'evals');
    const own = realpathSync(join(machine, 'node_modules', pkg.name, 'dist', 'bin', 'whet.js'));
    const npxWhet = async (...args: string[]) => {
      const r = await runAsync(['npx', '--no-install', 'whet', ...args], { cwd: machine, env: user });
      ok(r, `npx whet ${args.join(' ')}`);
      return r.stdout;
    };
    expect(await runCron(await npxWhet('schedule', 'print', '--via', 'cron'), home)).toContain(`'${own}' 'nightly'`);
    expect(readFileSync(join(machine, 'state', 'nightly', 'cron.log'), 'utf8')).toMatch(/^written: .*\.json$/m);
    expect((await runSystemd(await npxWhet('schedule', 'print', '--via', 'systemd'), home)).slice(0, 3)).toEqual([process.execPath, own, 'nightly']);
    expect(nights(join(machine, 'state'))).toHaveLength(1);
    for (const d of [gl.installed, volume]) rmSync(d, { recursive: true });
    rmSync(repo, { recursive: true });
  });

});
