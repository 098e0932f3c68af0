// Issue 39's done-when, run rather than read: the CI files `whet schedule print` writes install whet from a
// source that exists, and the whet they install starts and does the night's work. Two projects, as users
// have them, each a git repository with its files committed:
// - one that lists whetstone in package.json (`npm install --save-dev ./vendor/whetstone-X.tgz`, the
//   tarball and package-lock.json committed), in a subfolder of its repository: the jobs run `npm ci`;
// - a fresh `whet init` project (whet installed with `npm install -g` of the tarball), at the repository's
//   root: the jobs install the `--package` spec `whet init` asks for.
// Each printed file is parsed (YAML, the systemd units) and its jobs are run as the platform would: every
// `run:` step of the GitHub job in order, each GitLab job in a fresh `git clone` with the artifacts its
// `needs:` carries, the Kubernetes pods' commands with the volumes at temporary paths; `actions/*` steps
// are the platform's and not run (the clone is the checkout). The whet steps run `whet nightly` on the
// mock engine and must write the night. cron's entry and systemd's ExecStart run the installed whet in
// place (they are what `schedule install` puts on this very machine). The install steps get only their
// own env, never a key; that only whet steps are handed one is checked on the parsed files in
// schedule-install.test.ts. Offline: npm resolves against the loopback registry of the lockfile's runtime
// entries and takes every tarball from the cache `npm ci` filled (test/support/loopback-registry.ts).
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, tempDir, whet as whetHere, write } from '../support/cli.js';
import { startLockfileRegistry, type LoopbackRegistry } from '../support/loopback-registry.js';
import { npmEnv, runAsync, type Ran } from '../support/npm.js';

const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
const KEY = /^(OPENAI_API_KEY|ANTHROPIC_API_KEY|.*_KEY|.*TOKEN.*|.*SECRET.*)$/i;

let tmp: string;
let tarball: string;
let registry: LoopbackRegistry;

beforeAll(async () => {
  tmp = tempDir('whet-sched-run-');
  // dist/ is built by the test command; --ignore-scripts keeps `prepack` from rebuilding it under other tests.
  const pack = await runAsync(['npm', 'pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: repoRoot, env: npmEnv() });
  expect(pack.code, pack.all).toBe(0);
  tarball = join(tmp, (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string }[])[0]!.filename);
  registry = await startLockfileRegistry(JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Parameters<typeof startLockfileRegistry>[0]);
}, 120_000);
afterAll(() => registry?.close());

/** A user's machine or a CI job: node, npm and the shell tools, no whet, no agent CLI, no key; npm offline. */
function baseEnv(extraPath: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(npmEnv())) if (!KEY.test(k)) env[k] = v;
  const path = [...extraPath, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  return { ...env, PATH: path, CI: 'true', npm_config_registry: registry.url, npm_config_prefer_offline: 'true' };
}

const ok = (r: Ran, what: string) => expect(r.code, `${what}:\n${r.all}`).toBe(0);
/** GitHub runs a `run:` step as `bash -e {0}`; GitLab a job's script lines under errexit: one bash -e each. */
const bash = (script: string, cwd: string, env: NodeJS.ProcessEnv) => runAsync(['bash', '-e', '-c', script], { cwd, env });
const git = (args: string[], cwd: string) => runAsync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { cwd, env: npmEnv() });

/** A fresh checkout of the committed repository: what a CI job, or an image build, starts from. */
async function clone(repo: string, name: string): Promise<string> {
  const dir = join(tmp, name);
  ok(await git(['clone', '-q', repo, dir], tmp), `git clone ${name}`);
  return dir;
}

async function commitAll(repo: string): Promise<void> {
  ok(await git(['add', '-A'], repo), 'git add');
  ok(await git(['commit', '-qm', 'project'], repo), 'git commit');
}

/** The night `whet nightly` wrote into a state directory: one day file. */
const nights = (stateDir: string) => (existsSync(join(stateDir, 'nightly')) ? readdirSync(join(stateDir, 'nightly')).filter((f) => /^\d{4}-\d\d-\d\d\.json$/.test(f)) : []);

