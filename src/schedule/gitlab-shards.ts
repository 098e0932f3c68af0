// The nightly as a GitLab CI pipeline sharded with `parallel: N` (`whet schedule print --via gitlab --shards
// N`): N copies of the shard job, each shard CI_NODE_INDEX of CI_NODE_TOTAL, run `whet nightly --shard` and
// keep their shard directory as an artifact; a merge job `needs:` all of them (and runs after a failed one
// too: the merge then refuses, naming the missing shard, so the night fails loudly), runs `whet nightly
// --merge`, writes the reports, keeps them and the night as artifacts, and exits with the verdict (1 on a
// drift alert). GitLab reads no schedule from the file: the comment names the pipeline schedule to create.
// Keys only where whet runs (issue 39): GitLab hands a CI/CD variable to every job of a pipeline, and a
// job's own `variables:` cannot take one away, but a variable scoped to an environment reaches only the
// jobs that name that environment. So whet is installed by a job of its own (npm ci, or npm install of the
// --package spec), with no environment, kept as an artifact; the shard and merge jobs name the environment
// whetstone-nightly, run only cd and whet, and the comment says to scope the keys to it. None is written
// here. Print only: a project's .gitlab-ci.yml is its own, so this file is included from it, not written.
import { UsageError } from '../core/errors.js';
import { inRepo, keyNames, sh } from './github-jobs.js';
import { describeInstall, NPX_WHET, type WhetInstall } from './install.js';
import { marker, type ScheduleTarget } from './units.js';

export const GITLAB_FILE = '.gitlab/whetstone-nightly-shards.yml';
export const GITLAB_IMAGE = 'node:20';
/** The variable the pipeline schedule sets, so the project's other pipelines do not start a night. */
export const GITLAB_TRIGGER = 'WHETSTONE_NIGHTLY';
/** The environment the engine keys are scoped to: only the jobs that run whet name it. */
export const GITLAB_ENVIRONMENT = 'whetstone-nightly';
/** Where a --package install puts whet, in the project folder (kept as the install job's artifact). */
const PREFIX = '.whetstone';

/** The install job's script and artifact, and how the whet jobs call what it installed. */
function whetSetup(install: WhetInstall, project: string): { lines: string[]; whet: string; keep: string; variables: string } {
  const at = project === '.' ? '' : `${project}/`;
  if (install.kind === 'dependency') return { lines: ['npm ci'], whet: NPX_WHET, keep: `${at}node_modules/`, variables: '' };
  return {
    lines: [`npm install -g --prefix "$CI_PROJECT_DIR/${at}${PREFIX}" "$WHETSTONE_PACKAGE"`],
    whet: `${PREFIX}/bin/whet`,
    keep: `${at}${PREFIX}/`,
    variables: `  variables:\n    WHETSTONE_PACKAGE: ${JSON.stringify(install.spec)}\n`,
  };
}

const list = (lines: string[]) => lines.map((l) => `    - ${JSON.stringify(l)}`).join('\n');

