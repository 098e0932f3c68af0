// The CI jobs `whet schedule print` writes, run as their platforms would run them, for
// test/integration/schedule-install-run-*.test.ts (issue 39: the printed install runs, and the whet it gives
// does the night's work). Each printed file is parsed (YAML, the systemd units) and its jobs are run: every
// `run:` step of the GitHub job in order, each GitLab job in a fresh `git clone` with the artifacts its
// `needs:` carries, the Kubernetes pods' commands with the volumes at temporary paths; `actions/*` steps are
// the platform's and not run (the clone is the checkout). cron's entry and systemd's ExecStart run in place.
// The install steps get only their own env, never a key (that only whet steps are handed one is checked on
// the parsed files in schedule-install.test.ts). Offline: npm resolves against the loopback registry of the
// lockfile's runtime entries and takes every tarball from the cache `npm ci` filled (loopback-registry.ts).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { expect } from 'vitest';
import { repoRoot, tempDir, whet, write } from './cli.js';
import { startLockfileRegistry, type LoopbackRegistry } from './loopback-registry.js';
import { npmEnv, runAsync, type Ran } from './npm.js';

export const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string; version: string };
const KEY = /^(OPENAI_API_KEY|ANTHROPIC_API_KEY|.*_KEY|.*TOKEN.*|.*SECRET.*)$/i;

/**
 * `whet …` from this checkout, in-process (the code the tarball ships; a spawned npx costs a second of CPU
 * each), in the user's project: its stdout, after checking it succeeded and named no registry spec of ours.
 */
export function printer(cwd: string, env: NodeJS.ProcessEnv): (...args: string[]) => Promise<string> {
  return async (...args) => {
    const r = await whet(args, { cwd, env });
    expect(r.code, `whet ${args.join(' ')}: ${r.stderr}`).toBe(0);
    expect(r.stdout).not.toContain(`${pkg.name}@${pkg.version}`);
    return r.stdout;
  };
}

/** The `whet schedule print …` line `whet init` prints as the next step (its arguments, without `whet`). */
export const scheduleLineOf = (init: string): string | undefined => /^ {2}whet (schedule print .+?)(?:\s+#.*)?$/m.exec(init)?.[1];

export let tmp: string;
export let tarball: string;
let registry: LoopbackRegistry;

/** One `npm pack` of the built package and the loopback registry of the lockfile: call in beforeAll. */
export async function startBench(): Promise<void> {
  tmp = tempDir('whet-sched-run-');
  // dist/ is built by the test command; --ignore-scripts keeps `prepack` from rebuilding it under other tests.
  const pack = await runAsync(['npm', 'pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: repoRoot, env: npmEnv() });
  expect(pack.code, pack.all).toBe(0);
  tarball = join(tmp, (JSON.parse(pack.stdout.slice(pack.stdout.indexOf('['))) as { filename: string }[])[0]!.filename);
  registry = await startLockfileRegistry(JSON.parse(readFileSync(join(repoRoot, 'package-lock.json'), 'utf8')) as Parameters<typeof startLockfileRegistry>[0]);
}

export const stopBench = () => registry?.close();

/** A user's machine or a CI job: node, npm and the shell tools, no whet, no agent CLI, no key; npm offline. */
export function baseEnv(extraPath: string[] = []): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(npmEnv())) if (!KEY.test(k)) env[k] = v;
  const path = [...extraPath, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  return { ...env, PATH: path, CI: 'true', npm_config_registry: registry.url, npm_config_prefer_offline: 'true' };
}

export const ok = (r: Ran, what: string) => expect(r.code, `${what}:\n${r.all}`).toBe(0);
/** GitHub runs a `run:` step as `bash -e {0}`; GitLab a job's script lines under errexit: one bash -e each. */
export const bash = (script: string, cwd: string, env: NodeJS.ProcessEnv) => runAsync(['bash', '-e', '-c', script], { cwd, env });
export const git = (args: string[], cwd: string) => runAsync(['git', '-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], { cwd, env: npmEnv() });

/** A fresh checkout of the committed repository: what a CI job, or an image build, starts from. */
export async function clone(repo: string, name: string): Promise<string> {
  const dir = join(tmp, name);
  ok(await git(['clone', '-q', repo, dir], tmp), `git clone ${name}`);
  return dir;
}

export async function commitAll(repo: string): Promise<void> {
  ok(await git(['add', '-A'], repo), 'git add');
  ok(await git(['commit', '-qm', 'project'], repo), 'git commit');
}

/** The night `whet nightly` wrote into a state directory: one day file. */
export const nights = (stateDir: string) => (existsSync(join(stateDir, 'nightly')) ? readdirSync(join(stateDir, 'nightly')).filter((f) => /^\d{4}-\d\d-\d\d\.json$/.test(f)) : []);

/** Every line ends in `|| true`. */
const cannotFail = (script: string) => script.split('\n').filter((l) => l.trim()).every((l) => /\|\| true$/.test(l.trim()));

export interface GhStep { name?: string; uses?: string; run?: string; env?: Record<string, string> }

/** The one-machine GitHub job, step by step in a clone; `whetPath` the PATH entry a global install adds. */
export async function runGithub(text: string, repo: string, name: string, jobPrefix?: string): Promise<{ dir: string; steps: GhStep[] }> {
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
    // The night's reports end in `|| true`: they cannot fail the job, and are not run here (a second of CPU each).
    if (cannotFail(step.run!)) continue;
    expect(step.run, 'a step this test can run as written').not.toMatch(/\$\{\{/);
    // An unset repository secret is passed as an empty value.
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, v.replace(/^\$\{\{ secrets\.\w+ \}\}$/, '')]));
    ok(await bash(step.run!, dir, { ...env, ...stepEnv }), `github step "${step.name ?? step.run}"`);
  }
  return { dir, steps: job.steps };
}

export interface GlJob { script: string[]; variables?: Record<string, string>; artifacts?: { paths: string[] }; parallel?: number }

/** The GitLab pipeline: each job in its own clone, with the artifacts of the jobs it needs copied in. */
export async function runGitlab(text: string, repo: string, name: string): Promise<{ installed: string; merged: string }> {
  const ci = parse(text) as Record<string, GlJob>;
  const install = ci['whetstone-install']!;
  const shard = ci['whetstone-shard']!;
  const merge = ci['whetstone-merge']!;
  const job = async (j: GlJob, id: string, from: { dir: string; job: GlJob }[], vars: Record<string, string> = {}) => {
    const dir = await clone(repo, `${name}-${id}`);
    for (const f of from) for (const p of f.job.artifacts!.paths) if (existsSync(join(f.dir, p))) cpSync(join(f.dir, p), join(dir, p), { recursive: true, verbatimSymlinks: true });
    ok(await bash(j.script.filter((l) => !cannotFail(l)).join('\n'), dir, { ...baseEnv(), ...j.variables, ...vars, CI_PROJECT_DIR: dir }), `gitlab ${id}`);
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
export async function runK8s(text: string, image: string, name: string): Promise<string> {
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
export async function runCron(text: string, home: string): Promise<string> {
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
export async function runSystemd(text: string, home: string): Promise<string[]> {
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