interface GhStep { name?: string; uses?: string; run?: string; env?: Record<string, string> }

/** The one-machine GitHub job, step by step in a clone; `whetPath` the PATH entry a global install adds. */
async function runGithub(text: string, repo: string, name: string, jobPrefix?: string): Promise<{ dir: string; steps: GhStep[] }> {
  const wf = parse(text.slice(text.indexOf('# whetstone nightly'))) as { jobs: { nightly: { defaults: { run: { 'working-directory': string } }; steps: GhStep[] } } };
  const job = wf.jobs.nightly;
  const dir = join(await clone(repo, name), job.defaults.run['working-directory']);
  // setup-node's Node is on PATH with its global prefix's bin: here a fresh prefix of this job's own.
  const env = { ...baseEnv(jobPrefix ? [join(jobPrefix, 'bin')] : []), ...(jobPrefix ? { npm_config_prefix: jobPrefix } : {}) };
  for (const step of job.steps) {
    if (step.uses) {
      expect(step.uses, 'only the platform\'s own actions, not run here').toMatch(/^actions\/(checkout|setup-node|cache\/restore|cache\/save|upload-artifact)@v\d+$/);
      continue;
    }
    expect(step.run, 'a step this test can run as written').not.toMatch(/\$\{\{/);
    // An unset repository secret is passed as an empty value.
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(/^\$\{\{ secrets\.\w+ \}\}$/, '')]));
    ok(await bash(step.run!, dir, { ...env, ...stepEnv }), `github step "${step.name ?? step.run}"`);
  }
  return { dir, steps: job.steps };
}

interface GlJob { script: string[]; variables?: Record<string, string>; artifacts?: { paths: string[] }; parallel?: number }

/** The GitLab pipeline: each job in its own clone, with the artifacts of the jobs it needs copied in. */
async function runGitlab(text: string, repo: string, name: string): Promise<{ installed: string; merged: string }> {
  const ci = parse(text) as Record<string, GlJob>;
  const install = ci['whetstone-install']!;
  const shard = ci['whetstone-shard']!;
  const merge = ci['whetstone-merge']!;
  const job = async (j: GlJob, id: string, from: { dir: string; job: GlJob }[], vars: Record<string, string> = {}) => {
    const dir = await clone(repo, `${name}-${id}`);
    for (const f of from) for (const p of f.job.artifacts!.paths) if (existsSync(join(f.dir, p))) cpSync(join(f.dir, p), join(dir, p), { recursive: true, verbatimSymlinks: true });
    ok(await bash(j.script.join('\n'), dir, { ...baseEnv(), ...j.variables, ...vars, CI_PROJECT_DIR: dir }), `gitlab ${id}`);
    return { dir, job: j };
  };
  const installed = await job(install, 'install', []);
  const shards = [];
  for (let i = 1; i <= shard.parallel!; i++) shards.push(await job(shard, `shard-${i}`, [installed], { CI_NODE_INDEX: String(i), CI_NODE_TOTAL: String(shard.parallel) }));
  const merged = (await job(merge, 'merge', [installed, ...shards])).dir;
  for (const s of shards) rmSync(s.dir, { recursive: true, force: true });
  return { installed: installed.dir, merged };
}

