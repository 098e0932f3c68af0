// `whet schedule print|install|remove|run [--at CRON] [--via cron|systemd|github] [-c pipeline.yaml]`:
// the nightly job (`whet nightly -c CONFIG`, run in the config's folder) as a crontab entry, a systemd user
// timer or a GitHub Actions workflow (or, print only with --shards N, a GitLab pipeline or Kubernetes Jobs) — printed, installed idempotently, or removed exactly — or kept
// running in the foreground by `run`, which also takes any command after `--` in place of whet nightly.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { WHET_BIN } from '../core/package-info.js';
import { Option, type Command } from 'commander';
import type { CliDeps, SetCode } from '../program/deps.js';
import { loadPipeline, NO_PROJECT, type PipelineConfig } from '../config/pipeline.js';
import { UsageError } from '../core/errors.js';
import { DEFAULT_AT, describeRuns, nextRuns, parseCron } from '../schedule/cron.js';
import { installCrontab, removeCrontab, type ProcEnv } from '../schedule/crontab.js';
import { githubWorkflow, WORKFLOW_FILE } from '../schedule/github.js';
import { inRepo } from '../schedule/github-jobs.js';
import { githubShardedWorkflow, SHARDED_WORKFLOW_FILE } from '../schedule/github-shards.js';
import { gitlabShardedPipeline } from '../schedule/gitlab-shards.js';
import { k8sShardedManifests } from '../schedule/k8s-shards.js';
import { resolveInstall, type WhetInstall } from '../schedule/install.js';
import { runScheduler } from '../schedule/runner.js';
import { installSystemd, removeOwnedFile, removeSystemd, repositoryRoot, systemdUserDir, writeOwnedFile } from '../schedule/systemd.js';
import { crontabBlock, NIGHTLY_CALLS_NOTE, nightlyArgv, systemdUnits, unitName, type ScheduleTarget } from '../schedule/units.js';

export const VIAS = ['cron', 'systemd', 'github', 'gitlab', 'k8s'] as const;
type Via = (typeof VIAS)[number];

interface Opts {
  at: string;
  via: Via;
  config?: string;
  timeout?: string;
  shards?: string;
  image?: string;
  package?: string;
}

/** The workflow file and text for github: sharded over a job matrix with --shards N, else one job. */
function githubFile(deps: CliDeps, t: ScheduleTarget, o: Opts): { file: string; text: string } {
  const root = repositoryRoot(t.projectDir);
  const install = installOf(deps, t, o);
  if (o.shards === undefined) return { file: join(root, WORKFLOW_FILE), text: githubWorkflow(t, root, install) };
  return { file: join(root, SHARDED_WORKFLOW_FILE), text: githubShardedWorkflow(t, root, Number(o.shards), install) };
}

/** How a CI job gets whet: the project's dependency or --package; refused (exit 2, the flag to add) otherwise. */
function installOf(deps: CliDeps, t: ScheduleTarget, o: Opts): WhetInstall {
  const repoRoot = repositoryRoot(t.projectDir);
  // A Kubernetes pod starts in the image's folder, the repository root; a CI job in the project folder.
  return resolveInstall({ projectDir: t.projectDir, repoRoot, cwd: deps.cwd, spec: o.package, runsIn: o.via === 'k8s' ? repoRoot : t.projectDir });
}

function refuseShards(o: Opts): void {
  if (o.via === 'k8s' && o.shards === undefined) throw new UsageError('--via k8s writes an Indexed Job of shards: give --shards N');
  if (o.via === 'gitlab' && o.shards === undefined) throw new UsageError('--via gitlab writes a pipeline of parallel: N shard jobs and a merge job: give --shards N');
  if (o.shards !== undefined && o.via !== 'github' && o.via !== 'gitlab' && o.via !== 'k8s') throw new UsageError(`--shards runs the nightly on a CI job matrix or Kubernetes: it is supported with --via github, gitlab or k8s (not ${o.via})`);
  if (o.image !== undefined && o.via !== 'gitlab' && o.via !== 'k8s') throw new UsageError(`--image names the container the jobs run in: it is supported with --via gitlab or k8s (not ${o.via})`);
  if (o.package !== undefined && o.via !== 'github' && o.via !== 'gitlab' && o.via !== 'k8s') throw new UsageError(`--package names how a CI job installs whetstone: it is supported with --via github, gitlab or k8s (not ${o.via}, which runs this install: ${WHET_BIN})`);
  if (o.shards !== undefined && !/^\d+$/.test(o.shards)) throw new UsageError(`--shards "${o.shards}" must be a whole number`);
}

/** How to start this very whet: node and the install's bin (the bundled CLI), by absolute path. */
export function whetArgv(): string[] {
  return [process.execPath, WHET_BIN];
}