export function gitlabShardedPipeline(t: ScheduleTarget, repoRoot: string, shards: number, install: WhetInstall, image: string = GITLAB_IMAGE): string {
  if (!Number.isInteger(shards) || shards < 2 || shards > 200) throw new UsageError(`--shards ${shards}: give 2–200 for --via gitlab (GitLab's parallel: allows up to 200; one machine needs no shards)`);
  const project = inRepo(repoRoot, t.projectDir) ?? '.';
  const config = sh(inRepo(t.projectDir, t.configPath) ?? t.configPath);
  const state = inRepo(repoRoot, t.stateDir);
  // Artifacts and the cache take paths inside the checkout; a state directory elsewhere would be lost.
  if (!state) throw new UsageError(`the state directory ${t.stateDir} is outside the repository ${repoRoot}: set state_dir in the config to a folder inside it`);
  const prefix = project === '.' ? '' : `${project}/`;
  const setup = whetSetup(install, project);
  const keys = keyNames(t.keyEnvs);
  const enter = project === '.' ? [] : [`cd ${sh(project)}`];
  const installScript = [...enter, ...setup.lines];
  const shardScript = [...enter, `${setup.whet} nightly -c ${config} --shard "$CI_NODE_INDEX/$CI_NODE_TOTAL" --state-root "whetstone-shards/$CI_NODE_INDEX"`];
  const mergeScript = [
    ...enter,
    // The verdict is kept, the reports written whatever it is, and then it is the job's exit code.
    `verdict=0; ${setup.whet} nightly -c ${config} --merge whetstone-shards/* || verdict=$?`,
    `${setup.whet} report --nightly --format html -o whetstone-report.html -c ${config} || true`,
    `${setup.whet} report --nightly --format md -o whetstone-report.md -c ${config} || true`,
    'exit "$verdict"',
  ];
  return `${marker(t.projectDir)}
# GitLab reads no schedule from this file. Save it as ${GITLAB_FILE}, include it from .gitlab-ci.yml
# (include: [{local: ${GITLAB_FILE}}]; if .gitlab-ci.yml lists stages, add
# whetstone-install, whetstone-shards and whetstone-merge), then create a pipeline schedule (Build → Pipeline
# schedules) with the cron ${JSON.stringify(t.cron)}, time zone UTC, and the variable ${GITLAB_TRIGGER} = 1.
# Engine API keys: CI/CD variables (Settings → CI/CD → Variables, masked) named ${keys.join(', ')},
# each with Environment scope ${GITLAB_ENVIRONMENT}: GitLab then passes them only to the jobs that name that
# environment, the shard and merge jobs, whose scripts run whet and nothing else. The install job names
# none, so npm and the install scripts it runs never see a key. A key left unscoped reaches every job.
# ${describeInstall(install)}.
stages:
  - whetstone-install
  - whetstone-shards
  - whetstone-merge
variables:
  GIT_DEPTH: "1"
whetstone-install:
  stage: whetstone-install
  image: ${JSON.stringify(image)}
  rules:
    - if: '$${GITLAB_TRIGGER} == "1"'
${setup.variables}  timeout: 30m
  script:
${list(installScript)}
  artifacts:
    paths:
      - ${setup.keep}
    expire_in: 1 day
whetstone-shard:
  stage: whetstone-shards
  image: ${JSON.stringify(image)}
  environment:
    name: ${GITLAB_ENVIRONMENT}
  needs:
    - job: whetstone-install
      artifacts: true
  rules:
    - if: '$${GITLAB_TRIGGER} == "1"'
  # Which tasks each shard runs needs no state: every shard computes the same plan.
  parallel: ${shards}
  timeout: 2h
  script:
${list(shardScript)}
  artifacts:
    name: "whetstone-shard-$CI_NODE_INDEX"
    paths:
      - ${prefix}whetstone-shards/
    expire_in: 1 week
whetstone-merge:
  stage: whetstone-merge
  image: ${JSON.stringify(image)}
  environment:
    name: ${GITLAB_ENVIRONMENT}
  needs:
    - job: whetstone-install
      artifacts: true
    - job: whetstone-shard
      artifacts: true
  rules:
    # Also after a failed shard: the merge then refuses, naming the missing shard, and the night fails.
    - if: '$${GITLAB_TRIGGER} == "1"'
      when: always
  timeout: 1h
  # The state directory of earlier nights (history, trend), saved again on the alerting nights too.
  cache:
    key: whetstone-state
    paths:
      - ${state}/
    when: always
  script:
${list(mergeScript)}
  artifacts:
    name: "whetstone-nightly-$CI_PIPELINE_ID"
    when: always
    paths:
      - ${state}/nightly/
      - ${prefix}whetstone-report.html
      - ${prefix}whetstone-report.md
    expire_in: 30 days
`;
}