/** The Kubernetes CronJobs' pods, in an image that is `image` (a folder): the volumes at temporary paths. */
async function runK8s(text: string, image: string, name: string): Promise<string> {
  const docs = parseAllDocuments(text).map((d) => d.toJS() as any);
  const pods = docs.filter((d) => d.kind === 'CronJob').map((d) => ({ spec: d.spec.jobTemplate.spec, pod: d.spec.jobTemplate.spec.template.spec }));
  const volume = join(tmp, `${name}-volume`);
  const opt = join(tmp, `${name}-opt`);
  mkdirSync(volume);
  const local = (s: string) => s.replaceAll('/shards', volume).replaceAll('/opt/whetstone', opt);
  const container = async (c: { name: string; command: string[]; env?: { name: string; value: string }[] }, vars: Record<string, string> = {}) => {
    expect(c.command.slice(0, 2)).toEqual(['sh', '-c']);
    const env = { ...baseEnv(), ...Object.fromEntries((c.env ?? []).map((e) => [e.name, e.value])), ...vars };
    ok(await runAsync(['sh', '-c', local(c.command[2]!)], { cwd: image, env, timeoutMs: 60_000 }), `k8s container ${c.name}`);
  };
  const [shards, merge] = pods;
  // Every pod's install (a --package spec) is the same init container into the same path: it runs once here.
  const installers = pods.flatMap((p) => (p.pod.initContainers ?? []).filter((c: { name: string }) => c.name === 'install-whetstone'));
  expect(installers.length, 'an install in every pod or in none').toBe(installers.length ? pods.length : 0);
  for (const c of installers) expect(c).toEqual(installers[0]);
  if (installers[0]) await container(installers[0]);
  for (let i = 0; i < shards!.spec.completions; i++) await container(shards!.pod.containers[0], { JOB_COMPLETION_INDEX: String(i) });
  for (const c of merge!.pod.initContainers ?? []) if (c.name !== 'install-whetstone') await container(c);
  await container(merge!.pod.containers[0]);
  return volume;
}

/** cron's entry as cron runs it: the command after the five schedule fields, by sh, with cron's bare env. */
async function runCron(text: string, home: string): Promise<string> {
  const lines = text.split('\n');
  const entry = lines[lines.findIndex((l) => l.startsWith('# whetstone nightly ')) + 1]!;
  const command = entry.split(' ').slice(5).join(' ');
  ok(await runAsync(['sh', '-c', command], { cwd: home, env: { PATH: '/usr/bin:/bin', HOME: home, SHELL: '/bin/sh', LOGNAME: 'u' } }), `cron: ${command}`);
  return command;
}