async function targetOf(deps: CliDeps, o: Opts, opts: { allowSeconds?: boolean } = {}): Promise<ScheduleTarget> {
  const configPath = resolve(deps.cwd, o.config ?? 'pipeline.yaml');
  if (!existsSync(configPath)) throw new UsageError(o.config ? `no pipeline config at ${configPath}: the nightly job needs one (pass -c FILE)` : `${NO_PROJECT} (the nightly job needs one)`);
  const cfg = await loadPipeline(configPath, deps.cwd);
  return { projectDir: dirname(configPath), configPath, stateDir: cfg.stateDir, whetArgv: whetArgv(), cron: parseCron(o.at, opts), keyEnvs: keyEnvsOf(cfg) };
}

/** The key variables the config's API engines read (their api_key_env), so the CI workflow can pass them. */
function keyEnvsOf(cfg: PipelineConfig): string[] {
  const engines = [cfg.engine, cfg.judgeEngine, cfg.loop.generatorEngine, ...cfg.targets.map((t) => t.engine)];
  return engines.flatMap((e) => (e && (e.type === 'openai' || e.type === 'anthropic') && e.api_key_env ? [e.api_key_env] : []));
}

/** The next three runs as comment lines, in local time and UTC (GitHub reads its cron in UTC). */
function runsComment(t: ScheduleTarget, via: Via, now: Date): string {
  const utc = via === 'github' || via === 'gitlab' || via === 'k8s';
  const head = `# schedule "${t.cron}" (${via === 'gitlab' ? 'UTC: give the pipeline schedule time zone UTC' : utc ? 'UTC, as GitHub reads it' : 'local time of the machine'}); next runs:`;
  return [head, ...describeRuns(nextRuns(t.cron, 3, now, utc ? 'UTC' : undefined)).map((l) => `#   ${l}`), NIGHTLY_CALLS_NOTE].join('\n');
}

function printText(deps: CliDeps, t: ScheduleTarget, via: Via, o: Opts): string {
  const head = runsComment(t, via, deps.now());
  if (via === 'cron') return `${head}\n${crontabBlock(t)}`;
  if (via === 'k8s') {
    const where = { project: inRepo(repositoryRoot(t.projectDir), t.projectDir) ?? '.', config: inRepo(t.projectDir, t.configPath) ?? t.configPath };
    return `${head}\n${k8sShardedManifests(t, Number(o.shards), o.image ?? 'whetstone-project:latest', where, installOf(deps, t, o))}`;
  }
  if (via === 'gitlab') return `${head}\n${gitlabShardedPipeline(t, repositoryRoot(t.projectDir), Number(o.shards), installOf(deps, t, o), o.image)}`;
  if (via === 'github') {
    const g = githubFile(deps, t, o);
    return `${head}\n# file: ${g.file}\n${g.text}`;
  }
  const u = systemdUnits(t);
  const dir = systemdUserDir(deps.env);
  return `${head}\n# OnCalendar=${u.onCalendar}\n# file: ${join(dir, `${u.name}.service`)}\n${u.service}\n# file: ${join(dir, `${u.name}.timer`)}\n${u.timer}`;
}

const common = (c: Command) => {
  c.option('--at <cron>', 'when, as a cron expression (five fields, or @daily …)', DEFAULT_AT);
  return c
    .addOption(new Option('--via <scheduler>', 'cron, systemd (user timer), github (Actions workflow), gitlab or k8s (print only, with --shards)').choices(VIAS).default('cron'))
    .option('-c, --config <file>', 'pipeline config the nightly job uses (default: ./pipeline.yaml)')
    .option('--shards <n>', 'github, gitlab, k8s: run the nightly as n shards (a job matrix, parallel: n, an Indexed Job) and a merge job')
    .option('--package <spec>', 'github, gitlab, k8s: how the jobs install whetstone when package.json does not list it: a tarball in the repository, a git URL or a registry version you publish')
    .option('--image <image>', 'gitlab: the jobs\' image (default node:20); k8s: the image holding the repository with npm ci done (default whetstone-project:latest)');
};