/** systemd's own reading of a command line: "…" with backslash escapes, then %% and $$ as one character. */
function execArgv(line: string): string[] {
  return [...line.matchAll(/"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => (m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!).replace(/%%/g, '%').replace(/\$\$/g, '$'));
}

/** The service and timer as printed, checked by systemd-analyze verify (the executable must exist), then ExecStart run. */
async function runSystemd(text: string, home: string): Promise<string[]> {
  const files = [...text.matchAll(/^# file: (\S+)\n([\s\S]*?)(?=^# file: |$(?![\s\S]))/gm)].map((m) => ({ name: basename(m[1]!), text: m[2]! }));
  expect(files.map((f) => f.name.replace(/.*\./, ''))).toEqual(['service', 'timer']);
  const units = join(tmp, `units-${files[0]!.name}`);
  for (const f of files) write(join(units, f.name), f.text);
  ok(await runAsync(['systemd-analyze', 'verify', ...files.map((f) => join(units, f.name))], { cwd: units, env: { PATH: '/usr/bin:/bin', SYSTEMD_LOG_COLOR: '0' } }), 'systemd-analyze verify');
  const service = files[0]!.text;
  const workdir = execArgv(/^WorkingDirectory=(.+)$/m.exec(service)![1]!)[0]!;
  const argv = execArgv(/^ExecStart=(.+)$/m.exec(service)![1]!);
  ok(await runAsync(argv, { cwd: workdir, env: { PATH: '/usr/bin:/bin', HOME: home } }), `systemd ExecStart: ${argv.join(' ')}`);
  return argv;
}

describe('the printed install, run', () => {
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
    // The user's own steps: the dependency (package.json and package-lock.json written by npm), then init.
    ok(await runAsync(['npm', 'install', '--save-dev', `./vendor/${basename(tarball)}`], { cwd: project, env: user }), 'npm install --save-dev');
    expect(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies).toEqual({ [pkg.name]: `file:vendor/${basename(tarball)}` });
    const npxWhet = (...args: string[]) => runAsync(['npx', '--no-install', 'whet', ...args], { cwd: project, env: user });
    const init = await npxWhet('init');
    ok(init, 'npx whet init');
    // It lists whetstone: the schedule line needs no --package.
    const scheduleLine = /^ {2}whet (schedule print .+?)(?:\s+#.*)?$/m.exec(init.stdout)?.[1];
    expect(scheduleLine).toBe('schedule print --via github');
    write(join(project, '.gitignore'), `${readFileSync(join(project, '.gitignore'), 'utf8')}node_modules/\n`);
    await commitAll(repo);

    // The CI files printed by this checkout's whet, in-process (the same code the tarball ships: a spawned
    // npx costs a second of CPU each); cron and systemd by the project's own whet, whose path they hold.
    const print = async (...args: string[]) => {
      const r = await whetHere(args, { cwd: project, env: user });
      expect(r.code, `whet ${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).not.toContain(`${pkg.name}@${pkg.version}`);
      return r.stdout;
    };
    const printOwn = async (...args: string[]) => {
      const r = await npxWhet(...args);
      ok(r, `npx whet ${args.join(' ')}`);
      return r.stdout;
    };

    const gh = await runGithub(await print(...scheduleLine!.split(' ')), repo, 'dep-github');
    expect(gh.steps.filter((s) => s.run).map((s) => s.run!.trim().split('\n')[0])).toEqual([
      'npm ci',
      "npx --no-install whet nightly -c 'pipeline.yaml'",
      "npx --no-install whet report --nightly --format html -o whetstone-report.html -c 'pipeline.yaml' || true",
    ]);
    expect(nights(join(gh.dir, 'state'))).toHaveLength(1);
    expect(readFileSync(join(gh.dir, 'whetstone-report.md'), 'utf8')).toMatch(/meeting-notes/);

    rmSync(dirname(gh.dir), { recursive: true });
    const gl = await runGitlab(await print('schedule', 'print', '--via', 'gitlab', '--shards', '2'), repo, 'dep-gitlab');
    expect(nights(join(gl.merged, 'evals', 'state'))).toHaveLength(1);
    rmSync(gl.merged, { recursive: true });

    // The image: the repository with `npm ci` done in the project (by its build, where no key is), started
    // at its root — what GitLab's install job has just made of a clone.
    const volume = await runK8s(await print('schedule', 'print', '--via', 'k8s', '--shards', '2'), gl.installed, 'dep-k8s');
    expect(nights(join(volume, 'state'))).toHaveLength(1);
    for (const d of [gl.installed, volume]) rmSync(d, { recursive: true });

    // cron and systemd run the whet that printed them: the project's own, by absolute path.
    const ownWhet = realpathSync(join(project, 'node_modules', pkg.name));
    const cron = await runCron(await printOwn('schedule', 'print', '--via', 'cron'), home);
    expect(cron).toContain(`'${join(ownWhet, 'dist', 'bin', 'whet.js')}' 'nightly'`);
    expect(readFileSync(join(project, 'state', 'nightly', 'cron.log'), 'utf8')).toMatch(/^written: .*\.json$/m);
    const argv = await runSystemd(await printOwn('schedule', 'print', '--via', 'systemd'), home);
    expect(argv.slice(0, 3)).toEqual([process.execPath, join(ownWhet, 'dist', 'bin', 'whet.js'), 'nightly']);
    expect(nights(join(project, 'state'))).toHaveLength(1);
    rmSync(repo, { recursive: true });
  });

  it('a fresh `whet init` project: each job installs the --package tarball with no key, and that whet runs the night', { timeout: 300_000 }, async () => {
    const home = join(tmp, 'fresh-home');
    const repo = join(tmp, 'fresh-repo');
    mkdirSync(home);
    mkdirSync(repo);
    ok(await git(['init', '-q', repo], tmp), 'git init');
    const user = { ...baseEnv(), HOME: home };
    // `whet init` and the CI files from this checkout's whet, in-process (install-tarball.test.ts runs the
    // installed one's `whet init`); cron and systemd below from the whet `npm install -g` installed.
    const print = async (...args: string[]) => {
      const r = await whetHere(args, { cwd: repo, env: user });
      expect(r.code, `whet ${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stdout).not.toContain(`${pkg.name}@${pkg.version}`);
      return r.stdout;
    };
    const init = await print('init');
    const scheduleLine = /^ {2}whet (schedule print .+?)(?:\s+#.*)?$/m.exec(init)?.[1];
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