export function registerScheduleCommand(program: Command, deps: CliDeps, setCode: SetCode): void {
  const schedule = program.command('schedule').description('run `whet nightly` on a schedule: print, install or remove a crontab entry, a systemd timer or a CI workflow; or run it in the foreground');
  const pe = (): ProcEnv => ({ cwd: deps.cwd, env: deps.env, signal: deps.signal });

  common(schedule.command('print').description('show what install would write, with the next three run times')).action(async (o: Opts) => {
    refuseShards(o);
    deps.stdout(printText(deps, await targetOf(deps, o), o.via, o));
  });

  common(schedule.command('install').description('install the nightly job (installing twice leaves one)')).action(async (o: Opts) => {
    refuseShards(o);
    if (o.via === 'k8s') throw new UsageError('--via k8s is print only: whet schedule print --via k8s --shards N > whetstone.yaml && kubectl apply -f whetstone.yaml');
    if (o.via === 'gitlab') throw new UsageError('--via gitlab is print only (your .gitlab-ci.yml is your own): whet schedule print --via gitlab --shards N > .gitlab/whetstone-nightly-shards.yml, then include it from .gitlab-ci.yml');
    const t = await targetOf(deps, o);
    const runs = runsComment(t, o.via, deps.now());
    if (o.via === 'cron') {
      const action = await installCrontab(pe(), crontabBlock(t), t.projectDir);
      deps.stdout(`crontab: whetstone entry for ${t.projectDir} ${action}\n${runs}\n`);
    } else if (o.via === 'systemd') {
      const u = systemdUnits(t);
      const r = await installSystemd(pe(), u, t.projectDir);
      deps.stdout(`systemd: ${u.name}.service ${r.service}, ${u.name}.timer ${r.timer} in ${r.dir}; timer enabled (OnCalendar=${u.onCalendar})\n${runs}\n`);
    } else {
      const { file, text } = githubFile(deps, t, o);
      const action = await writeOwnedFile(file, text, t.projectDir);
      deps.stdout(`github: ${file} ${action}; commit and push it to start the schedule\n${runs}\n`);
    }
  });

  // --at is accepted so the synopsis's `remove --at …` (the install line with its verb changed) works; the
  // entry is found by its project marker, so whatever schedule install wrote is removed, at any time of day.
  common(schedule.command('remove').description('remove exactly what install wrote, nothing else (--at is checked, not needed)')).action(async (o: Opts) => {
    refuseShards(o);
    if (o.via === 'k8s') throw new UsageError('--via k8s is print only: remove its objects with kubectl delete -f whetstone.yaml');
    if (o.via === 'gitlab') throw new UsageError('--via gitlab is print only: delete the file you saved and its include: line, and the pipeline schedule');
    const t = await targetOf(deps, o);
    if (o.via === 'cron') {
      const n = await removeCrontab(pe(), t.projectDir);
      deps.stdout(n ? `crontab: whetstone entry for ${t.projectDir} removed\n` : `crontab: no whetstone entry for ${t.projectDir}; nothing removed\n`);
    } else if (o.via === 'systemd') {
      const name = unitName(t.projectDir);
      const r = await removeSystemd(pe(), name, t.projectDir);
      if (r.warning) deps.stderr(`whet: ${r.warning}\n`);
      deps.stdout(`systemd: ${name}.timer ${r.timer}, ${name}.service ${r.service} (${r.dir})\n`);
    } else {
      // Only the path: removing needs no install, so it is never refused for want of --package.
      const file = join(repositoryRoot(t.projectDir), o.shards === undefined ? WORKFLOW_FILE : SHARDED_WORKFLOW_FILE);
      deps.stdout(`github: ${file} ${removeOwnedFile(file, t.projectDir)}\n`);
    }
  });

  schedule
    .command('run')
    .description('keep one runner in the foreground that starts the nightly job at each due time (never two at once)')
    .option('--at <cron>', 'when, as a cron expression (six fields allowed: seconds first)', DEFAULT_AT)
    .option('-c, --config <file>', 'pipeline config the nightly job uses (default: ./pipeline.yaml)')
    .option('--timeout <minutes>', 'longest one run may take', '720')
    .argument('[command...]', 'run this command (after --) instead of whet nightly')
    .action(async (command: string[], o: Opts) => {
      const minutes = Number(o.timeout);
      if (!Number.isFinite(minutes) || minutes <= 0) throw new UsageError('--timeout must be a positive number of minutes');
      const custom = command.length > 0;
      const t = custom ? undefined : await targetOf(deps, { ...o, via: 'cron' }, { allowSeconds: true });
      const cron = t?.cron ?? parseCron(o.at, { allowSeconds: true });
      const r = await runScheduler({
        cron,
        argv: t ? nightlyArgv(t) : command,
        cwd: t?.projectDir ?? deps.cwd,
        env: deps.env,
        log: (l) => deps.stderr(`whet schedule: ${l}\n`),
        signal: deps.signal,
        timeoutMs: Math.round(minutes * 60_000),
        now: deps.now,
      });
      deps.stdout(`schedule stopped: ${r.started} run(s) started, ${r.finished} finished (${r.failed} failed), ${r.skipped} due time(s) skipped while a run was still going\n`);
      setCode(0);
    });
}
